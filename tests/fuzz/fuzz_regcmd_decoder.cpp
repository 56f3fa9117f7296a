// libFuzzer target for the regcmd decoder: the data is a buffer of little-endian qwords, decoded as a
// stream of lists (decode_stream) and entry by entry (decode_entry + format_write). Either it decodes or
// throws RegcmdError; anything else is a finding.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "drv/regcmd/regcmd_decoder.h"
#include "drv/regcmd/register_map.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::vector<uint64_t> q(size / 8);
    if (!q.empty()) std::memcpy(q.data(), data, q.size() * 8);
    try {
        for (uint64_t e : q) (void)npudrv::regcmd::format_write(npudrv::regcmd::decode_entry(e));
        const auto tasks = npudrv::regcmd::decode_stream(q, size % 8 == 0 ? 0 : 0x1000);
        for (const auto& t : tasks) (void)t.description.size();
    } catch (const npudrv::regcmd::RegcmdError&) {
    }
    return 0;
}
