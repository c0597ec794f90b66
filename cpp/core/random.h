// Counter-based random numbers (Philox4x32-10), keyed by a 64-bit per-env seed.
// The same (key, counter) gives the same numbers on the CPU and on a GPU, so a
// GPU run can be checked against a CPU run of the same seed.
#pragma once

#include <cmath>
#include <cstdint>

#include "core/host_device.h"

namespace envpool_x {

ENVPOOL_X_HD inline uint64_t SplitMix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

// x ^ (x >> shift) undone (0 < shift < 64).
ENVPOOL_X_HD inline uint64_t UndoXorShiftRight(uint64_t y, int shift) {
  uint64_t x = y;
  for (int s = shift; s < 64; s += shift) x ^= y >> s;
  return x;
}

// SplitMix64's inverse: every step of the mix is a bijection of 64-bit words
// (the multipliers' inverses are mod 2^64).
ENVPOOL_X_HD inline uint64_t UnmixSplitMix64(uint64_t x) {
  x = UndoXorShiftRight(x, 31) * 0x319642B2D24D8EC3ULL;
  x = UndoXorShiftRight(x, 27) * 0x96DE1B173F119089ULL;
  return UndoXorShiftRight(x, 30) - 0x9E3779B97F4A7C15ULL;
}

// The seed of env `env_id` when the pool is seeded with one integer.
ENVPOOL_X_HD inline uint64_t DeriveEnvSeed(uint64_t seed, uint64_t env_id) {
  return SplitMix64(SplitMix64(seed) ^ (env_id * 0xD1B54A32D192ED03ULL));
}

// DeriveEnvSeed's inverse for one env: the pool seed that gives env `env_id`
// the seed `env_seed` (there is exactly one). An env whose engine seeds its
// games from the pool's integer seed (Procgen) finds it from its own seed.
ENVPOOL_X_HD inline uint64_t PoolSeedOf(uint64_t env_seed, uint64_t env_id) {
  return UnmixSplitMix64(UnmixSplitMix64(env_seed) ^ (env_id * 0xD1B54A32D192ED03ULL));
}

struct Philox4x32 {
  uint32_t v[4];
};

// One Philox4x32-10 block: counter (c0..c3) under key (k0, k1).
ENVPOOL_X_HD inline Philox4x32 PhiloxBlock(uint64_t counter, uint64_t key) {
  uint32_t c0 = static_cast<uint32_t>(counter);
  uint32_t c1 = static_cast<uint32_t>(counter >> 32);
  uint32_t c2 = 0;
  uint32_t c3 = 0;
  uint32_t k0 = static_cast<uint32_t>(key);
  uint32_t k1 = static_cast<uint32_t>(key >> 32);
  for (int round = 0; round < 10; ++round) {
    uint64_t p0 = static_cast<uint64_t>(0xD2511F53u) * c0;
    uint64_t p1 = static_cast<uint64_t>(0xCD9E8D57u) * c2;
    uint32_t hi0 = static_cast<uint32_t>(p0 >> 32);
    uint32_t lo0 = static_cast<uint32_t>(p0);
    uint32_t hi1 = static_cast<uint32_t>(p1 >> 32);
    uint32_t lo1 = static_cast<uint32_t>(p1);
    uint32_t n0 = hi1 ^ c1 ^ k0;
    uint32_t n2 = hi0 ^ c3 ^ k1;
    c0 = n0;
    c1 = lo1;
    c2 = n2;
    c3 = lo0;
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  return Philox4x32{{c0, c1, c2, c3}};
}

// A stream of random numbers for one env. Each draw consumes one Philox block
// (two 64-bit words, of which the first is used), so the i-th draw of a stream
// depends only on (key, i): easy to reproduce on a device thread.
class Rng {
 public:
  ENVPOOL_X_HD Rng() : key_(0), counter_(0) {}
  ENVPOOL_X_HD explicit Rng(uint64_t key) : key_(key), counter_(0) {}
  // A stream resumed at draw `counter` (the GPU path keeps (key, counter) per
  // env in device arrays and rebuilds the Rng in each kernel thread).
  ENVPOOL_X_HD Rng(uint64_t key, uint64_t counter) : key_(key), counter_(counter) {}

  ENVPOOL_X_HD void Seed(uint64_t key) {
    key_ = key;
    counter_ = 0;
  }
  ENVPOOL_X_HD uint64_t key() const { return key_; }
  ENVPOOL_X_HD uint64_t counter() const { return counter_; }

  ENVPOOL_X_HD uint64_t NextU64() {
    Philox4x32 b = PhiloxBlock(counter_++, key_);
    return (static_cast<uint64_t>(b.v[0]) << 32) | b.v[1];
  }
  // Uniform in [0, 1) with 53 random bits.
  ENVPOOL_X_HD double Uniform() {
    return static_cast<double>(NextU64() >> 11) * (1.0 / 9007199254740992.0);
  }
  // Uniform in [low, high).
  ENVPOOL_X_HD double Uniform(double low, double high) { return low + (high - low) * Uniform(); }
  // Uniform integer in [0, n) (n > 0); multiply-shift, bias < 2^-32 for n < 2^32.
  ENVPOOL_X_HD uint64_t UniformInt(uint64_t n) {
    return static_cast<uint64_t>((static_cast<unsigned __int128>(NextU64()) * n) >> 64);
  }
  // Standard normal via Box-Muller (one draw of two uniforms).
  ENVPOOL_X_HD double Normal() {
    double u1 = 1.0 - Uniform();  // (0, 1]
    double u2 = Uniform();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
  }

 private:
  uint64_t key_;
  uint64_t counter_;
};

}  // namespace envpool_x
