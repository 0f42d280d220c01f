#include "kcycle/core/heap_policy.hpp"

#include <cstdlib>  // first: it defines __GLIBC__ where the C library is glibc

#include "kcycle/core/field.hpp"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace kcycle {

void keep_small_fields_in_the_heap() {
#if defined(__GLIBC__)
  // Below kFreshPagesFrom a field is malloc's: from the heap, not a mapping of its own that
  // free() unmaps (glibc maps 128 KiB and more); and a free top of the heap is returned to the
  // kernel only beyond 64 MiB (glibc's default: 128 KiB), so the next set-up finds it resident.
  mallopt(M_MMAP_THRESHOLD, int(kFreshPagesFrom));
  mallopt(M_TRIM_THRESHOLD, 64 << 20);
#endif
}

}  // namespace kcycle
