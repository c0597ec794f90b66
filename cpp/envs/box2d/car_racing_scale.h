// pygame.transform.smoothscale from the 1000x800 canvas to 96x96, as pygame
// 2.6's x86-64 build computes it (its SSE area-averaging filter): a shrink
// along x, then along y, each in 14-bit fixed point: whole source pixels are
// summed, the pixel on a boundary is split by the weights w and 2^14 - w
// ((4 * v * w) >> 16), and a sum becomes (sum * recip) >> 16 with
// recip = 2^30 / space, space = 2^14 * src / dst; 16-bit lanes, results
// saturated to 255. The boundaries are the same for every row (and column),
// so they are worked out once.
#pragma once

#include <array>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "envs/box2d/car_racing_raster.h"

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

class Shrinker {
 public:
  static constexpr int kOut = 96;

  Shrinker() : xplan_(Canvas::kW, kOut), yplan_(Canvas::kH, kOut) {}

  // The canvas as gymnasium sees it after its vertical flip: destination
  // row r reads canvas row kH - 1 - r. out: 96x96x3 (row, column, RGB).
  void Shrink(const Canvas& canvas, uint8_t* out) const {
    std::array<std::array<uint16_t, kOut>, 3> acc{};
    std::array<std::array<uint16_t, kOut>, 3> row{};
    size_t next = 0;  // the next destination row
    const ShrinkPlan::Cell* cell = &yplan_.cells[0];
    for (int r = 0; r < Canvas::kH && next < yplan_.cells.size(); ++r) {
      for (int c = 0; c < 3; ++c) ShrinkRow(canvas.Row(c, Canvas::kH - 1 - r), row[c].data());
      if (r < cell->edge) {
        for (int c = 0; c < 3; ++c) {
          for (int j = 0; j < kOut; ++j) acc[c][j] = static_cast<uint16_t>(acc[c][j] + row[c][j]);
        }
        continue;
      }
      const uint32_t w = cell->w, wf = 0x4000 - w;
      uint8_t* dst = out + next * kOut * 3;
      for (int c = 0; c < 3; ++c) {
        for (int j = 0; j < kOut; ++j) {
          dst[j * 3 + c] = yplan_.Out(acc[c][j] + ShrinkPlan::Part(row[c][j], w));
          acc[c][j] = static_cast<uint16_t>(ShrinkPlan::Part(row[c][j], wf));
        }
      }
      if (++next < yplan_.cells.size()) cell = &yplan_.cells[next];
    }
  }

 private:
  // One channel of one row, 1000 -> 96 (values stay below 256).
  void ShrinkRow(const uint8_t* src, uint16_t* dst) const {
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

  ShrinkPlan xplan_, yplan_;
};

}  // namespace envpool_x::box2d
