// The one action validator: whatever carries actions in (a numpy array in the
// CPU or GPU pool, an XLA buffer, a DLPack tensor), its element kind, its
// shape and its values are checked against the env's ActionSpec here, with
// the same messages everywhere.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <string>
#include <vector>

#include "core/errors.h"
#include "core/spec.h"

namespace envpool_x {

// What an incoming array's elements are, whatever library describes them.
enum class ElementKind { kSigned, kUnsigned, kFloat, kOther };

// TypeError unless elements of `kind` can be actions of `a`: integers for a
// discrete action, real numbers for a box. dtype_name() names the elements in
// the message; it is only called on the error path (naming a numpy dtype
// costs a Python call).
template <typename NameFn>
void CheckActionKind(const ActionSpec& a, ElementKind kind, NameFn&& dtype_name) {
  const bool integral = kind == ElementKind::kSigned || kind == ElementKind::kUnsigned;
  if (a.discrete && !integral) {
    throw TypeError("discrete actions must be integers, got dtype " + std::string(dtype_name()));
  }
  if (!a.discrete && !integral && kind != ElementKind::kFloat) {
    throw TypeError("continuous actions must be real numbers, got dtype " +
                    std::string(dtype_name()));
  }
}

// The shape of the actions of n envs: (n,) or (n, *box shape), with the
// agent axis after n for a multi-agent env: (n, agents, *one agent's shape).
inline std::vector<int64_t> ActionShape(const ActionSpec& a, int64_t n) {
  std::vector<int64_t> shape{n};
  if (a.num_agents > 1) shape.push_back(a.num_agents);
  if (!a.discrete) shape.insert(shape.end(), a.box.shape.begin(), a.box.shape.end());
  if (a.discrete && !a.nvec.empty()) shape.push_back(static_cast<int64_t>(a.nvec.size()));
  return shape;
}

template <typename Dims>
[[noreturn]] void ThrowActionShape(const ActionSpec& a, const Dims& got, int64_t n) {
  const std::string agents =
      a.num_agents > 1 ? " with " + std::to_string(a.num_agents) + " agents each" : "";
  throw ValueError("action has shape " + ShapeString(got) + " but " + std::to_string(n) + " envs" +
                   agents + " need shape " + ShapeString(ActionShape(a, n)));
}

// ValueError unless `shape` (any sequence of integers) is the actions of n
// envs (ActionShape); a single agent's one-element box may also come flat, as
// (n,). Allocates nothing unless it throws (it runs on every step).
template <typename Dims>
void CheckActionShape(const ActionSpec& a, const Dims& shape, int64_t n) {
  const size_t rank = std::size(shape);
  bool ok = rank >= 1 && static_cast<int64_t>(shape[0]) == n;
  if (ok && (a.num_agents > 1 || !a.discrete || !a.nvec.empty())) {
    int64_t want[8];  // ActionShape without allocating: box ranks up to 6
    size_t want_rank = 0;
    want[want_rank++] = n;
    if (a.num_agents > 1) want[want_rank++] = a.num_agents;
    if (!a.discrete) {
      for (int64_t d : a.box.shape) {
        if (want_rank < 8) want[want_rank++] = d;
      }
    } else if (!a.nvec.empty()) {
      want[want_rank++] = static_cast<int64_t>(a.nvec.size());
    }
    const bool full = rank == want_rank && std::equal(want, want + want_rank, std::begin(shape),
                                                      [](int64_t w, auto got) {
                                                        return static_cast<int64_t>(got) == w;
                                                      });
    ok = full || (rank == 1 && a.num_agents == 1 && !a.discrete && a.box.NumElements() == 1);
  } else if (ok) {
    ok = rank == 1;
  }
  if (!ok) ThrowActionShape(a, shape, n);
}

// ValueError unless `shape` holds as many elements as the actions of n envs
// (XLA hands over flat buffers).
template <typename Dims>
void CheckActionCount(const ActionSpec& a, const Dims& shape, int64_t n) {
  int64_t count = 1;
  for (auto d : shape) count *= static_cast<int64_t>(d);
  if (count != n * a.NumElements()) ThrowActionShape(a, shape, n);
}

// ValueError unless v is a discrete action of `a` (checked before any
// narrowing, so that 2**32 is not taken for 0).
inline void CheckDiscreteAction(const ActionSpec& a, int64_t v, int64_t env_id) {
  if (v < 0 || v >= a.n) {
    throw ValueError("action " + std::to_string(v) + " for env " + std::to_string(env_id) +
                     " is out of range [0, " + std::to_string(a.n) + ")");
  }
}

// "env 3" or, in a multi-agent env, "env 3, agent 2": who element `index` of
// an env's action belongs to.
inline std::string ActionOwner(const ActionSpec& a, int64_t env_id, int64_t index) {
  std::string who = "env " + std::to_string(env_id);
  if (a.num_agents > 1) who += ", agent " + std::to_string(index / a.AgentElements());
  return who;
}

// ValueError unless v is a valid value of element `index` of env_id's
// discrete action (any agent count, Discrete or MultiDiscrete per agent).
inline void CheckDiscreteElement(const ActionSpec& a, int64_t v, int64_t env_id, int64_t index) {
  const int64_t n = a.Categories(index);
  if (v >= 0 && v < n) return;
  if (a.NumElements() == 1) CheckDiscreteAction(a, v, env_id);
  std::string part;
  if (!a.nvec.empty()) part = " (element " + std::to_string(index % a.AgentElements()) + ")";
  throw ValueError("action " + std::to_string(v) + " for " + ActionOwner(a, env_id, index) + part +
                   " is out of range [0, " + std::to_string(n) + ")");
}

// ValueError unless element `index` of env_id's box action is finite.
inline void CheckFiniteAction(double v, int64_t env_id, int64_t index) {
  if (!std::isfinite(v)) {
    throw ValueError("action for env " + std::to_string(env_id) +
                     " is not finite (NaN or inf) at index " + std::to_string(index));
  }
}

// The same, naming the agent in a multi-agent env.
inline void CheckFiniteAction(const ActionSpec& a, double v, int64_t env_id, int64_t index) {
  if (std::isfinite(v)) return;
  if (a.num_agents == 1) CheckFiniteAction(v, env_id, index);
  throw ValueError("action for " + ActionOwner(a, env_id, index) +
                   " is not finite (NaN or inf) at index " +
                   std::to_string(index % a.AgentElements()));
}

}  // namespace envpool_x
