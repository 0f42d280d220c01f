#pragma once
// The wavefront behind the one-pass Gauss-Seidel and x-zebra sweeps.
//
// A sweep of C passes in which pass q updates, in place, the rows of one parity (alternating
// with q), each row from itself and the rows just below and above it. Run one after another,
// each pass is a trip through memory. Here pass q trails pass q-1 by one row: when pass q
// updates row j, pass q-1 has updated rows j-1 and j+1 and pass q+1 has not touched them yet,
// exactly the values the separate passes read. Every row is therefore bitwise what the
// separate passes give, while v and f stream through memory once.
//
// The team's chunks own blocks of rows. Near its block's edges a chunk's passes need the
// neighbouring block's rows as they are between two passes, while another thread writes them at
// its own pace. So every chunk first copies the C rows beyond each edge (before its neighbours
// write them: ChunkPreparation chains the copies to the pass) and recomputes there, on its copies, the passes its own
// rows need (as JacobiStream recomputes its halo): pass q on copied rows at most C-1-q rows away.
#include <algorithm>
#include <cstddef>
#include <vector>

#include "kcycle/backends/cpu/chunk_preparation.hpp"
#include "kcycle/backends/cpu/row_blocks.hpp"
#include "kcycle/core/field.hpp"

namespace kcycle::detail {

// Rows of v as one chunk sees them: its own block and the boundary rows in place, the copied
// rows beyond its block's edges in its scratch.
template <class T>
class HaloedRows {
 public:
  HaloedRows(BasicField<T>& v, int own_first, int own_last, int depth, T* scratch)
      : v_(v),
        own_first_(own_first),
        own_last_(own_last),
        depth_(depth),
        below_(scratch),
        above_(scratch + std::size_t(depth) * std::size_t(v.stride())) {}

  T* operator()(int j) const {
    const std::size_t stride = std::size_t(v_.stride());
    if (j >= 1 && j < own_first_) return below_ + std::size_t(j - (own_first_ - depth_)) * stride;
    if (j <= v_.shape().ny && j > own_last_) return above_ + std::size_t(j - own_last_ - 1) * stride;
    return v_.row(j);
  }
  // Copies the rows beyond the block (boundary values included) before any thread writes.
  void copy_halo() const {
    const int ny = v_.shape().ny;
    for (int j = std::max(1, own_first_ - depth_); j < own_first_; ++j) copy_row(j);
    for (int j = own_last_ + 1; j <= std::min(ny, own_last_ + depth_); ++j) copy_row(j);
  }

 private:
  void copy_row(int j) const { std::copy_n(v_.row(j), v_.stride(), (*this)(j)); }
  BasicField<T>& v_;
  int own_first_, own_last_, depth_;
  T *below_, *above_;
};

struct RowWavefront {
  int passes = 1;     // C
  int first_row = 1;  // pass 0 updates the rows of this parity, pass 1 the others, and so on
  int band = 2;       // rows the wavefront advances by (even): band / 2 rows of a pass at a time
};

// Scratch rows run_row_wavefront needs for `chunks` chunks.
inline std::size_t row_wavefront_scratch(const RowWavefront& w, int chunks, int stride) {
  return std::size_t(2 * w.passes) * std::size_t(chunks) * std::size_t(stride);
}

// Calls update(q, rows, j_first, j_last) for every pass q and band of its rows, in wavefront
// order; the band's rows of pass q are j_first, j_first + 2, ..., j_last, and rows(j) is row j
// to read and write. The rows are split into `chunks` blocks, run by run_chunks(chunks, body)
// (the backend's team: body(chunk, member)), sharing `scratch`.
template <class T, class RunChunks, class Update>
void run_row_wavefront(const RowWavefront& w, BasicField<T>& v, RunChunks&& run_chunks, int chunks,
                       ChunkPreparation& preparation, T* scratch, Update&& update) {
  const int ny = v.shape().ny, C = w.passes;
  auto rows_of = [&](int c, RowRange own) {
    return HaloedRows<T>(v, own.begin, own.end - 1, C,
                         scratch + std::size_t(2 * C) * std::size_t(c) * std::size_t(v.stride()));
  };
  preparation.start_pass(chunks);
  run_chunks(chunks, [&](int c, int) {
    preparation.around(c, [&](int d) { rows_of(d, block_of(ny, d, chunks)).copy_halo(); });
    const RowRange own = block_of(ny, c, chunks);
    if (own.begin >= own.end) return;
    const HaloedRows<T> rows = rows_of(c, own);
    // Pass q's rows: the block, and C-1-q rows beyond each edge shared with another chunk.
    auto lowest = [&](int q) { return c > 0 ? std::max(1, own.begin - (C - 1) + q) : 1; };
    auto highest = [&](int q) { return c < chunks - 1 ? std::min(ny, own.end - 1 + (C - 1) - q) : ny; };
    for (int top = lowest(0) + w.band - 1; top - w.band + 1 - (C - 1) <= highest(0); top += w.band)
      for (int q = 0; q < C; ++q) {
        int first = std::max(lowest(q), top - q - w.band + 1);
        const int last = std::min(highest(q), top - q);
        if ((first & 1) != ((w.first_row + q) & 1)) ++first;  // pass q's parity
        if (first <= last) update(q, rows, first, last);
      }
  });
}

}  // namespace kcycle::detail
