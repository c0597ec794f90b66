// pygame.transform.smoothscale from the 1000x800 canvas to 96x96, as pygame
// 2.6's x86-64 build computes it (its SSE area-averaging filter): a shrink
// along x, then along y, each in 14-bit fixed point: whole source pixels are
// summed, the pixel on a boundary is split by the weights w and 2^14 - w
// ((4 * v * w) >> 16), and a sum becomes (sum * recip) >> 16 with
// recip = 2^30 / space, space = 2^14 * src / dst; 16-bit lanes, results
// saturated to 255. The boundaries are the same for every row (and column),
// so they are worked out once. The canvas is drawn a band of rows at a time
// (pygame_raster.h): each band is shrunk along x as soon as it is drawn,
// while it is still in cache, and the shrink along y runs at the end.
#pragma once

#include <array>
#include <cstdint>
#include <stdexcept>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "envs/box2d/pygame_raster.h"

namespace envpool_x::box2d {

// Where each destination pixel's source pixels are along one axis.
struct ShrinkPlan {
  struct Cell {
    int begin, end;  // whole source pixels [begin, end)
    int edge;        // the boundary pixel
    uint32_t w;      // its share in this cell (the next cell gets 2^14 - w)
  };
  std::vector<Cell> cells;
  uint32_t recip = 0;

  ShrinkPlan(int src, int dst) {
    const int space = 0x4000 * src / dst;
    recip = static_cast<uint32_t>(0x40000000 / space) & 0xFFFF;
    int counter = space, begin = 0;
    for (int x = 0; x < src; ++x) {
      if (counter > 0x4000) {
        counter -= 0x4000;
        continue;
      }
      cells.push_back(Cell{begin, x, x, static_cast<uint32_t>(counter)});
      begin = x + 1;
      counter += space - 0x4000;
    }
    if (static_cast<int>(cells.size()) != dst) throw std::logic_error("ShrinkPlan: bad sizes");
  }

  static uint32_t Part(uint32_t v, uint32_t w) { return ((v << 2) * w) >> 16; }
  uint8_t Out(uint32_t sum) const {
    const uint32_t r = ((sum & 0xFFFF) * recip) >> 16;
    return static_cast<uint8_t>(r > 255 ? 255 : r);
  }
};

// CarRacing's 1000x800 surface, drawn a band of 100 rows at a time: the rows
// being drawn, then shrunk, stay in the core's cache (3 x 100 x 1000 bytes).
class Canvas : public PygameCanvas {
 public:
  static constexpr int kW = 1000, kH = 800, kBand = 100;
  Canvas() : PygameCanvas(kW, kH, kBand, kW) {}
};

class Shrinker {
 public:
  static constexpr int kOut = 96;

  Shrinker() : xplan_(Canvas::kW, kOut), yplan_(Canvas::kH, kOut) {
#if defined(__SSE2__)
    PrepareSimd();
#endif
  }

  // Shrinks the canvas's current band of rows along x into the row store.
  void ShrinkBand(const Canvas& canvas) {
    for (int y = canvas.band_begin(); y < canvas.band_end(); ++y) {
      for (int c = 0; c < 3; ++c) ShrinkRow(canvas.Row(c, y), rows_[y][c].data());
    }
  }

  // The shrink along y, once every band is in: the canvas as gymnasium sees
  // it after its vertical flip (destination row r reads canvas row
  // kH - 1 - r). out: 96x96x3 (row, column, RGB).
  void Finish(uint8_t* out) const {
    std::array<std::array<uint16_t, kOut>, 3> acc{};
    size_t next = 0;  // the next destination row
    const ShrinkPlan::Cell* cell = &yplan_.cells[0];
    for (int r = 0; r < Canvas::kH && next < yplan_.cells.size(); ++r) {
      const auto& row = rows_[Canvas::kH - 1 - r];
      if (r < cell->edge) {
        for (int c = 0; c < 3; ++c) {
          for (int j = 0; j < kOut; ++j) acc[c][j] = static_cast<uint16_t>(acc[c][j] + row[c][j]);
        }
        continue;
      }
      const uint32_t w = cell->w, wf = 0x4000 - w;
      uint8_t* dst = out + next * kOut * 3;
      for (int c = 0; c < 3; ++c) {
        alignas(16) uint16_t px[kOut];
#if defined(__SSE2__)
        // The same arithmetic in 16-bit lanes: (4v * w) >> 16 and
        // (sum * recip) >> 16 are pmulhuw's high halves.
        const __m128i vw = _mm_set1_epi16(static_cast<int16_t>(w));
        const __m128i vwf = _mm_set1_epi16(static_cast<int16_t>(wf));
        const __m128i recip = _mm_set1_epi16(static_cast<int16_t>(yplan_.recip));
        for (int j = 0; j < kOut; j += 8) {
          const __m128i v =
              _mm_slli_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(&row[c][j])), 2);
          __m128i* a = reinterpret_cast<__m128i*>(&acc[c][j]);
          const __m128i sum = _mm_add_epi16(_mm_loadu_si128(a), _mm_mulhi_epu16(v, vw));
          _mm_store_si128(reinterpret_cast<__m128i*>(px + j), _mm_mulhi_epu16(sum, recip));
          _mm_storeu_si128(a, _mm_mulhi_epu16(v, vwf));
        }
#else
        for (int j = 0; j < kOut; ++j) {
          px[j] = yplan_.Out(acc[c][j] + ShrinkPlan::Part(row[c][j], w));
          acc[c][j] = static_cast<uint16_t>(ShrinkPlan::Part(row[c][j], wf));
        }
#endif
        for (int j = 0; j < kOut; ++j) dst[j * 3 + c] = static_cast<uint8_t>(px[j]);
      }
      if (++next < yplan_.cells.size()) cell = &yplan_.cells[next];
    }
  }

 private:
  // One channel of one row, 1000 -> 96 (values stay below 256).
  void ShrinkRow(const uint8_t* src, uint16_t* dst) const {
#if defined(__SSE2__)
    if (simd_) return ShrinkRowSse2(src, dst);
#endif
    uint32_t head = 0;
    for (int j = 0; j < kOut; ++j) {
      const ShrinkPlan::Cell& cell = xplan_.cells[j];
      uint32_t sum = head;
      for (int x = cell.begin; x < cell.end; ++x) sum += src[x];
      const uint32_t v = src[cell.edge];
      dst[j] = xplan_.Out(sum + ShrinkPlan::Part(v, cell.w));
      head = ShrinkPlan::Part(v, 0x4000 - cell.w);
    }
  }

#if defined(__SSE2__)
  // Every cell has 8 to 15 whole pixels (9 or 10 for 1000 -> 96): a SAD of
  // its first 8 bytes, one of the next 8 masked to the rest, and one masked
  // to the boundary pixel; two cells share each SAD (one per 64-bit lane).
  // Four vectors of two lane sums (cells j..j+7) -> eight 16-bit lanes.
  static __m128i Gather(__m128i a, __m128i b, __m128i c, __m128i d) {
    return _mm_packs_epi32(_mm_packs_epi32(a, b), _mm_packs_epi32(c, d));
  }

  void ShrinkRowSse2(const uint8_t* src, uint16_t* dst) const {
    const __m128i zero = _mm_setzero_si128();
    const __m128i recip = _mm_set1_epi16(static_cast<int16_t>(xplan_.recip));
    __m128i carry = zero;  // the last cell's remainder, in lane 7
    for (int j = 0; j < kOut; j += 8) {
      __m128i sums[4], edges[4];
      for (int k = 0; k < 4; ++k) {
        const int a = j + 2 * k, b = a + 1;
        const __m128i va = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + begin_[a]));
        const __m128i vb = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + begin_[b]));
        const __m128i head = _mm_unpacklo_epi64(va, vb), tail = _mm_unpackhi_epi64(va, vb);
        sums[k] = _mm_add_epi64(_mm_sad_epu8(head, zero),
                                _mm_sad_epu8(_mm_and_si128(tail, tail_mask_[a / 2]), zero));
        edges[k] = _mm_sad_epu8(_mm_and_si128(tail, edge_mask_[a / 2]), zero);
      }
      const __m128i sum = Gather(sums[0], sums[1], sums[2], sums[3]);
      const __m128i edge = _mm_slli_epi16(Gather(edges[0], edges[1], edges[2], edges[3]), 2);
      // Each cell starts with the remainder of the previous one's boundary pixel.
      const __m128i rest = _mm_mulhi_epu16(edge, rest_w_[j / 8]);
      const __m128i head = _mm_or_si128(_mm_slli_si128(rest, 2), _mm_srli_si128(carry, 14));
      carry = rest;
      __m128i total = _mm_add_epi16(sum, _mm_mulhi_epu16(edge, part_w_[j / 8]));
      total = _mm_add_epi16(total, head);
      // Below 256 already (a cell's weights add up to at most one pixel).
      _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + j), _mm_mulhi_epu16(total, recip));
    }
  }

  void PrepareSimd() {
    for (const ShrinkPlan::Cell& c : xplan_.cells) {
      if (c.end - c.begin < 8 || c.end - c.begin > 15 || c.edge != c.end) return;
    }
    for (int j = 0; j < kOut; j += 2) {
      alignas(16) uint8_t tail[16] = {}, edge[16] = {};
      for (int h = 0; h < 2; ++h) {
        const ShrinkPlan::Cell& c = xplan_.cells[j + h];
        for (int i = 8; i < c.end - c.begin; ++i) tail[8 * h + i - 8] = 0xFF;
        edge[8 * h + c.edge - c.begin - 8] = 0xFF;
      }
      tail_mask_[j / 2] = _mm_load_si128(reinterpret_cast<const __m128i*>(tail));
      edge_mask_[j / 2] = _mm_load_si128(reinterpret_cast<const __m128i*>(edge));
    }
    for (int j = 0; j < kOut; ++j) begin_[j] = xplan_.cells[j].begin;
    for (int j = 0; j < kOut; j += 8) {
      alignas(16) uint16_t part[8], rest[8];
      for (int i = 0; i < 8; ++i) {
        part[i] = static_cast<uint16_t>(xplan_.cells[j + i].w);
        rest[i] = static_cast<uint16_t>(0x4000 - xplan_.cells[j + i].w);
      }
      part_w_[j / 8] = _mm_load_si128(reinterpret_cast<const __m128i*>(part));
      rest_w_[j / 8] = _mm_load_si128(reinterpret_cast<const __m128i*>(rest));
    }
    simd_ = true;
  }
  __m128i tail_mask_[kOut / 2], edge_mask_[kOut / 2], part_w_[kOut / 8], rest_w_[kOut / 8];
  int begin_[kOut];
  bool simd_ = false;
#endif

  ShrinkPlan xplan_, yplan_;
  // Every canvas row shrunk along x: [row][channel][column], below 256.
  std::vector<std::array<std::array<uint16_t, kOut>, 3>> rows_ =
      std::vector<std::array<std::array<uint16_t, kOut>, 3>>(Canvas::kH);
};

}  // namespace envpool_x::box2d
