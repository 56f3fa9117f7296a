// --labels FILE: class names for the top-5 of score outputs.
#pragma once

#include <string>
#include <vector>

namespace npurun::cli {

// One name per line (trailing '\r' removed; a final empty line ignored). Throws Error(BadInput) naming
// the file when it cannot be read, is empty, or has an empty or over-long name.
std::vector<std::string> read_labels(const std::string& path);

// The names for a scores output of `classes` entries. The file may have one name per class, or one more
// (a first "background" line the model does not have: it is skipped), or one fewer (the model has a
// background class at index 0 the file does not name: it is called "background"). Anything else is an
// Error(BadInput) that gives both counts.
std::vector<std::string> labels_for(const std::vector<std::string>& file, size_t classes, const std::string& path);

}  // namespace npurun::cli
