#pragma once
// Progress of long runs on the terminal (stderr): the case, elapsed time, and an estimate of
// the time left from the mean time per finished case.
#include <chrono>
#include <cstdio>
#include <string>

#include "kcycle/backends/mpi/mpi_runtime.hpp"

namespace kcycle::cli {

class Progress {
 public:
  explicit Progress(int total) : total_(total), start_(std::chrono::steady_clock::now()) {}

  void done(const std::string& what) {
    ++finished_;
    if (mpi_rank() != 0) return;  // one report for all ranks
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    const double left = elapsed / finished_ * (total_ - finished_);
    std::fprintf(stderr, "[%d/%d] %s  (elapsed %.1f s, about %.0f s left)\n", finished_, total_, what.c_str(), elapsed,
                 left);
    std::fflush(stderr);
  }

 private:
  int total_;
  int finished_ = 0;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace kcycle::cli
