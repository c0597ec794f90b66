// Writing large output rows with streaming (non-temporal) stores. An env
// builds the row in a per-thread scratch buffer that stays in the core's
// caches, then streams it to the output row: the row's lines are written
// without being read first, and they do not evict the envs' own state from
// the caches. Worth it for rows of tens of KB in batches far larger than the
// caches (Craftax's full game: 33 KB a row, 135 MB a step at 4,096 envs; its
// pixel views: 47-172 KB a row); a row that stays in the cache (a raw loop's)
// is better written directly, and so was Classic's 5 KB symbolic row in
// every batch measured.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace envpool_x {

// Pools whose output buffers (all fields, all blocks) take at least this
// many bytes set StepOutput::stream_rows. Craftax measured (bench_builds,
// 2 threads, streamed / direct): its full game's symbolic rows 0.83-1.01x at
// 256 envs (8.5 MB), 1.09-1.19x at 1,024 (34 MB) and 4,096; its pixels
// 1.15-1.19x at 256 (44 MB); Classic's pixels 1.06-1.17x at 256 (12 MB).
constexpr size_t kStreamOutputBytes = size_t{16} << 20;

// A scratch row of `bytes` for the calling thread (grown, never shrunk).
inline float* ScratchRow(size_t bytes) {
  static thread_local std::vector<float> row;
  if (row.size() * sizeof(float) < bytes) row.resize((bytes + sizeof(float) - 1) / sizeof(float));
  return row.data();
}

// dst[0, bytes) = src[0, bytes), dst's 16-byte-aligned middle with
// streaming stores, its unaligned edges with plain ones. Stores are fenced
// before returning, so the row is complete for whoever is told it is.
inline void StreamRow(const void* src, void* dst, size_t bytes) {
  const auto* s = static_cast<const uint8_t*>(src);
  auto* d = static_cast<uint8_t*>(dst);
#if defined(__SSE2__)
  const size_t head = std::min(bytes, (16 - reinterpret_cast<uintptr_t>(d) % 16) % 16);
  std::memcpy(d, s, head);
  size_t i = head;
  for (; i + 16 <= bytes; i += 16) {
    _mm_stream_si128(reinterpret_cast<__m128i*>(d + i),
                     _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i)));
  }
  std::memcpy(d + i, s + i, bytes - i);
  _mm_sfence();
#else
  std::memcpy(d, s, bytes);
#endif
}

// A row of `count` floats at `dst` written by write(float* row): straight
// into dst, or, with `stream`, into the thread's scratch row, then streamed.
template <class Write>
void WriteFloatRow(float* dst, size_t count, bool stream, Write write) {
  if (!stream) {
    write(dst);
    return;
  }
  float* row = ScratchRow(count * sizeof(float));
  write(row);
  StreamRow(row, dst, count * sizeof(float));
}

}  // namespace envpool_x
