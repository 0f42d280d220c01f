#pragma once
// Writing a result file so that a failure is never silent and never costs the file that was there:
// the bytes go to a temporary beside the target, which is renamed over it only after a checked
// close. A target that exists and is not a regular file (a terminal, a pipe, /dev/full) is written
// in place, every write checked.
#include <string>
#include <string_view>
#include <vector>

namespace kcycle {

// Throws std::runtime_error("cannot write PATH: REASON") where REASON is the OS's. A replaced file
// keeps its permissions; a link is written through (to its file, made if missing); the temporary
// is synced before the rename; temporaries a killed writer left (.NAME.PID.XXXXXX, PID gone, a
// minute old) are removed.
void write_file_replacing(const std::string& path, std::string_view bytes);

// A run's files, each in its temporary first and then renamed into place one after the other, so
// that a failure or a kill while writing any of them leaves every old file as it was.
struct FileBytes {
  std::string path, bytes;
};
void write_files_together(const std::vector<FileBytes>& files);

// Before the work: whether `path` can be written as a file (its folder exists and takes the real
// temporary, made and removed; it is not a folder itself). Returns why not ("" when it can), for
// the caller's message.
std::string why_not_writable(const std::string& path);
// Whether `a` and `b` name one existing file (through links, ., .., hard links): an output that is
// also an input is refused before the work, as it would overwrite what it reads.
bool same_file(const std::string& a, const std::string& b);

// The same for a folder the work writes into, made if missing (with its parents).
std::string why_not_writable_folder(const std::string& folder);

}  // namespace kcycle
