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

// The shape of the actions of n envs: (n,) or (n, *box shape).
inline std::vector<int64_t> ActionShape(const ActionSpec& a, int64_t n) {
  std::vector<int64_t> shape{n};
  if (!a.discrete) shape.insert(shape.end(), a.box.shape.begin(), a.box.shape.end());
  return shape;
}

template <typename Dims>
[[noreturn]] void ThrowActionShape(const ActionSpec& a, const Dims& got, int64_t n) {
  throw ValueError("action has shape " + ShapeString(got) + " but " + std::to_string(n) +
                   " envs need shape " + ShapeString(ActionShape(a, n)));
}

// ValueError unless `shape` (any sequence of integers) is the actions of n
// envs: (n,) or (n, *box shape); a one-element box may also come flat, as
// (n,). Allocates nothing unless it throws (it runs on every step).
template <typename Dims>
void CheckActionShape(const ActionSpec& a, const Dims& shape, int64_t n) {
  const size_t rank = std::size(shape);
  bool ok = rank >= 1 && static_cast<int64_t>(shape[0]) == n;
  if (ok && !a.discrete) {
    const std::vector<int64_t>& box = a.box.shape;
    const bool full =
        rank == box.size() + 1 &&
        std::equal(box.begin(), box.end(), std::begin(shape) + 1,
                   [](int64_t want, auto got) { return static_cast<int64_t>(got) == want; });
    ok = full || (rank == 1 && a.box.NumElements() == 1);
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

// ValueError unless element `index` of env_id's box action is finite.
inline void CheckFiniteAction(double v, int64_t env_id, int64_t index) {
  if (!std::isfinite(v)) {
    throw ValueError("action for env " + std::to_string(env_id) +
                     " is not finite (NaN or inf) at index " + std::to_string(index));
  }
}

}  // namespace envpool_x
