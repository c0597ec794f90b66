// The one action validator: whatever carries actions in (a numpy array in the
// CPU or GPU pool, an XLA buffer, a DLPack tensor), its element kind, its
// shape and its values are checked against the env's ActionSpec here, with
// the same messages everywhere.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "core/errors.h"
#include "core/spec.h"

namespace envpool_x {

// What an incoming array's elements are, whatever library describes them.
enum class ElementKind { kSigned, kUnsigned, kFloat, kOther };

// TypeError unless elements of `kind` (named `dtype` in the message) can be
// actions of `a`: integers for a discrete action, real numbers for a box.
inline void CheckActionKind(const ActionSpec& a, ElementKind kind, const std::string& dtype) {
  const bool integral = kind == ElementKind::kSigned || kind == ElementKind::kUnsigned;
  if (a.discrete && !integral) {
    throw TypeError("discrete actions must be integers, got dtype " + dtype);
  }
  if (!a.discrete && !integral && kind != ElementKind::kFloat) {
    throw TypeError("continuous actions must be real numbers, got dtype " + dtype);
  }
}

// The shape of the actions of n envs: (n,) or (n, *box shape).
inline std::vector<int64_t> ActionShape(const ActionSpec& a, int64_t n) {
  std::vector<int64_t> shape{n};
  if (!a.discrete) shape.insert(shape.end(), a.box.shape.begin(), a.box.shape.end());
  return shape;
}

[[noreturn]] inline void ThrowActionShape(const ActionSpec& a, const std::vector<int64_t>& got,
                                          int64_t n) {
  throw ValueError("action has shape " + ShapeString(got) + " but " + std::to_string(n) +
                   " envs need shape " + ShapeString(ActionShape(a, n)));
}

// ValueError unless `shape` is the actions of n envs (a one-element box may
// also come flat, as (n,)).
inline void CheckActionShape(const ActionSpec& a, const std::vector<int64_t>& shape, int64_t n) {
  const std::vector<int64_t> want = ActionShape(a, n);
  bool ok = shape == want;
  if (!ok && !a.discrete && a.box.NumElements() == 1) ok = shape == std::vector<int64_t>{n};
  if (!ok) ThrowActionShape(a, shape, n);
}

// ValueError unless `shape` holds as many elements as the actions of n envs
// (XLA hands over flat buffers).
inline void CheckActionCount(const ActionSpec& a, const std::vector<int64_t>& shape, int64_t n) {
  int64_t count = 1;
  for (int64_t d : shape) count *= d;
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

// ValueError unless element `index` of env_id's box action is finite.
inline void CheckFiniteAction(double v, int64_t env_id, int64_t index) {
  if (!std::isfinite(v)) {
    throw ValueError("action for env " + std::to_string(env_id) +
                     " is not finite (NaN or inf) at index " + std::to_string(index));
  }
}

}  // namespace envpool_x
