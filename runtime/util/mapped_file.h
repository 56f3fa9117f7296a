// Read-only memory mapping of a whole file.
//
// Model files are mapped rather than read so that constant tensors (weights) can be used in place: the
// Graph keeps the mapping alive through Graph::file (a ConstantStorage) as long as any view points into it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "ir/graph.h"

namespace npurun {

class MappedFile : public ConstantStorage {
public:
    // Maps `path` read-only. Throws Error(BadInput) naming the path and the reason when the file is
    // missing, unreadable, a directory (or otherwise not a regular file), or empty.
    explicit MappedFile(const std::string& path);
    ~MappedFile() override;
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;

    const uint8_t* data() const { return data_; }
    size_t size() const { return size_; }
    const std::string& path() const { return path_; }

private:
    std::string path_;
    const uint8_t* data_ = nullptr;
    size_t size_ = 0;
};

}  // namespace npurun
