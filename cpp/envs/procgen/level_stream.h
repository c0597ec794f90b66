// Which levels a Procgen game plays, set through libenv's state API.
//
// procgen's env made with rand_seed = R and `num` games seeds game n's level
// generator (a std::mt19937 inside procgen's RandGen) with draw n + 1 of a
// std::mt19937 seeded with R; every level of game n comes from that generator.
// One of our handles holds one game, so the env replaces its game's generator
// in the game's saved state (libenv's get_state / set_state) with the one of
// game n, then forces a reset (libenv's action -1) to start a level from it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "envs/procgen/libenv.h"

namespace envpool_x::procgen_detail {

// The seed of game `game`'s level generator in procgen's env made with
// `rand_seed` (procgen's RandGen seeds its mt19937 with the int's 32 bits).
inline uint32_t GameLevelSeedGeneratorSeed(uint32_t rand_seed, uint64_t game) {
  std::mt19937 draws(rand_seed);
  draws.discard(game);
  return static_cast<uint32_t>(draws());
}

// procgen's own bound on a saved game (MAX_STATE_SIZE of its Python env);
// libenv aborts the process on a smaller buffer, never returns an error.
constexpr size_t kMaxStateBytes = size_t{1} << 20;

// procgen 0.10.7's Game::serialize starts with: int version (0), the game's
// name (int length, bytes), 17 ints (12 options, grid_step, the level range,
// game_type, game_n), then the level generator: int is_seeded and the
// mt19937's text (int length, bytes: 624 words and a position).
constexpr int32_t kStateVersion = 0;
constexpr size_t kIntsBeforeGenerator = 17;
constexpr size_t kGameNumberInt = 16;

inline int32_t ReadInt(const std::vector<char>& b, size_t at) {
  int32_t v = 0;
  std::memcpy(&v, b.data() + at, sizeof(v));
  return v;
}

inline void WriteInt(std::vector<char>& b, size_t at, int32_t v) {
  std::memcpy(b.data() + at, &v, sizeof(v));
}

// Sets the level generator of the one game in `handle` (named `game_name`) to
// the one procgen gives game `game_n`, seeded with `generator_seed`. The
// level in play is unchanged until the next reset.
inline void SetLevelSeedGenerator(const Libenv& api, void* handle, const std::string& game_name,
                                  int32_t game_n, uint32_t generator_seed) {
  // A worker thread's buffers, reused: a new level stream starts rarely.
  thread_local std::vector<char> saved(kMaxStateBytes);
  thread_local std::vector<char> edited(kMaxStateBytes);
  const size_t length =
      static_cast<size_t>(api.get_state(handle, 0, saved.data(), static_cast<int>(saved.size())));
  auto layout_error = [&](const std::string& what) {
    return std::runtime_error("procgen's saved " + game_name + " state is not laid out as " +
                              "procgen 0.10.7 lays it out (" + what +
                              "); this build needs procgen 0.10.7's libenv.so");
  };
  size_t at = 0;
  auto need = [&](size_t bytes) {
    if (bytes > length || at > length - bytes) throw layout_error("it ends early");
  };
  auto read_length = [&](size_t where) {
    const int32_t v = ReadInt(saved, where);
    if (v < 0) throw layout_error("a negative length");
    return static_cast<size_t>(v);
  };
  need(2 * sizeof(int32_t));
  if (ReadInt(saved, 0) != kStateVersion) throw layout_error("another version");
  const size_t name_length = read_length(sizeof(int32_t));
  at = 2 * sizeof(int32_t);
  need(name_length);
  if (std::string(saved.data() + at, name_length) != game_name) {
    throw layout_error("not the game's name where expected");
  }
  at += name_length;
  const size_t game_n_at = at + kGameNumberInt * sizeof(int32_t);
  at += kIntsBeforeGenerator * sizeof(int32_t);
  need(2 * sizeof(int32_t));
  if (ReadInt(saved, at) != 1) throw layout_error("no seeded level generator where expected");
  at += sizeof(int32_t);
  const size_t text_length = read_length(at);
  at += sizeof(int32_t);
  need(text_length);
  const std::string old_text(saved.data() + at, text_length);
  if (old_text.find_first_not_of("0123456789 ") != std::string::npos ||
      static_cast<size_t>(std::count(old_text.begin(), old_text.end(), ' ')) !=
          std::mt19937::state_size) {
    throw layout_error("no mt19937 state where the level generator should be");
  }

  std::ostringstream text;
  text << std::mt19937(generator_seed);
  const std::string new_text = text.str();
  const size_t head = at - sizeof(int32_t);  // up to the text's length
  const size_t tail = length - (at + text_length);
  const size_t new_length = head + sizeof(int32_t) + new_text.size() + tail;
  if (new_length > edited.size()) throw layout_error("the state outgrows procgen's bound");
  std::memcpy(edited.data(), saved.data(), head);
  WriteInt(edited, game_n_at, game_n);  // procgen's number of the game (only in warnings)
  WriteInt(edited, head, static_cast<int32_t>(new_text.size()));
  std::memcpy(edited.data() + head + sizeof(int32_t), new_text.data(), new_text.size());
  std::memcpy(edited.data() + head + sizeof(int32_t) + new_text.size(),
              saved.data() + at + text_length, tail);
  api.set_state(handle, 0, edited.data(), static_cast<int>(new_length));
}

}  // namespace envpool_x::procgen_detail
