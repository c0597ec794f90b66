// Per-env parameters across the Python boundary (docs/params.md): the
// declarations as dicts and set_params's settings as core/params.h's, for
// the CPU pools (pool_binding.h) and the CUDA stepper (cuda_pool.cpp) alike.
#pragma once

#include <vector>

#include "bindings/conversions.h"
#include "core/errors.h"
#include "core/params.h"

namespace envpool_x {

inline py::list ParamSpecsToList(const std::vector<ParamSpec>& specs) {
  py::list l;
  for (const ParamSpec& spec : specs) {
    py::dict d;
    d["name"] = spec.name;
    d["low"] = spec.low;
    d["high"] = spec.high;
    d["mid_episode"] = spec.mid_episode;
    l.append(d);
  }
  return l;
}

// set_params's `settings`: name -> (draw, a, b, choices) with a and b one
// value per env named (or one for all) and draw a ParamDraw code
// (python/envpool_x/params.py builds them).
inline std::vector<ParamSetting> ParamSettingsOf(const py::tuple& t) {
  const auto draw = static_cast<ParamDraw>(t[0].cast<int>());
  const auto a = t[1].cast<std::vector<double>>();
  const auto b = t[2].cast<std::vector<double>>();
  const auto choices = t[3].cast<std::vector<double>>();
  if (a.size() != b.size()) throw ValueError("set_params: a and b differ in length");
  std::vector<ParamSetting> settings(a.size());
  for (size_t j = 0; j < a.size(); ++j) {
    settings[j].draw = draw;
    settings[j].a = a[j];
    settings[j].b = b[j];
    if (draw == ParamDraw::kChoice) settings[j].choices = choices;
  }
  return settings;
}

}  // namespace envpool_x
