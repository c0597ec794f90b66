// The full Craftax game's pixel view: the textures' loader (Python builds them,
// python/envpool_x/families/craftax_full_textures.py) and a test hook that
// draws a packed state (full/state_io.h) at a loaded block size.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <chrono>
#include <memory>
#include <vector>

#include "bindings/conversions.h"
#include "envs/craftax/full/pixels.h"
#include "envs/craftax/full/state_io.h"

namespace envpool_x {

void BindCraftaxFullPixels(py::module_& m) {
  m.def(
      "craftax_full_set_textures",
      [](int block, std::vector<std::vector<float>> parts) {
        craftax::full::SetFullTextures(block, std::move(parts));
      },
      py::arg("block"), py::arg("parts"),
      "Load the full Craftax game's textures at `block` pixels a cell "
      "(craftax_full_textures.full_textures' arrays, flattened).");
  m.def(
      "craftax_full_has_textures",
      [](int block) { return craftax::full::LoadedFullTextures(block) != nullptr; },
      py::arg("block"));
  m.def(
      "craftax_full_pixels",
      [](const std::vector<double>& state, int block, bool portable) {
        const auto textures = craftax::full::FindFullTextures(block);
        auto s = std::make_unique<craftax::full::FullState>();
        craftax::full::UnpackState(state, *s);
        py::array_t<float> out({textures->Rows(), textures->Cols(), 3});
        float* px = out.mutable_data();
        {
          py::gil_scoped_release release;
          craftax::full::DrawFullPixels(*s, *textures, px, portable);
        }
        return out;
      },
      py::arg("state"), py::arg("block"), py::arg("portable") = false,
      "Craftax's render_craftax_pixels of a packed full state at `block` pixels a cell "
      "((9 + 4) block, 11 block, 3) float32 0..255; `portable`: without the CPU's fma "
      "instruction (the same values, slower).");
  m.def(
      "craftax_full_time_pixels",
      [](const std::vector<double>& state, int block, int frames) {
        const auto textures = craftax::full::FindFullTextures(block);
        auto s = std::make_unique<craftax::full::FullState>();
        craftax::full::UnpackState(state, *s);
        std::vector<float> out(size_t(textures->Rows()) * textures->Cols() * 3);
        py::gil_scoped_release release;
        const auto start = std::chrono::steady_clock::now();
        for (int i = 0; i < frames; ++i) {
          s->state_rng[0] += 1;  // a fresh static each frame, as each step has
          craftax::full::DrawFullPixels(*s, *textures, out.data());
        }
        const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
        return took.count() / (frames > 0 ? frames : 1);
      },
      py::arg("state"), py::arg("block"), py::arg("frames"),
      "Seconds a frame of craftax_full_pixels takes (drawing only), over `frames` frames.");
}

}  // namespace envpool_x
