// Writing a large output row with streaming (non-temporal) stores. An env
// builds the row in a per-thread scratch buffer that stays in the core's
// caches, then streams it to the output row: the row's lines are written
// without being read first, and they do not evict the envs' own state from
// the caches (a batch of Craftax observations is tens of MB: 4,096 envs of
// Classic write 22 MB a step, of the full game 135 MB).
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

}  // namespace envpool_x
