#include "kcycle/io/file_input.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>

#include "kcycle/solve/solver_options.hpp"

namespace kcycle {

namespace {

const char* kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory, not a file";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe), not a regular file";
  if (S_ISCHR(mode)) return "a character device, not a regular file";
  if (S_ISBLK(mode)) return "a block device, not a regular file";
  if (S_ISSOCK(mode)) return "a socket, not a regular file";
  return nullptr;
}

std::string too_large(std::size_t bytes) {
  return "is " + std::to_string(bytes) + " bytes or more; input files are at most " +
         std::to_string(kMaxInputBytes >> 20) + " MiB";
}

std::string read_standard_input(std::string_view what) {
  std::string text(kMaxInputBytes + 1, '\0');
  std::cin.read(text.data(), std::streamsize(text.size()));
  text.resize(std::size_t(std::cin.gcount()));
  if (text.size() > kMaxInputBytes)
    throw InvalidOptions(std::string(what) + " on standard input " + too_large(text.size()));
  return text;
}

}  // namespace

std::string read_input_file(const std::string& path, std::string_view what, bool allow_stdin) {
  const std::string named = std::string(what) + " " + (path.size() > 60 ? path.substr(0, 57) + "..." : path);
  if (path.empty()) throw InvalidOptions(std::string(what) + " is empty: give a file's path");
  if (path == "-" && allow_stdin) return read_standard_input(what);
  // O_NONBLOCK: opening a FIFO nobody writes to must not wait; it is refused below.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) throw InvalidOptions(named + ": cannot open: " + std::strerror(errno));
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat info {};
  if (::fstat(fd, &info) != 0) throw InvalidOptions(named + ": cannot stat: " + std::strerror(errno));
  if (const char* kind = kind_of(info.st_mode)) throw InvalidOptions(named + ": is " + kind);
  if (!S_ISREG(info.st_mode)) throw InvalidOptions(named + ": is not a regular file");
  if (std::size_t(info.st_size) > kMaxInputBytes) throw InvalidOptions(named + ": " + too_large(info.st_size));
  std::string text(kMaxInputBytes + 1, '\0');
  std::size_t have = 0;
  while (have < text.size()) {  // a file that grows while read still stops at the cap
    const ssize_t got = ::read(fd, text.data() + have, text.size() - have);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw InvalidOptions(named + ": cannot read: " + std::strerror(errno));
    if (got == 0) break;
    have += std::size_t(got);
  }
  if (have > kMaxInputBytes) throw InvalidOptions(named + ": " + too_large(have));
  text.resize(have);
  return text;
}

}  // namespace kcycle
