// ParamStore: the pool's record of every env's parameters (core/params.h):
// what each env runs with now, and how its next resets choose their values.
//
// Ownership follows the env's: while an env has work in flight only the
// worker running it touches its row (drawing at a reset); otherwise the
// caller may. Settings made while an env is in flight wait in `staged_`
// until its result is received, so that which reset first uses them depends
// on the caller's calls only, never on thread timing. The tables are
// allocated by the first change: a pool that never changes a parameter
// carries none of them, and its resets only test one flag.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/params.h"
#include "core/random.h"

namespace envpool_x {

class ParamStore {
 public:
  void Init(std::vector<ParamSpec> specs, std::vector<double> defaults, int num_envs) {
    specs_ = std::move(specs);
    defaults_ = std::move(defaults);
    num_envs_ = num_envs;
  }

  const std::vector<ParamSpec>& specs() const { return specs_; }
  size_t count() const { return specs_.size(); }
  bool changed() const { return !values_.empty(); }
  bool has_staged() const { return !staged_ids_.empty(); }

  // Index of parameter `name`; KeyError naming the known ones if none.
  size_t IndexOf(const std::string& name) const {
    for (size_t p = 0; p < specs_.size(); ++p) {
      if (specs_[p].name == name) return p;
    }
    std::string known;
    for (const ParamSpec& s : specs_) known += (known.empty() ? "" : ", ") + s.name;
    throw KeyError("unknown parameter '" + name +
                   "'; this task's parameters: " + (known.empty() ? std::string("none") : known));
  }

  // The index of each of `names`, once every setting is checked:
  // settings[k] (one per env of `ids`, or one for all) for names[k].
  std::vector<size_t> Check(const std::vector<int32_t>& ids, const std::vector<std::string>& names,
                            const std::vector<std::vector<ParamSetting>>& settings,
                            bool immediate) const {
    std::vector<size_t> index;
    for (size_t k = 0; k < names.size(); ++k) {
      index.push_back(IndexOf(names[k]));
      const ParamSpec& spec = specs_[index[k]];
      if (std::count(index.begin(), index.end(), index[k]) > 1) {
        throw ValueError("parameter '" + spec.name + "' is given twice");
      }
      if (settings[k].size() != 1 && settings[k].size() != ids.size()) {
        throw ValueError("parameter '" + spec.name + "': got " +
                         std::to_string(settings[k].size()) + " values for " +
                         std::to_string(ids.size()) + " envs");
      }
      if (immediate && !spec.mid_episode) {
        throw ValueError("parameter '" + spec.name + "' cannot change mid-episode; " +
                         "set it without immediate=True (it applies at the next reset)");
      }
      for (size_t j = 0; j < settings[k].size(); ++j) {
        const std::string where =
            settings[k].size() == 1 ? std::string() : " for env " + std::to_string(ids[j]);
        CheckParamSetting(spec, settings[k][j], where);
        if (immediate && settings[k][j].random()) {
          throw ValueError("parameter '" + spec.name +
                           "': immediate=True takes values, not distributions");
        }
      }
    }
    return index;
  }

  // Worker side, at the reset of an env whose settings changed: draws its
  // values from `rng` (the env's parameter stream). Returns whether its next
  // reset must draw again (some setting is a distribution).
  bool Draw(int32_t id, Rng& rng) {
    bool again = false;
    const size_t n = count();
    for (size_t p = 0; p < n; ++p) {
      const ParamSetting& s = next_[id * n + p];
      std::atomic_ref<double>(values_[id * n + p])
          .store(s.Draw(rng, specs_[p]), std::memory_order_relaxed);
      again |= s.random();
    }
    return again;
  }
  // The values env `id` runs with (worker side, or caller side while idle).
  const double* values(int32_t id) const {
    return changed() ? values_.data() + id * count() : defaults_.data();
  }
  // Any side: the value env `id` runs with, or has just drawn (relaxed: an
  // env in flight may be drawing its new values meanwhile).
  double Load(int32_t id, size_t p) const {
    if (!changed()) return defaults_[p];
    return std::atomic_ref<const double>(values_[id * count() + p]).load(std::memory_order_relaxed);
  }

  // Caller side, after Check: settings[k] for parameter index[k] of each env
  // of `ids`; an env for which busy(id) waits (Stage), the others get arm(id)
  // (their next reset applies them) and, if `immediate`, apply_now(id).
  template <typename Busy, typename Arm, typename ApplyNow>
  void Write(const std::vector<int32_t>& ids, const std::vector<size_t>& index,
             const std::vector<std::vector<ParamSetting>>& settings, bool immediate, Busy busy,
             Arm arm, ApplyNow apply_now) {
    Allocate();
    for (size_t j = 0; j < ids.size(); ++j) {
      const int32_t id = ids[j];
      const bool in_flight = busy(id);
      for (size_t k = 0; k < index.size(); ++k) {
        const ParamSetting& s = settings[k][settings[k].size() == 1 ? 0 : j];
        if (in_flight) {
          Stage(id, index[k], s);
        } else {
          next_[id * count() + index[k]] = s;
          if (immediate) SetValue(id, index[k], s.a);
        }
      }
      if (in_flight) continue;
      arm(id);
      if (immediate) apply_now(id);
    }
  }
  // Row-major (ids.size(), parameters): Load of each (for an env in flight,
  // possibly what its reset in progress has just drawn).
  std::vector<double> Values(const std::vector<int32_t>& ids) const {
    std::vector<double> out;
    out.reserve(ids.size() * count());
    for (int32_t id : ids) {
      for (size_t p = 0; p < count(); ++p) out.push_back(Load(id, p));
    }
    return out;
  }

  // Caller side: the first change makes the tables, every env's settings
  // fixed at the values it runs with.
  void Allocate() {
    if (changed()) return;
    const size_t n = count();
    next_.resize(num_envs_ * n);
    values_.resize(num_envs_ * n);
    for (int i = 0; i < num_envs_; ++i) {
      for (size_t p = 0; p < n; ++p) {
        next_[i * n + p].a = defaults_[p];
        values_[i * n + p] = defaults_[p];
      }
    }
  }
  // Caller side, env `id` idle: it runs with `v` from now on.
  void SetValue(int32_t id, size_t p, double v) {
    std::atomic_ref<double>(values_[id * count() + p]).store(v, std::memory_order_relaxed);
  }
  // Caller side, env `id` in flight: `s` waits until its result is received.
  void Stage(int32_t id, size_t p, const ParamSetting& s) {
    const size_t n = count();
    if (staged_.empty()) {
      staged_.resize(num_envs_ * n);
      staged_mask_.assign(num_envs_ * n, 0);
      env_staged_.assign(num_envs_, 0);
    }
    staged_[id * n + p] = s;
    staged_mask_[id * n + p] = 1;
    if (!env_staged_[id]) {
      env_staged_[id] = 1;
      staged_ids_.push_back(id);
    }
  }
  // Caller side: moves the staged settings of every env for which `idle` is
  // true into its next settings and calls `arm(id)` for it.
  template <typename Idle, typename Arm>
  void CommitStaged(Idle idle, Arm arm) {
    const size_t n = count();
    auto kept = std::remove_if(staged_ids_.begin(), staged_ids_.end(), [&](int32_t id) {
      if (!idle(id)) return false;
      for (size_t p = 0; p < n; ++p) {
        if (staged_mask_[id * n + p]) {
          next_[id * n + p] = std::move(staged_[id * n + p]);
          staged_mask_[id * n + p] = 0;
        }
      }
      env_staged_[id] = 0;
      arm(id);
      return true;
    });
    staged_ids_.erase(kept, staged_ids_.end());
  }

  // Heap bytes once every table exists (the memory estimate's upper bound).
  static int64_t BytesPerEnv(int64_t num_params) {
    return num_params * static_cast<int64_t>(2 * sizeof(ParamSetting) + sizeof(double) + 1) + 1 +
           static_cast<int64_t>(sizeof(int32_t));
  }

 private:
  std::vector<ParamSpec> specs_;
  std::vector<double> defaults_;  // the pool's config values
  int num_envs_ = 0;
  // Row-major [env][param]; empty until the first change.
  std::vector<ParamSetting> next_;
  std::vector<double> values_;
  std::vector<ParamSetting> staged_;
  std::vector<uint8_t> staged_mask_;
  std::vector<uint8_t> env_staged_;
  std::vector<int32_t> staged_ids_;
};

}  // namespace envpool_x
