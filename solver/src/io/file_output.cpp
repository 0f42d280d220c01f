#include "kcycle/io/file_output.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <stdexcept>
#include <vector>

namespace kcycle {

namespace {

[[noreturn]] void fail(const std::string& path, const std::string& reason) {
  throw std::runtime_error("cannot write " + path + ": " + reason);
}

// Every byte, or the OS's reason.
void write_all(int fd, std::string_view bytes, const std::string& path) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const std::string reason = n < 0 ? std::strerror(errno) : "nothing written";
      ::close(fd);
      fail(path, reason);
    }
    bytes.remove_prefix(std::size_t(n));
  }
}

// Where a write to `path` lands: through any symbolic links to the file they name, as the
// shell's > follows them, whether that file exists or not (a dangling link's file is made, the
// link kept; renaming over the link would replace it with a copy).
std::string resolved_target(const std::string& path) {
  namespace fs = std::filesystem;
  fs::path p = path;
  for (int hops = 0; hops < 40; ++hops) {  // the kernel's own limit on a chain of links
    std::error_code error;
    if (!fs::is_symlink(fs::symlink_status(p, error)) || error) break;
    const fs::path next = fs::read_symlink(p, error);
    if (error) break;
    p = next.is_absolute() ? next : p.parent_path() / next;
  }
  return p.string();
}

std::string folder_of(const std::string& target) {
  const std::size_t slash = target.rfind('/');
  return slash == std::string::npos ? "." : slash == 0 ? "/" : target.substr(0, slash);
}

// The temporary beside the target (the same file system, so the rename is atomic), hidden, with
// its writer's process id: ".NAME.PID.XXXXXX".
std::string temporary_pattern(const std::string& target) {
  const std::size_t slash = target.rfind('/');
  const std::size_t base = slash == std::string::npos ? 0 : slash + 1;
  return target.substr(0, base) + "." + target.substr(base) + "." + std::to_string(::getpid()) + ".XXXXXX";
}

// Temporaries of `target` whose writer was killed before its rename (kill -9, a power cut): a
// process id no longer running, and a minute old (a writer on another machine sharing the folder
// has pids of its own).
void remove_stale_temporaries(const std::string& target) {
  namespace fs = std::filesystem;
  const fs::path path = target;
  const std::string prefix = "." + path.filename().string() + ".";
  std::error_code error;
  const fs::path folder = path.has_parent_path() ? path.parent_path() : fs::path(".");
  for (const fs::directory_entry& entry : fs::directory_iterator(folder, error)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(prefix, 0) != 0) continue;
    const std::string rest = name.substr(prefix.size());  // PID.XXXXXX
    const std::size_t dot = rest.find('.');
    if (dot == 0 || dot == std::string::npos || rest.size() - dot - 1 != 6 ||
        rest.find_first_not_of("0123456789") != dot)
      continue;
    const long pid = std::strtol(rest.c_str(), nullptr, 10);
    if (pid <= 0 || pid == ::getpid() || ::kill(pid_t(pid), 0) == 0 || errno != ESRCH) continue;
    struct stat st {};
    if (::lstat(entry.path().c_str(), &st) != 0 || !S_ISREG(st.st_mode) || std::time(nullptr) - st.st_mtime < 60)
      continue;
    ::unlink(entry.path().c_str());
  }
}

// One file of a set: its bytes in a closed, synced temporary, or (a target that exists and is not
// a regular file: a terminal, a pipe, /dev/full) to be written in place.
struct PreparedFile {
  std::string path, target, temporary;
  std::string_view bytes;
  bool in_place = false;
};

PreparedFile prepare(const std::string& path, std::string_view bytes) {
  if (path.empty()) fail("\"\"", "empty file name");
  PreparedFile f{path, resolved_target(path), "", bytes, false};
  struct stat st {};
  const bool exists = ::stat(f.target.c_str(), &st) == 0;
  if (exists && S_ISDIR(st.st_mode)) fail(path, "it is a directory");
  if (exists && !S_ISREG(st.st_mode)) {
    f.in_place = true;
    return f;
  }
  remove_stale_temporaries(f.target);
  const std::string pattern = temporary_pattern(f.target);
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  const int fd = ::mkstemp(name.data());
  if (fd < 0) fail(path, std::strerror(errno));
  f.temporary = name.data();
  try {
    write_all(fd, bytes, path);
  } catch (...) {
    ::unlink(f.temporary.c_str());
    throw;
  }
  // A replaced file keeps its permissions (0600, read-only); a new one gets what the umask gives
  // (mkstemp makes it 0600).
  mode_t mode = st.st_mode & 07777;
  if (!exists) {
    const mode_t mask = ::umask(0);
    ::umask(mask);
    mode = 0666 & ~mask;
  }
  ::fchmod(fd, mode);
  // On the disk before the rename: a crash after it never leaves an empty file in the old one's place.
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    const std::string reason = std::strerror(errno);
    ::unlink(f.temporary.c_str());
    fail(path, reason);
  }
  return f;
}

void write_in_place(const PreparedFile& f) {
  const int fd = ::open(f.target.c_str(), O_WRONLY | O_TRUNC | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) fail(f.path, std::strerror(errno));
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  write_all(fd, f.bytes, f.path);
  if (::close(fd) != 0) fail(f.path, std::strerror(errno));
}

// The renames themselves on the disk (best effort: not every file system syncs a folder).
void sync_folder(const std::string& target) {
  const int fd = ::open(folder_of(target).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

void remove_temporaries(const std::vector<PreparedFile>& files, std::size_t from) {
  for (std::size_t k = from; k < files.size(); ++k)
    if (!files[k].temporary.empty()) ::unlink(files[k].temporary.c_str());
}

}  // namespace

void write_files_together(const std::vector<FileBytes>& files) {
  std::vector<PreparedFile> prepared;
  try {
    for (const FileBytes& f : files) prepared.push_back(prepare(f.path, f.bytes));
  } catch (...) {
    remove_temporaries(prepared, 0);
    throw;
  }
  for (std::size_t k = 0; k < prepared.size(); ++k) {
    const PreparedFile& f = prepared[k];
    try {
      if (f.in_place) {
        write_in_place(f);
      } else if (::rename(f.temporary.c_str(), f.target.c_str()) != 0) {
        fail(f.path, std::strerror(errno));
      }
    } catch (...) {
      remove_temporaries(prepared, k);
      throw;
    }
  }
  for (const PreparedFile& f : prepared)
    if (!f.in_place) sync_folder(f.target);
}

void write_file_replacing(const std::string& path, std::string_view bytes) {
  write_files_together({{path, std::string(bytes)}});
}

std::string why_not_writable(const std::string& path) {
  if (path.empty()) return "an empty file name";
  const std::string target = resolved_target(path);
  const std::string through = target == path ? "" : " (the link's file " + target + ")";
  struct stat st {};
  if (::stat(target.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) return "it is a directory" + through;
    if (S_ISFIFO(st.st_mode)) {
      // A FIFO takes a write only while it has a reader: without one the write after the work
      // would fail (ENXIO). The probe stays open until the process ends, on purpose: closing the
      // only writer would send the reader its end of file before the result is written.
      const int fd = ::open(target.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
      if (fd < 0)
        return errno == ENXIO ? "it is a FIFO with no reader (start its reader first)" + through
                              : std::strerror(errno) + through;
      return "";
    }
    if (!S_ISREG(st.st_mode)) return ::access(target.c_str(), W_OK) == 0 ? "" : std::strerror(errno) + through;
  }
  const std::string dir = folder_of(target);
  if (::stat(dir.c_str(), &st) != 0) return "its folder " + dir + ": " + std::strerror(errno) + through;
  if (!S_ISDIR(st.st_mode)) return dir + " is not a folder" + through;
  // The real temporary, made and removed: what access() cannot tell (a read-only file system, a
  // name too long once the temporary's suffix is added).
  const std::string pattern = temporary_pattern(target);
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  const int fd = ::mkstemp(name.data());
  if (fd < 0)
    return std::string(errno == ENAMETOOLONG ? "its name is too long to write beside" : "its folder " + dir) + ": " +
           std::strerror(errno) + through;
  ::close(fd);
  ::unlink(name.data());
  return "";
}

bool same_file(const std::string& a, const std::string& b) {
  std::error_code error;
  return !a.empty() && !b.empty() && std::filesystem::equivalent(a, b, error) && !error;
}

std::string why_not_writable_folder(const std::string& folder) {
  if (folder.empty()) return "an empty folder name";
  std::error_code error;
  std::filesystem::create_directories(folder, error);
  struct stat st {};
  if (::stat(folder.c_str(), &st) != 0) return error ? error.message() : std::strerror(errno);
  if (!S_ISDIR(st.st_mode)) return "it is not a folder";
  if (::access(folder.c_str(), W_OK) != 0) return std::strerror(errno);
  return "";
}

}  // namespace kcycle
