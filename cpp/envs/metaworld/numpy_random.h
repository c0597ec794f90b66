// numpy's legacy global generator (np.random.seed(int) then np.random.uniform),
// which Meta-World's benchmarks draw their tasks' goal variations from: the
// Mersenne Twister seeded by init_genrand (std::mt19937's seeding) and
// doubles of 53 bits from two 32-bit outputs (numpy's random_sample).
#pragma once

#include <cstdint>
#include <random>

namespace envpool_x {
namespace metaworld {

class NumpyLegacyRandom {
 public:
  explicit NumpyLegacyRandom(uint32_t seed) : twister_(seed) {}

  // random_sample(): (a >> 5) * 2^26 + (b >> 6), over 2^53.
  double Sample() {
    const uint32_t a = static_cast<uint32_t>(twister_()) >> 5;
    const uint32_t b = static_cast<uint32_t>(twister_()) >> 6;
    return (a * 67108864.0 + b) / 9007199254740992.0;
  }

  // uniform(low, high) element by element: low + (high - low) * sample.
  void Uniform(const double* low, const double* high, int n, double* out) {
    for (int i = 0; i < n; ++i) out[i] = low[i] + (high[i] - low[i]) * Sample();
  }

 private:
  std::mt19937 twister_;
};

}  // namespace metaworld
}  // namespace envpool_x
