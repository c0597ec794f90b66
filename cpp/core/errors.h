// Typed errors. The bindings map them to ValueError / TypeError / KeyError /
// RuntimeError so Python callers can catch them by kind.
#pragma once

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

}  // namespace envpool_x
