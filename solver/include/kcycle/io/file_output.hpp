#pragma once
// Writing a result file so that a failure is never silent and never costs the file that was there:
// the bytes go to a temporary beside the target, which is renamed over it only after a checked
// close. A target that exists and is not a regular file (a terminal, a pipe, /dev/full) is written
// in place, every write checked.
#include <string>
#include <string_view>

namespace kcycle {

// Throws std::runtime_error("cannot write PATH: REASON") where REASON is the OS's.
void write_file_replacing(const std::string& path, std::string_view bytes);

// Before the work: whether `path` can be written as a file (its folder exists and is writable,
// it is not a folder itself). Returns why not ("" when it can), for the caller's message.
std::string why_not_writable(const std::string& path);
// The same for a folder the work writes into, made if missing (with its parents).
std::string why_not_writable_folder(const std::string& folder);

}  // namespace kcycle
