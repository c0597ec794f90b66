// What both games' texture tables share (classic_textures.h and
// full/pixels_textures.h): a block size checked against its bounds, a
// process-wide registry of tables by block size, and Python's arrays moved
// into a table's fields after a size check.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "core/errors.h"

namespace envpool_x {
namespace craftax {

// Throws a ValueError naming `what` unless lo <= block <= hi.
inline void CheckBlockSize(int block, int lo, int hi, const char* what) {
  if (block < lo || block > hi) {
    throw ValueError(std::string("Craftax ") + what + " must be in [" + std::to_string(lo) + ", " +
                     std::to_string(hi) + "], got " + std::to_string(block));
  }
}

// The tables of type T loaded so far, by block size; every env of the
// process shares them (read-only).
template <class T>
class TextureRegistry {
 public:
  static void Set(int block, std::shared_ptr<const T> table) {
    Store& s = store();
    std::lock_guard<std::mutex> guard(s.mutex);
    s.tables[block] = std::move(table);
  }
  // Null when Python has not loaded this block size.
  static std::shared_ptr<const T> Loaded(int block) {
    Store& s = store();
    std::lock_guard<std::mutex> guard(s.mutex);
    auto it = s.tables.find(block);
    return it == s.tables.end() ? nullptr : it->second;
  }

 private:
  struct Store {
    std::mutex mutex;
    std::map<int, std::shared_ptr<const T>> tables;
  };
  static Store& store() {
    static Store s;
    return s;
  }
};

// *fields[i] = parts[i] for the N fields of a table, after checking that
// Python passed N arrays of sizes[i] values each (a ValueError otherwise,
// leaving the fields as they were).
template <size_t N>
void MoveTextureParts(std::vector<std::vector<float>>& parts, const size_t (&sizes)[N],
                      std::vector<float>* const (&fields)[N], int block) {
  if (parts.size() != N) {
    throw ValueError("Craftax textures: expected " + std::to_string(N) + " arrays, got " +
                     std::to_string(parts.size()));
  }
  for (size_t i = 0; i < N; ++i) {
    if (parts[i].size() != sizes[i]) {
      throw ValueError("Craftax textures: array " + std::to_string(i) + " has " +
                       std::to_string(parts[i].size()) + " values, expected " +
                       std::to_string(sizes[i]) + " for block size " + std::to_string(block));
    }
  }
  for (size_t i = 0; i < N; ++i) *fields[i] = std::move(parts[i]);
}

}  // namespace craftax
}  // namespace envpool_x
