#include "tests/conformance/generator/case_files.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

namespace conformance {
namespace {

void write_bytes(const std::string& path, const Bytes& bytes) {
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    if (!f) throw std::runtime_error("cannot write " + path);
}

const char* compare_name(Compare c) {
    switch (c) {
        case Compare::Float: return "float";
        case Compare::Quantized: return "quantized";
        case Compare::Top1: return "top1";
    }
    return "?";
}

std::string binding_line(const char* kind, const Binding& b, const std::string& file) {
    std::ostringstream s;
    s.precision(9);
    s << kind << ' ' << b.id << ' ' << dtype_name(b.info.GetDataType()) << ' ';
    const armnn::TensorShape& shape = b.info.GetShape();
    // An Arm NN scalar is stored as dims [1] with dimensionality Scalar; it is a rank-0 tensor.
    if (shape.GetDimensionality() == armnn::Dimensionality::Scalar) s << "scalar";
    else
        for (unsigned d = 0; d < shape.GetNumDimensions(); ++d) s << (d ? "," : "") << shape[d];
    s << ' ' << b.info.GetQuantizationScale() << ' ' << b.info.GetQuantizationOffset() << ' ' << file << ' '
      << b.name;
    return s.str();
}

}  // namespace

void make_directory(const std::string& path) {
    if (mkdir(path.c_str(), 0755) != 0 && errno != EEXIST)
        throw std::runtime_error("cannot create " + path + ": " + std::strerror(errno));
}

void write_case(const std::string& out_dir, const CaseRecord& c) {
    const std::string dir = out_dir + "/" + c.name;
    make_directory(dir);
    write_bytes(dir + "/model.armnn", c.model);
    std::ostringstream m;
    m << "name " << c.name << "\nlayer " << c.layer << "\ndtype " << c.dtype << "\ncompare "
      << compare_name(c.compare) << ' ' << c.tolerance << "\ncli " << (c.cli ? 1 : 0) << "\nmodel model.armnn\n";
    for (size_t i = 0; i < c.inputs.size(); ++i) {
        const std::string file = "input_" + std::to_string(i) + ".bin";
        write_bytes(dir + "/" + file, c.inputs[i]);
        m << binding_line("input", c.bindings.inputs[i], file) << '\n';
    }
    for (size_t i = 0; i < c.expected.size(); ++i) {
        const std::string file = "expected_" + std::to_string(i) + ".bin";
        write_bytes(dir + "/" + file, c.expected[i]);
        m << binding_line("output", c.bindings.outputs[i], file) << '\n';
    }
    if (!c.golden_npy.empty()) m << "golden_npy " << c.golden_npy << '\n';
    for (const auto& n : c.notes) m << "note " << n << '\n';
    const std::string text = m.str();
    write_bytes(dir + "/manifest.txt", Bytes(text.begin(), text.end()));
}

void write_index(const std::string& path, const std::vector<IndexEntry>& entries) {
    std::ostringstream s;
    for (const auto& e : entries) {
        std::string reason = e.reason;
        for (char& ch : reason)
            if (ch == '\n' || ch == '\r') ch = ' ';
        s << e.name << ' ' << e.status << ' ' << e.layer << ' ' << e.dtype;
        if (!reason.empty()) s << ' ' << reason;
        s << '\n';
    }
    const std::string text = s.str();
    // Written last, to a temporary name then renamed, so a half-finished run never looks complete.
    const std::string tmp = path + ".tmp";
    write_bytes(tmp, Bytes(text.begin(), text.end()));
    if (std::rename(tmp.c_str(), path.c_str()) != 0) throw std::runtime_error("cannot rename " + tmp);
}

Bytes read_file(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    if (!f) throw CaseSkipped("cannot read " + path);
    return Bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

}  // namespace conformance
