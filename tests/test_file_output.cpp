// Result files (io/file_output.hpp): whole or not at all, with the permissions they had, through
// links, checked before the work with the real temporary, and no temporary of a killed writer
// left for ever (issue 45).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "kcycle/io/file_output.hpp"

namespace {

using namespace kcycle;
namespace fs = std::filesystem;

class ResultFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("kcycle_results_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  static std::string read(const std::string& p) {
    std::ifstream in(p);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  static unsigned mode(const std::string& p) {
    struct stat st {};
    ::stat(p.c_str(), &st);
    return st.st_mode & 07777;
  }
  std::size_t entries() const {
    return std::size_t(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()));
  }
  fs::path dir_;
};

// A process id that is no longer running: a child that has exited and been reaped.
pid_t finished_process() {
  const pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  ::waitpid(child, nullptr, 0);
  return child;
}

void make_old(const std::string& p) {
  const std::time_t then = std::time(nullptr) - 120;
  const struct timespec times[2] = {{then, 0}, {then, 0}};
  ::utimensat(AT_FDCWD, p.c_str(), times, 0);
}

TEST_F(ResultFiles, AReplacedFileKeepsItsPermissions) {
  write_file_replacing(path("private.csv"), "first");
  ::chmod(path("private.csv").c_str(), 0600);
  write_file_replacing(path("private.csv"), "second");
  EXPECT_EQ(mode(path("private.csv")), 0600u);
  ::chmod(path("private.csv").c_str(), 0444);
  write_file_replacing(path("private.csv"), "third");
  EXPECT_EQ(mode(path("private.csv")), 0444u);
  EXPECT_EQ(read(path("private.csv")), "third");
  // A new file gets what the umask gives, not mkstemp's 0600.
  const mode_t mask = ::umask(022);
  write_file_replacing(path("new.csv"), "x");
  ::umask(mask);
  EXPECT_EQ(mode(path("new.csv")), 0644u);
}

TEST_F(ResultFiles, ADanglingLinkIsWrittenThroughAndKept) {
  fs::create_directories(dir_ / "results");
  fs::create_symlink("results/table.csv", dir_ / "link.csv");  // relative, to a file not made yet
  EXPECT_EQ(why_not_writable(path("link.csv")), "");
  write_file_replacing(path("link.csv"), "rows");
  EXPECT_TRUE(fs::is_symlink(dir_ / "link.csv"));
  EXPECT_EQ(read(path("results/table.csv")), "rows");
}

TEST_F(ResultFiles, ATemporaryAKilledWritersLeftIsRemovedByTheNextWrite) {
  const std::string dead = std::to_string(finished_process());
  const std::string stale = path(".a.csv." + dead + ".Ab12Cd");
  const std::string fresh = path(".a.csv." + dead + ".Zz99Yy");                          // a minute not yet passed
  const std::string living = path(".a.csv." + std::to_string(::getppid()) + ".Qq00Rr");  // its writer runs
  const std::string other = path(".a.csv.notes");                                        // not a temporary
  for (const std::string& p : {stale, fresh, living, other}) std::ofstream(p) << "partial";
  for (const std::string& p : {stale, living, other}) make_old(p);
  write_file_replacing(path("a.csv"), "whole");
  EXPECT_FALSE(fs::exists(stale));
  EXPECT_TRUE(fs::exists(fresh));
  EXPECT_TRUE(fs::exists(living));
  EXPECT_TRUE(fs::exists(other));
  EXPECT_EQ(read(path("a.csv")), "whole");
}

TEST_F(ResultFiles, TheCheckBeforeTheWorkMakesTheRealTemporary) {
  // A name the file system takes, but not once the temporary's ".NAME.PID.XXXXXX" is around it.
  const std::string long_name = path(std::string(250, 'n'));
  { std::ofstream probe(long_name); }
  ASSERT_TRUE(fs::exists(long_name));
  fs::remove(long_name);
  EXPECT_NE(why_not_writable(long_name).find("too long"), std::string::npos) << why_not_writable(long_name);
  // A link into a place nothing can be written (root's access() says yes to everything).
  fs::create_symlink("/proc/kcycle-no-such-folder/out.csv", dir_ / "into-proc.csv");
  EXPECT_NE(why_not_writable(path("into-proc.csv")).find("/proc/kcycle-no-such-folder"), std::string::npos)
      << why_not_writable(path("into-proc.csv"));
  EXPECT_NE(why_not_writable("/proc/self/kcycle.csv"), "");
  EXPECT_EQ(why_not_writable(path("fine.csv")), "");
  EXPECT_EQ(entries(), 1u);  // the link: the probes left nothing behind
  // A FIFO with no reader would fail the write after the work.
  ASSERT_EQ(::mkfifo(path("fifo").c_str(), 0600), 0);
  EXPECT_NE(why_not_writable(path("fifo")).find("FIFO with no reader"), std::string::npos)
      << why_not_writable(path("fifo"));
}

TEST_F(ResultFiles, ASetIsWrittenWholeOrLeavesEveryOldFile) {
  write_files_together({{path("t.csv"), "old rows"}, {path("t.json"), "old json"}});
  EXPECT_THROW(write_files_together({{path("t.csv"), "new rows"}, {path("missing/t.json"), "new json"}}),
               std::runtime_error);
  EXPECT_EQ(read(path("t.csv")), "old rows");
  EXPECT_EQ(read(path("t.json")), "old json");
  EXPECT_EQ(entries(), 2u);  // no temporary left
  write_files_together({{path("t.csv"), "new rows"}, {path("t.json"), "new json"}});
  EXPECT_EQ(read(path("t.csv")) + read(path("t.json")), "new rowsnew json");
}

TEST_F(ResultFiles, AnOutputThatIsAlsoAnInputIsRecognisedThroughLinksAndDots) {
  write_file_replacing(path("p.toml"), "levels = 5\n");
  fs::create_symlink(path("p.toml"), dir_ / "q.toml");
  EXPECT_TRUE(same_file(path("p.toml"), path("q.toml")));
  EXPECT_TRUE(same_file(path("p.toml"), (dir_ / "." / "p.toml").string()));
  EXPECT_FALSE(same_file(path("p.toml"), path("other.toml")));
  EXPECT_FALSE(same_file(path("p.toml"), ""));
}

}  // namespace
