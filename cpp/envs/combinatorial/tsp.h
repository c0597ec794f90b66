// TSP-v0: cities in the plane (random per reset, or a fixed instance handed
// over as coord_values), in two modes. "construct": the tour is built one
// city per step; reward minus the distance travelled, the last step also
// closing the tour. "2opt": the state is a whole tour (random at reset); an
// action i * N + j reverses the tour's positions i..j; reward the decrease of
// the tour's length. The dynamics are tsp_dynamics.h's.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "core/env.h"
#include "core/errors.h"
#include "envs/combinatorial/tsp_dynamics.h"

namespace envpool_x {

class Tsp {
 public:
  static constexpr const char* kName = "Tsp";
  static constexpr bool kCheap = true;

  // coords: what the user asked for (a TSPLIB path; Python parses it into
  // coord_values, x0 y0 x1 y1 ..., and sets round_distances for EUC_2D).
  static Config DefaultConfig() {
    return Config{{"num_nodes", int64_t{50}},
                  {"coords", std::string("")},
                  {"coord_values", std::vector<double>{}},
                  {"round_distances", false},
                  {"mode", std::string("construct")}};
  }

  static int64_t NumCities(const Config& config) {
    const std::vector<double>& xy = config.Doubles("coord_values");
    if (xy.size() % 2 != 0) throw ValueError("TSP coord_values must hold x, y pairs");
    const int64_t n = xy.empty() ? config.Int("num_nodes") : static_cast<int64_t>(xy.size() / 2);
    if (n < 3 || n > 46340) {
      throw ValueError("TSP needs between 3 and 46340 cities, got " + std::to_string(n));
    }
    return n;
  }

  static EnvSpec Spec(const Config& config) {
    const int64_t n = NumCities(config);
    const std::string& mode = config.String("mode");
    if (mode != "construct" && mode != "2opt") {
      throw ValueError("TSP mode must be 'construct' or '2opt', got '" + mode + "'");
    }
    EnvSpec spec;
    spec.obs.push_back(ArraySpec{"coords", DType::kFloat32, {n, 2}, {}, {}});
    const double last = static_cast<double>(n - 1);
    if (mode == "construct") {
      ArraySpec visited{"visited", DType::kInt8, {n}, {0.0}, {1.0}, true};
      spec.obs.push_back(visited);
      spec.obs.push_back(ArraySpec{"current", DType::kInt32, {}, {-1.0}, {last}});
      spec.obs.push_back(ArraySpec{"first", DType::kInt32, {}, {-1.0}, {last}});
      spec.info.push_back(ArraySpec{"action_mask", DType::kInt8, {n}, {0.0}, {1.0}});
      spec.action.n = n;
      spec.reward_high = 0.0;
    } else {
      ArraySpec tour{"tour", DType::kInt32, {n}, {0.0}, {last}, true};
      spec.obs.push_back(tour);
      spec.obs.push_back(ArraySpec{"progress", DType::kFloat32, {}, {0.0}, {1.0}});
      spec.action.n = n * n;
    }
    spec.info.push_back(ArraySpec{"tour_length", DType::kFloat64, {}, {}, {}});
    spec.action.discrete = true;
    return spec;
  }

  Tsp(const Config& config, const EnvSpec& spec)
      : n_(static_cast<int32_t>(NumCities(config))),
        two_opt_(config.String("mode") == "2opt"),
        random_(config.Doubles("coord_values").empty()),
        rounded_(config.Bool("round_distances")),
        coords_(ObsField<float>(spec, "coords")),
        tour_length_(InfoField<double>(spec, "tour_length")),
        xy_(random_ ? std::vector<double>(2 * n_, 0.0) : config.Doubles("coord_values")),
        visited_(n_, 0),
        tour_(n_, 0) {
    if (two_opt_) {
      tour_obs_ = ObsField<int32_t>(spec, "tour");
      progress_ = ObsField<float>(spec, "progress");
    } else {
      visited_obs_ = ObsField<int8_t>(spec, "visited");
      current_ = ObsField<int32_t>(spec, "current");
      first_ = ObsField<int32_t>(spec, "first");
      mask_ = InfoField<int8_t>(spec, "action_mask");
    }
  }

  void SetEnvId(int env_id) { env_id_ = env_id; }
  void SetMaxEpisodeSteps(int steps) { max_steps_ = steps; }

  // ep_ points into this env's own arrays: a copy would share them.
  Tsp(const Tsp&) = delete;
  Tsp& operator=(const Tsp&) = delete;
  Tsp(Tsp&&) = default;

  void Reset(Rng& rng, const StepOutput& out) {
    TspReset(rng, random_ ? xy_.data() : nullptr, Cities(), two_opt_, ep_);
    Write(out);
  }

  void Step(const void* action, Rng& /*rng*/, const StepOutput& out) {
    const int32_t a = DiscreteAction(action);
    if (!TspAllowed(ep_, two_opt_, a)) {
      throw ValueError("TSP env " + std::to_string(env_id_) + ": city " + std::to_string(a) +
                       " is already visited (choose one whose action_mask is 1)");
    }
    *out.reward = TspStep(Cities(), two_opt_, a, ep_, out.terminated);
    Write(out);
  }

  // construct: [first, current, count, visited...]; 2opt: the tour. The
  // cities are not part of the state.
  std::vector<double> GetState() const {
    if (two_opt_) return std::vector<double>(tour_.begin(), tour_.end());
    std::vector<double> s{static_cast<double>(ep_.walk.first),
                          static_cast<double>(ep_.walk.current),
                          static_cast<double>(ep_.walk.count)};
    s.insert(s.end(), visited_.begin(), visited_.end());
    return s;
  }

  // 2opt only: sets the tour (a permutation of 0..N-1).
  void SetState(const std::vector<double>& s) {
    if (!two_opt_) throw ValueError("TSP's construct mode has no settable state");
    if (s.size() != static_cast<size_t>(n_)) {
      throw ValueError("TSP state must be a tour of " + std::to_string(n_) + " cities");
    }
    std::vector<int8_t> seen(n_, 0);
    for (double v : s) {
      const int64_t c = static_cast<int64_t>(v);
      if (static_cast<double>(c) != v || c < 0 || c >= n_ || seen[c]++ != 0) {
        throw ValueError("TSP state must be a permutation of 0.." + std::to_string(n_ - 1));
      }
    }
    for (int32_t i = 0; i < n_; ++i) tour_[i] = static_cast<int32_t>(s[i]);
    ep_.length = TspTourLength(Cities(), tour_.data());
  }

 private:
  TspCities Cities() const { return TspCities{n_, xy_.data(), rounded_}; }

  void Write(const StepOutput& out) const {
    TspRow row{out[coords_], nullptr, nullptr, nullptr,
               nullptr,      nullptr, nullptr, out[tour_length_]};
    if (two_opt_) {
      row.tour = out[tour_obs_];
      row.progress = out[progress_];
    } else {
      row.visited = out[visited_obs_];
      row.current = out[current_];
      row.first = out[first_];
      row.action_mask = out[mask_];
    }
    TspWrite(Cities(), two_opt_, ep_, max_steps_, row);
  }

  int32_t n_;
  bool two_opt_;
  bool random_;
  bool rounded_;
  OutputField<float> coords_;
  OutputField<double> tour_length_;
  OutputField<int32_t> tour_obs_;
  OutputField<float> progress_;
  OutputField<int8_t> visited_obs_;
  OutputField<int32_t> current_;
  OutputField<int32_t> first_;
  OutputField<int8_t> mask_;
  std::vector<double> xy_;
  std::vector<int8_t> visited_;
  std::vector<int32_t> tour_;
  // Points into visited_ and tour_ (moving the env keeps them).
  TspEpisode ep_{visited_.data(), TspTourState{-1, -1, 0, 0.0}, tour_.data(), 0.0, 0};
  int32_t max_steps_ = 0;
  int env_id_ = 0;
};

}  // namespace envpool_x
