// A torch's light (craftax 1.6.1's TORCH_LIGHT_MAP), which placing a torch
// adds to the floor's light map. The index rules the player's actions share
// (DirectionRow, LevelRead) are in state.h.
#pragma once

#include <cstdint>

#include "core/host_device.h"
#include "envs/craftax/full/state.h"

namespace envpool_x {
namespace craftax {
namespace full {

// A torch's light at offset (dx, dy) from it (TORCH_LIGHT_MAP, 9 x 9 around
// the torch, symmetric): 1 - distance / 5, clipped to [0, 1]. Craftax's values
// as its constants load them: XLA's float32 square root there is not the
// correctly rounded one, so several differ from libm's by a unit or two.
constexpr float kTorchLight[5][5] = {
    {0x1.000000p+0f, 0x1.99999ap-1f, 0x1.333334p-1f, 0x1.999998p-2f, 0x1.999998p-3f},
    {0x1.99999ap-1f, 0x1.6f2f3cp-1f, 0x1.1b06d0p-1f, 0x1.785d94p-2f, 0x1.672d08p-3f},
    {0x1.333334p-1f, 0x1.1b06d0p-1f, 0x1.bcbcf4p-2f, 0x1.1d9544p-2f, 0x1.b06d10p-4f},
    {0x1.999998p-2f, 0x1.785d94p-2f, 0x1.1d9544p-2f, 0x1.3636e8p-3f, 0.0f},
    {0x1.999998p-3f, 0x1.672d08p-3f, 0x1.b06d10p-4f, 0.0f, 0.0f}};
ENVPOOL_X_HD inline float TorchLight(int32_t dx, int32_t dy) {
  return kTorchLight[dx < 0 ? -dx : dx][dy < 0 ? -dy : dy];
}
constexpr int kTorchReach = 4;

}  // namespace full
}  // namespace craftax
}  // namespace envpool_x
