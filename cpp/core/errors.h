// Typed errors. The bindings map them to ValueError / TypeError / KeyError /
// RuntimeError so Python callers can catch them by kind.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace envpool_x {

struct ValueError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
struct TypeError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
struct KeyError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
struct StateError : std::runtime_error {  // misuse of the pool's protocol
  using std::runtime_error::runtime_error;
};

// A shape as Python writes the tuple, so messages read like numpy's:
// "(3,)", "(2, 7)".
template <typename Dims>
std::string ShapeString(const Dims& dims) {
  std::string s = "(";
  size_t n = 0;
  for (auto d : dims) {
    if (n++ > 0) s += ", ";
    s += std::to_string(static_cast<int64_t>(d));
  }
  return s + (n == 1 ? ",)" : ")");
}

}  // namespace envpool_x
