// Taxi-v4 (and EnvPool's Taxi-v3 id), matching gymnasium 1.4.0's TaxiEnv
// (options is_rainy, fickle_passenger, rainy_probability, fickle_probability;
// info prob and action_mask).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/env.h"
#include "core/errors.h"
#include "envs/toy_text/grid.h"

namespace envpool_x {

// A 5 x 5 grid with four stands: R (0, 0), G (0, 4), Y (4, 0), B (4, 3).
// The state packs ((row * 5 + col) * 5 + passenger) * 4 + destination, where
// passenger is a stand index or 4 (in the taxi).
constexpr int kTaxiSize = 5;
constexpr int kTaxiStates = 500;
constexpr int kTaxiInTaxi = 4;
constexpr int kTaxiStandRow[4] = {0, 0, 4, 4};
constexpr int kTaxiStandCol[4] = {0, 4, 0, 3};

struct TaxiState {
  int row, col, pass, dest;
};

ENVPOOL_X_HD inline int TaxiEncode(const TaxiState& t) {
  return ((t.row * kTaxiSize + t.col) * 5 + t.pass) * 4 + t.dest;
}
ENVPOOL_X_HD inline TaxiState TaxiDecode(int s) {
  return TaxiState{s / 100, (s / 20) % 5, (s / 4) % 5, s % 4};
}

// Can the taxi drive east from (row, col)? Walls stand east of (0, 1),
// (1, 1), (3, 0), (3, 2), (4, 0) and (4, 2), and along the border.
ENVPOOL_X_HD inline bool TaxiEastOpen(int row, int col) {
  if (col >= kTaxiSize - 1) return false;
  if (col == 1) return row >= 2;
  if (col == 0 || col == 2) return row < 3;
  return true;
}
ENVPOOL_X_HD inline bool TaxiWestOpen(int row, int col) {
  return col > 0 && TaxiEastOpen(row, col - 1);
}

// The stand at (row, col), or -1.
ENVPOOL_X_HD inline int TaxiStandAt(int row, int col) {
  for (int i = 0; i < 4; ++i) {
    if (kTaxiStandRow[i] == row && kTaxiStandCol[i] == col) return i;
  }
  return -1;
}

// Moves: 0 south, 1 north, 2 east, 3 west; a wall or the border means no move.
ENVPOOL_X_HD inline void TaxiMove(int dir, int* row, int* col) {
  if (dir == 0) {
    if (*row < kTaxiSize - 1) ++*row;
  } else if (dir == 1) {
    if (*row > 0) --*row;
  } else if (dir == 2) {
    if (TaxiEastOpen(*row, *col)) ++*col;
  } else {
    if (TaxiWestOpen(*row, *col)) --*col;
  }
}

struct TaxiParams {
  bool rainy = false;
  bool fickle = false;
  double rainy_probability = 0.8;
  double fickle_probability = 0.3;
};

// One step. Pickup: -10 unless the taxi is at the waiting passenger's stand.
// Drop-off with the passenger aboard: +20 and the end at the destination, a
// plain -1 step at another stand (the passenger waits there), else -10. In
// the rain a move that is possible goes sideways (left or right of the
// heading) with probability (1 - rainy_probability) / 2 each; a blocked move
// goes nowhere. A fickle passenger (decided on reset) picks a new destination
// once, on the first move of the taxi with the passenger aboard.
ENVPOOL_X_HD inline void TaxiDynamics(int* s, bool* fickle_step, int action, const TaxiParams& p,
                                      Rng& rng, double* reward, bool* terminated, double* prob) {
  const TaxiState old = TaxiDecode(*s);
  TaxiState t = old;
  *reward = -1.0;
  *terminated = false;
  *prob = 1.0;
  if (action < 4) {
    const bool possible = (action == 0 && t.row < kTaxiSize - 1) || (action == 1 && t.row > 0) ||
                          (action == 2 && TaxiEastOpen(t.row, t.col)) ||
                          (action == 3 && TaxiWestOpen(t.row, t.col));
    int dir = action;
    if (p.rainy) {
      // Left and right of each heading (south, north, east, west).
      constexpr int kLeft[4] = {2, 3, 1, 0};
      constexpr int kRight[4] = {3, 2, 0, 1};
      const double lateral = (1.0 - p.rainy_probability) / 2.0;
      const double u = rng.Uniform();
      if (u < p.rainy_probability) {
        *prob = p.rainy_probability;
      } else {
        *prob = lateral;
        dir = u < p.rainy_probability + lateral ? kLeft[action] : kRight[action];
      }
    }
    if (possible) TaxiMove(dir, &t.row, &t.col);
  } else if (action == 4) {
    if (t.pass < kTaxiInTaxi && kTaxiStandRow[t.pass] == t.row && kTaxiStandCol[t.pass] == t.col) {
      t.pass = kTaxiInTaxi;
    } else {
      *reward = -10.0;
    }
  } else {
    const int stand = TaxiStandAt(t.row, t.col);
    if (t.pass == kTaxiInTaxi && stand == t.dest) {
      t.pass = t.dest;
      *reward = 20.0;
      *terminated = true;
    } else if (t.pass == kTaxiInTaxi && stand >= 0) {
      t.pass = stand;
    } else {
      *reward = -10.0;
    }
  }
  if (p.fickle && *fickle_step && old.pass == kTaxiInTaxi &&
      (t.row != old.row || t.col != old.col)) {
    *fickle_step = false;
    const int k = static_cast<int>(rng.UniformInt(3));
    t.dest = k + (k >= old.dest ? 1 : 0);
  }
  *s = TaxiEncode(t);
}

// Which actions change the state (gymnasium's info["action_mask"]).
ENVPOOL_X_HD inline void TaxiActionMask(int s, int8_t* mask) {
  const TaxiState t = TaxiDecode(s);
  mask[0] = t.row < kTaxiSize - 1;
  mask[1] = t.row > 0;
  mask[2] = TaxiEastOpen(t.row, t.col);
  mask[3] = TaxiWestOpen(t.row, t.col);
  mask[4] =
      t.pass < kTaxiInTaxi && kTaxiStandRow[t.pass] == t.row && kTaxiStandCol[t.pass] == t.col;
  mask[5] = t.pass == kTaxiInTaxi && TaxiStandAt(t.row, t.col) >= 0;
}

class Taxi {
 public:
  static constexpr const char* kName = "Taxi";
  static constexpr bool kCheap = true;

  static Config DefaultConfig() {
    return Config{{"is_rainy", false},
                  {"fickle_passenger", false},
                  {"rainy_probability", 0.8},
                  {"fickle_probability", 0.3}};
  }

  static EnvSpec Spec(const Config& config) {
    Params(config);  // validates
    EnvSpec spec;
    spec.obs.push_back(DiscreteSpec("obs", kTaxiStates));
    spec.info.push_back(ArraySpec{"prob", DType::kFloat64, {}, {0.0}, {1.0}});
    spec.info.push_back(ArraySpec{"action_mask", DType::kInt8, {6}, {0.0}, {1.0}});
    spec.action.discrete = true;
    spec.action.n = 6;
    spec.reward_low = -10.0;
    spec.reward_high = 20.0;
    return spec;
  }

  Taxi(const Config& config, const EnvSpec& spec)
      : obs_(ObsField<int64_t>(spec, "obs")),
        prob_(InfoField<double>(spec, "prob")),
        action_mask_(InfoField<int8_t>(spec, "action_mask")),
        params_(Params(config)) {}

  // Uniform over the 300 states with the passenger waiting at a stand and a
  // different destination.
  void Reset(Rng& rng, const StepOutput& out) {
    const int k = static_cast<int>(rng.UniformInt(300));
    TaxiState t;
    t.row = k / 60;
    t.col = (k / 12) % 5;
    t.pass = (k / 3) % 4;
    const int d = k % 3;
    t.dest = d + (d >= t.pass ? 1 : 0);
    s_ = TaxiEncode(t);
    fickle_step_ = params_.fickle && rng.Uniform() < params_.fickle_probability;
    Write(1.0, out);
  }

  void Step(const void* action, Rng& rng, const StepOutput& out) {
    double reward = 0.0;
    double prob = 1.0;
    TaxiDynamics(&s_, &fickle_step_, DiscreteAction(action), params_, rng, &reward, out.terminated,
                 &prob);
    *out.reward = static_cast<float>(reward);
    Write(prob, out);
  }

  std::vector<double> GetState() const {
    return {static_cast<double>(s_), fickle_step_ ? 1.0 : 0.0};
  }

  void SetState(const std::vector<double>& s) {
    if (s.size() != 2) {
      throw ValueError("Taxi state must have 2 values [s, fickle_step], got " +
                       std::to_string(s.size()));
    }
    s_ = static_cast<int>(StateInt(s, 0, 0, kTaxiStates - 1, "Taxi state s"));
    fickle_step_ = StateInt(s, 1, 0, 1, "Taxi fickle_step") != 0;
  }

 private:
  static TaxiParams Params(const Config& config) {
    TaxiParams p;
    p.rainy = config.Bool("is_rainy");
    p.fickle = config.Bool("fickle_passenger");
    p.rainy_probability = config.Double("rainy_probability");
    p.fickle_probability = config.Double("fickle_probability");
    for (const char* key : {"rainy_probability", "fickle_probability"}) {
      const double v = config.Double(key);
      if (!(v >= 0.0 && v <= 1.0)) {
        throw ValueError(std::string("Taxi ") + key + " must be in [0, 1], got " +
                         std::to_string(v));
      }
    }
    return p;
  }

  void Write(double prob, const StepOutput& out) const {
    *out[obs_] = s_;
    *out[prob_] = prob;
    TaxiActionMask(s_, out[action_mask_]);
  }

  OutputField<int64_t> obs_;
  OutputField<double> prob_;
  OutputField<int8_t> action_mask_;
  TaxiParams params_;
  int s_ = 0;
  bool fickle_step_ = false;
};

}  // namespace envpool_x
