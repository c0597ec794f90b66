// Where a Box2D sim's random numbers come from: the env's own stream on the
// pool, or (parity tests) the values gymnasium drew from numpy, replayed in
// order. The calls name numpy's Generator methods that gymnasium uses.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/errors.h"
#include "core/random.h"

namespace envpool_x::box2d {

class Draws {
 public:
  virtual ~Draws() = default;
  virtual double Uniform(double low, double high) = 0;      // numpy's uniform(low, high)
  virtual int64_t Integers(int64_t low, int64_t high) = 0;  // [low, high)
  virtual double Random() = 0;                              // numpy's random(): [0, 1)
};

// The pool's draws: the env's Philox stream.
class RngDraws final : public Draws {
 public:
  explicit RngDraws(Rng& rng) : rng_(rng) {}
  double Uniform(double low, double high) override { return rng_.Uniform(low, high); }
  int64_t Integers(int64_t low, int64_t high) override {
    return low + static_cast<int64_t>(rng_.UniformInt(static_cast<uint64_t>(high - low)));
  }
  double Random() override { return rng_.Uniform(); }

 private:
  Rng& rng_;
};

// The parity tests' draws: gymnasium's values, in the order it drew them.
class ReplayDraws final : public Draws {
 public:
  explicit ReplayDraws(std::vector<double> values) : values_(std::move(values)) {}
  double Uniform(double, double) override { return Next(); }
  int64_t Integers(int64_t, int64_t) override { return static_cast<int64_t>(Next()); }
  double Random() override { return Next(); }
  size_t Left() const { return values_.size() - next_; }

 private:
  double Next() {
    if (next_ >= values_.size()) {
      throw ValueError("ReplayDraws: the sim asked for more draws than were recorded (" +
                       std::to_string(values_.size()) + ")");
    }
    return values_[next_++];
  }
  std::vector<double> values_;
  size_t next_ = 0;
};

}  // namespace envpool_x::box2d
