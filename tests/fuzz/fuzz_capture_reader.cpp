// libFuzzer target for the capture readers (drv/regcmd/capture_reader.h): the first byte picks the format
// (0: JSON, 1: gdb log, else raw regcmd), the rest is the file; the capture is then decoded. Either it
// reads or throws RegcmdError; anything else is a finding. `make fuzz` seeds it from ../shared/captures
// with the selector byte prepended.
#include <cstddef>
#include <cstdint>
#include <string>

#include "drv/regcmd/capture_reader.h"
#include "drv/regcmd/register_map.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    const std::string body(reinterpret_cast<const char*>(data) + 1, size - 1);
    try {
        npudrv::regcmd::Capture c;
        switch (data[0] % 3) {
            case 0: c = npudrv::regcmd::parse_capture_json(body, "fuzz.json"); break;
            case 1: c = npudrv::regcmd::parse_capture_log(body, "fuzz.log"); break;
            default: c = npudrv::regcmd::parse_raw_regcmd(body, "fuzz.bin", 0); break;
        }
        (void)npudrv::regcmd::decode_capture(c);
    } catch (const npudrv::regcmd::RegcmdError&) {
    }
    return 0;
}
