#include "tools/npurun/labels.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "core/error.h"

namespace npurun::cli {

std::vector<std::string> read_labels(const std::string& path) {
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (f == nullptr) fail(ErrorKind::BadInput, "--labels: cannot open '" + path + "': " + std::strerror(errno));
    std::string text;
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) {
        text.append(buf, n);
        if (text.size() > (size_t{64} << 20)) {
            std::fclose(f);
            fail(ErrorKind::BadInput, "--labels: '" + path + "' is larger than 64 MB");
        }
    }
    const bool read_error = std::ferror(f) != 0;
    std::fclose(f);
    if (read_error) fail(ErrorKind::BadInput, "--labels: cannot read '" + path + "'");
    std::vector<std::string> names;
    size_t start = 0;
    while (start < text.size()) {
        size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        std::string line = text.substr(start, end - start);
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.empty())
            fail(ErrorKind::BadInput, "--labels: '" + path + "' line " + std::to_string(names.size() + 1) + " is empty");
        if (line.find('\0') != std::string::npos)
            fail(ErrorKind::BadInput, "--labels: '" + path + "' line " + std::to_string(names.size() + 1) + " holds a NUL byte (not a text file?)");
        names.push_back(std::move(line));
        start = end + 1;
    }
    if (names.empty()) fail(ErrorKind::BadInput, "--labels: '" + path + "' has no names");
    return names;
}

std::vector<std::string> labels_for(const std::vector<std::string>& file, size_t classes, const std::string& path) {
    if (file.size() == classes) return file;
    if (file.size() == classes + 1) return std::vector<std::string>(file.begin() + 1, file.end());
    if (file.size() + 1 == classes) {
        std::vector<std::string> names{"background"};
        names.insert(names.end(), file.begin(), file.end());
        return names;
    }
    fail(ErrorKind::BadInput, "--labels: '" + path + "' has " + std::to_string(file.size()) + " names, but the output has " +
                                  std::to_string(classes) + " classes (expected " + std::to_string(classes) + ", or one more or one fewer for a background class)");
}

}  // namespace npurun::cli
