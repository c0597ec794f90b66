// FrozenLake-v1 / FrozenLake8x8-v1, matching gymnasium 1.4.0's FrozenLakeEnv
// (options desc, map_name, is_slippery, success_rate, reward_schedule), plus
// EnvPool's `size` key.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/env.h"
#include "core/errors.h"
#include "envs/toy_text/grid.h"

namespace envpool_x {

// What the dynamics read: plain values and a pointer to the map, so that a
// device kernel can use the same function.
struct FrozenLakeParams {
  int32_t nrow = 0;
  int32_t ncol = 0;
  const uint8_t* tiles = nullptr;  // row-major, 'S' 'F' 'H' 'G'
  bool slippery = true;
  double success_rate = 1.0 / 3.0;
  double reward_goal = 1.0, reward_hole = 0.0, reward_frozen = 0.0;
};

// Everything an env of a given config needs besides its position. Immutable
// and shared by every env built from the same config.
struct FrozenLakeModel {
  std::vector<uint8_t> tiles;
  std::vector<int32_t> starts;  // the 'S' tiles, drawn uniformly on reset
  FrozenLakeParams p;           // p.tiles points into `tiles`
};

// Actions: 0 left, 1 down, 2 right, 3 up; moves stop at the border.
ENVPOOL_X_HD inline int32_t FrozenLakeMove(int32_t s, int dir, int32_t nrow, int32_t ncol) {
  int32_t row = s / ncol;
  int32_t col = s % ncol;
  if (dir == 0) {
    col = col > 0 ? col - 1 : 0;
  } else if (dir == 1) {
    row = row < nrow - 1 ? row + 1 : nrow - 1;
  } else if (dir == 2) {
    col = col < ncol - 1 ? col + 1 : ncol - 1;
  } else {
    row = row > 0 ? row - 1 : 0;
  }
  return row * ncol + col;
}

// One step from a non-terminal tile: the new position, its reward (goal, hole
// or frozen, 'S' counting as frozen) and whether it ends the episode.
ENVPOOL_X_HD inline void FrozenLakeDynamics(const FrozenLakeParams& m, int32_t* s, int action,
                                            Rng& rng, double* reward, bool* terminated,
                                            double* prob) {
  int dir = action;
  *prob = 1.0;
  if (m.slippery) {
    dir = SlipDirection(action, m.success_rate, (1.0 - m.success_rate) / 2.0, rng, prob);
  }
  *s = FrozenLakeMove(*s, dir, m.nrow, m.ncol);
  const uint8_t tile = m.tiles[*s];
  *terminated = tile == 'G' || tile == 'H';
  *reward = tile == 'G' ? m.reward_goal : tile == 'H' ? m.reward_hole : m.reward_frozen;
}

class FrozenLake {
 public:
  static constexpr const char* kName = "FrozenLake";
  static constexpr bool kCheap = true;

  static Config DefaultConfig() {
    return Config{{"desc", std::vector<std::string>{}},  // rows of a custom map
                  {"map_name", std::string("4x4")},      // "4x4" or "8x8" (without desc)
                  {"size", int64_t{0}},                  // EnvPool's key: 4 or 8 (0: map_name)
                  {"is_slippery", true},
                  {"success_rate", 1.0 / 3.0},
                  {"reward_schedule", std::vector<double>{1.0, 0.0, 0.0}}};  // goal, hole, frozen
  }

  static EnvSpec Spec(const Config& config) {
    const FrozenLakeParams m = Build(config).p;
    EnvSpec spec;
    spec.obs.push_back(DiscreteSpec("obs", int64_t{m.nrow} * m.ncol));
    spec.info.push_back(ArraySpec{"prob", DType::kFloat64, {}, {0.0}, {1.0}});
    spec.action.discrete = true;
    spec.action.n = 4;
    spec.reward_low = std::min({m.reward_goal, m.reward_hole, m.reward_frozen});
    spec.reward_high = std::max({m.reward_goal, m.reward_hole, m.reward_frozen});
    return spec;
  }

  FrozenLake(const Config& config, const EnvSpec& spec)
      : obs_(ObsField<int64_t>(spec, "obs")),
        prob_(InfoField<double>(spec, "prob")),
        model_(Shared(config)) {}

  void Reset(Rng& rng, const StepOutput& out) {
    const auto& starts = model_->starts;
    s_ = starts.size() == 1 ? starts[0] : starts[rng.UniformInt(starts.size())];
    *out[obs_] = s_;
    *out[prob_] = 1.0;
  }

  void Step(const void* action, Rng& rng, const StepOutput& out) {
    double reward = 0.0;
    FrozenLakeDynamics(model_->p, &s_, DiscreteAction(action), rng, &reward, out.terminated,
                       out[prob_]);
    *out.reward = static_cast<float>(reward);
    *out[obs_] = s_;
  }

  std::vector<double> GetState() const { return {static_cast<double>(s_)}; }

  void SetState(const std::vector<double>& s) {
    if (s.size() != 1) {
      throw ValueError("FrozenLake state must have 1 value [s], got " + std::to_string(s.size()));
    }
    s_ = static_cast<int32_t>(
        StateInt(s, 0, 0, int64_t{model_->p.nrow} * model_->p.ncol - 1, "FrozenLake state s"));
  }

  // The model of a config, validated (ValueError names the bad option).
  static FrozenLakeModel Build(const Config& config) {
    std::vector<std::string> rows = config.Strings("desc");
    if (rows.empty()) {
      std::string name = config.String("map_name");
      const int64_t size = config.Int("size");
      if (size == 4 || size == 8) {
        name = size == 4 ? "4x4" : "8x8";
      } else if (size != 0) {
        throw ValueError("FrozenLake size must be 4 or 8 (EnvPool's key; 0: use map_name), got " +
                         std::to_string(size));
      }
      if (name == "4x4") {
        rows = {"SFFF", "FHFH", "FFFH", "HFFG"};
      } else if (name == "8x8") {
        rows = {"SFFFFFFF", "FFFFFFFF", "FFFHFFFF", "FFFFFHFF",
                "FFFHFFFF", "FHHFFFHF", "FHFFHFHF", "FFFHFFFG"};
      } else {
        throw ValueError("FrozenLake map_name must be '4x4' or '8x8', got '" + name +
                         "' (or None for a random 8x8 map)");
      }
    }
    FrozenLakeModel model;
    FrozenLakeParams& m = model.p;
    m.nrow = static_cast<int32_t>(rows.size());
    m.ncol = static_cast<int32_t>(rows[0].size());
    if (m.ncol == 0 || rows.size() > (1u << 15) || rows[0].size() > (1u << 15)) {
      throw ValueError("FrozenLake desc rows must be non-empty and at most 32768 long");
    }
    for (const std::string& row : rows) {
      if (static_cast<int32_t>(row.size()) != m.ncol) {
        throw ValueError("FrozenLake desc rows must all have the same length, got '" + rows[0] +
                         "' and '" + row + "'");
      }
      for (char c : row) {
        if (c != 'S' && c != 'F' && c != 'H' && c != 'G') {
          throw ValueError(std::string("FrozenLake desc may only hold 'S', 'F', 'H', 'G', got '") +
                           c + "' in row '" + row + "'");
        }
        if (c == 'S') model.starts.push_back(static_cast<int32_t>(model.tiles.size()));
        model.tiles.push_back(static_cast<uint8_t>(c));
      }
    }
    if (model.starts.empty()) throw ValueError("FrozenLake desc needs at least one start tile 'S'");
    m.slippery = config.Bool("is_slippery");
    m.success_rate = config.Double("success_rate");
    if (!(m.success_rate >= 0.0 && m.success_rate <= 1.0)) {
      throw ValueError("FrozenLake success_rate must be in [0, 1], got " +
                       std::to_string(m.success_rate));
    }
    const std::vector<double>& r = config.Doubles("reward_schedule");
    if (r.size() != 3) {
      throw ValueError("FrozenLake reward_schedule must have 3 values (goal, hole, frozen), got " +
                       std::to_string(r.size()));
    }
    m.reward_goal = r[0];
    m.reward_hole = r[1];
    m.reward_frozen = r[2];
    return model;  // p.tiles is set once the model has its final address
  }

 private:
  // One model per distinct config, shared by all envs built from it (a pool
  // of 4096 envs reads one copy of the map, which stays in cache).
  static std::shared_ptr<const FrozenLakeModel> Shared(const Config& config) {
    auto model = std::make_shared<FrozenLakeModel>(Build(config));
    const FrozenLakeParams& m = model->p;
    model->p.tiles = model->tiles.data();  // the vector lives in *model now
    char params[128];
    std::snprintf(params, sizeof(params), "%d %a %a %a %a %d ", m.slippery ? 1 : 0, m.success_rate,
                  m.reward_goal, m.reward_hole, m.reward_frozen, m.ncol);
    std::string key(params);
    key.append(model->tiles.begin(), model->tiles.end());
    static std::mutex mu;
    static std::map<std::string, std::weak_ptr<const FrozenLakeModel>> cache;
    std::lock_guard<std::mutex> lock(mu);
    std::shared_ptr<const FrozenLakeModel> shared = cache[key].lock();
    if (!shared) {
      for (auto it = cache.begin(); it != cache.end();) {
        it = it->second.expired() ? cache.erase(it) : std::next(it);
      }
      shared = model;
      cache[key] = shared;
    }
    return shared;
  }

  OutputField<int64_t> obs_;
  OutputField<double> prob_;
  std::shared_ptr<const FrozenLakeModel> model_;
  int32_t s_ = 0;
};

}  // namespace envpool_x
