// Ctrl-C and SIGTERM (kcycle/io/interrupt.hpp), each case in a forked child (a death test):
// the first signal asks to stop, a copy of it right after is the same request, a second one
// later ends the process, and with nothing to stop the first one ends it.
#include <gtest/gtest.h>

#include <unistd.h>
#include <chrono>
#include <csignal>
#include <thread>

#include "kcycle/io/interrupt.hpp"

namespace {

using kcycle::StopOnInterrupt;

TEST(InterruptDeathTest, ACopyOfTheSignalRightAfterItIsTheSameRequest) {
  // As GNU timeout sends it: to the process, then to its process group.
  EXPECT_EXIT(
      {
        kcycle::install_interrupt_handlers();
        const StopOnInterrupt stop;
        std::raise(SIGINT);
        std::raise(SIGINT);
        ::_exit(stop.requested() && stop.signal_name() == "SIGINT" ? 0 : 1);
      },
      testing::ExitedWithCode(0), "");
}

TEST(InterruptDeathTest, ASecondSignalLaterEndsTheProcessAtOnce) {
  EXPECT_EXIT(
      {
        kcycle::install_interrupt_handlers();
        const StopOnInterrupt stop;
        std::raise(SIGINT);
        std::this_thread::sleep_for(std::chrono::duration<double>(kcycle::kSameRequestSeconds + 0.1));
        std::raise(SIGINT);
        ::_exit(0);
      },
      testing::ExitedWithCode(kcycle::kInterruptedExit), "interrupted \\(SIGINT\\)");
}

TEST(InterruptDeathTest, WithNothingToStopTheFirstSignalEndsTheProcess) {
  EXPECT_EXIT(
      {
        kcycle::install_interrupt_handlers();
        std::raise(SIGTERM);
        ::_exit(0);
      },
      testing::ExitedWithCode(kcycle::kInterruptedExit), "terminated \\(SIGTERM\\)");
}

}  // namespace
