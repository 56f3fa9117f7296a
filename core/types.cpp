#include "core/types.h"

#include <sstream>

#include "core/error.h"
#include "core/checked_math.h"

namespace npurun {

size_t element_size(DataType t) {
    switch (t) {
        case DataType::Float16: return 2;
        case DataType::Float32: return 4;
        case DataType::QAsymmU8: return 1;
        case DataType::QAsymmS8: return 1;
        case DataType::QSymmS8: return 1;
        case DataType::QSymmS16: return 2;
        case DataType::Signed32: return 4;
        case DataType::Signed64: return 8;
        case DataType::Boolean: return 1;
    }
    return 0;
}

const char* to_string(DataType t) {
    switch (t) {
        case DataType::Float16: return "Float16";
        case DataType::Float32: return "Float32";
        case DataType::QAsymmU8: return "QAsymmU8";
        case DataType::QAsymmS8: return "QAsymmS8";
        case DataType::QSymmS8: return "QSymmS8";
        case DataType::QSymmS16: return "QSymmS16";
        case DataType::Signed32: return "Signed32";
        case DataType::Signed64: return "Signed64";
        case DataType::Boolean: return "Boolean";
    }
    return "?";
}

bool is_quantized(DataType t) {
    return t == DataType::QAsymmU8 || t == DataType::QAsymmS8 || t == DataType::QSymmS8 || t == DataType::QSymmS16;
}

bool is_float(DataType t) { return t == DataType::Float16 || t == DataType::Float32; }

const char* to_string(DataLayout l) {
    switch (l) {
        case DataLayout::NHWC: return "NHWC";
        case DataLayout::NCHW: return "NCHW";
        case DataLayout::NDHWC: return "NDHWC";
        case DataLayout::NCDHW: return "NCDHW";
    }
    return "?";
}

Shape::Shape(std::initializer_list<uint32_t> d) {
    if (d.size() > kMaxRank) fail(ErrorKind::Internal, "shape rank above the maximum");
    for (uint32_t v : d) dims[rank++] = v;
}

Shape Shape::from(const std::vector<uint32_t>& d) {
    if (d.size() > kMaxRank)
        fail(ErrorKind::BadModel, "tensor rank " + std::to_string(d.size()) + " exceeds the maximum of " +
                                      std::to_string(kMaxRank));
    Shape s;
    for (uint32_t v : d) s.dims[s.rank++] = v;
    return s;
}

size_t Shape::num_elements() const {
    size_t n = 1;
    for (uint32_t i = 0; i < rank; ++i) {
        if (!checked_mul(n, size_t(dims[i]), &n)) fail(ErrorKind::BadModel, "tensor shape " + str() + " is too large");
    }
    return n;
}

std::string Shape::str() const {
    if (rank == 0) return "scalar";
    std::string s;
    for (uint32_t i = 0; i < rank; ++i) {
        if (i) s += 'x';
        s += std::to_string(dims[i]);
    }
    return s;
}

bool Shape::operator==(const Shape& o) const {
    if (rank != o.rank) return false;
    for (uint32_t i = 0; i < rank; ++i)
        if (dims[i] != o.dims[i]) return false;
    return true;
}

size_t TensorInfo::num_bytes() const {
    size_t bytes = 0;
    if (!checked_mul(shape.num_elements(), element_size(dtype), &bytes))
        fail(ErrorKind::BadModel, "tensor " + shape.str() + " is too large");
    return bytes;
}

std::string TensorInfo::str() const {
    std::ostringstream os;
    os << shape.str() << ' ' << to_string(dtype);
    if (is_quantized(dtype)) {
        if (quant.per_axis()) {
            os << " per-axis(" << quant.axis << ", " << quant.scales.size() << " scales)";
        } else {
            os << " s=" << quant.scale() << " zp=" << quant.offset;
        }
    }
    return os.str();
}

}  // namespace npurun
