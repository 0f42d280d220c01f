#pragma once
// A few tests check what the arithmetic gives on problems that take about a minute under ASan
// (8x and 18x their release time, measured) and add no code path the other tests do not run
// there. They skip in the sanitizer trees, saying why; the release tree runs them.
#include <gtest/gtest.h>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define KCYCLE_SKIP_UNDER_SANITIZERS(why) GTEST_SKIP() << "under a sanitizer: " << why
#else
#define KCYCLE_SKIP_UNDER_SANITIZERS(why) static_cast<void>(0)
#endif
