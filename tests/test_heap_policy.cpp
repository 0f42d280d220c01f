// keep_small_fields_in_the_heap: a field under kFreshPagesFrom, freed, leaves its memory in the
// heap (resident) for the next set-up, instead of a mapping of its own that free() unmaps.
#include <gtest/gtest.h>

#include <cstdlib>  // defines __GLIBC__ where the C library is glibc

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "kcycle/core/field.hpp"
#include "kcycle/core/heap_policy.hpp"
#include "sanitizer_skip.hpp"

namespace kcycle {
namespace {

TEST(HeapPolicy, ASmallFieldComesFromTheHeapAndStaysThereWhenFreed) {
  KCYCLE_SKIP_UNDER_SANITIZERS("the sanitizer's allocator stands in for malloc's");
#if !defined(__GLIBC__)
  GTEST_SKIP() << "sets glibc's malloc only";
#else
  keep_small_fields_in_the_heap();
  const GridShape shape{400, 400};  // 1.3 MB: mapped on its own by glibc's default (128 KiB and more)
  ASSERT_LT(shape.storage() * sizeof(double), kFreshPagesFrom);
  const std::size_t bytes = shape.storage() * sizeof(double);
  const std::size_t mappings = mallinfo2().hblks;
  {
    const Field f(shape);
    EXPECT_EQ(mallinfo2().hblks, mappings) << "the field has a mapping of its own";
  }
  EXPECT_GE(mallinfo2().fordblks, bytes) << "the freed field went back to the kernel";
  const std::size_t held = mallinfo2().arena;  // the heap, with the freed field in it
  { const Field again(shape); }
  EXPECT_EQ(mallinfo2().arena, held) << "the next field of that size did not reuse the first's memory";
#endif
}

}  // namespace
}  // namespace kcycle
