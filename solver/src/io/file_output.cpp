#include "kcycle/io/file_output.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
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

}  // namespace

void write_file_replacing(const std::string& path, std::string_view bytes) {
  if (path.empty()) fail("\"\"", "empty file name");
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    if (S_ISDIR(st.st_mode)) fail(path, "it is a directory");
    const int fd = ::open(path.c_str(), O_WRONLY | O_TRUNC | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) fail(path, std::strerror(errno));
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    write_all(fd, bytes, path);
    if (::close(fd) != 0) fail(path, std::strerror(errno));
    return;
  }
  // A link to a file: the file is replaced and the link stays (renaming over the link would
  // replace it with a copy).
  std::string target = path;
  struct stat link {};
  if (::lstat(path.c_str(), &link) == 0 && S_ISLNK(link.st_mode)) {
    std::error_code error;
    const std::filesystem::path resolved = std::filesystem::canonical(path, error);
    if (!error) target = resolved.string();
  }
  // The temporary beside the target (same file system, so the rename is atomic), hidden.
  const std::size_t slash = target.rfind('/');
  const std::size_t base = slash == std::string::npos ? 0 : slash + 1;
  const std::string name = target.substr(0, base) + "." + target.substr(base) + ".XXXXXX";
  std::vector<char> temp(name.begin(), name.end());
  temp.push_back('\0');
  const int fd = ::mkstemp(temp.data());
  if (fd < 0) fail(path, std::strerror(errno));
  const std::string temp_path(temp.data());
  try {
    write_all(fd, bytes, path);
  } catch (...) {
    ::unlink(temp_path.c_str());
    throw;
  }
  // mkstemp makes it 0600: a result file is as readable as any other the user writes.
  const mode_t mask = ::umask(0);
  ::umask(mask);
  ::fchmod(fd, 0666 & ~mask);
  if (::close(fd) != 0 || ::rename(temp_path.c_str(), target.c_str()) != 0) {
    const std::string reason = std::strerror(errno);
    ::unlink(temp_path.c_str());
    fail(path, reason);
  }
}

std::string why_not_writable(const std::string& path) {
  if (path.empty()) return "an empty file name";
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) return "it is a directory";
    if (!S_ISREG(st.st_mode)) return ::access(path.c_str(), W_OK) == 0 ? "" : std::strerror(errno);
  }
  const std::size_t slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  if (::stat(dir.c_str(), &st) != 0) return "its folder " + dir + ": " + std::strerror(errno);
  if (!S_ISDIR(st.st_mode)) return dir + " is not a folder";
  if (::access(dir.c_str(), W_OK) != 0) return "its folder " + dir + ": " + std::strerror(errno);
  return "";
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
