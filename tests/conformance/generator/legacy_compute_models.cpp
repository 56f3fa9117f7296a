// The 2019-format L2Normalization and Lstm files from Arm NN's own backward-compatibility tests
// (../shared/models/armnn/legacy): no featureVersions, L2Normalization without eps (reads as 1e-12).
// Arm NN 20.08 reads them and CpuRef runs them on deterministic random inputs.
#include <sys/stat.h>

#include "tests/conformance/generator/random_tensor.h"
#include "tests/conformance/generator/real_models.h"

namespace conformance {

std::vector<RealCase> legacy_compute_model_cases(const std::string& shared_dir) {
    struct File {
        const char* layer;
        const char* file;
    };
    std::vector<RealCase> cases;
    for (const File f : {File{"L2Normalization", "EnsureL2NormalizationBackwardCompatibility.armnn"},
                         File{"Lstm", "EnsureLstmLayersBackwardCompatibility.armnn"}}) {
        const std::string name = std::string("legacy_") + f.layer;
        const std::string path = shared_dir + "/models/armnn/legacy/" + f.file;
        const std::string layer = f.layer;
        cases.push_back({name, layer, "Float32", [path, name, layer](CpuRefRunner& runner) {
            struct stat st;
            if (stat(path.c_str(), &st) != 0) throw CaseSkipped("shared model absent: " + path);
            CaseRecord rec;
            rec.model = read_file(path);
            armnn::INetworkPtr net = deserialize(rec.model);
            rec.bindings = bindings_of(*net);
            Prng prng = Prng::for_case(name);
            for (const Binding& b : rec.bindings.inputs) rec.inputs.push_back(random_tensor(b.info, {}, prng));
            rec.expected = runner.run(*net, rec.bindings, rec.inputs);
            rec.name = name;
            rec.layer = layer;
            rec.dtype = "Float32";
            rec.notes.push_back("2019-format file from Arm NN's backward-compatibility tests, random inputs");
            return rec;
        }});
    }
    return cases;
}

}  // namespace conformance
