// The fuzzer's only source of randomness: splitmix64, seeded from --seed.
//
// Never std::random_device and never the distributions of <random> (their output differs
// between standard libraries): the same seed must give the same sessions on every machine, so a
// finding can be reported as "seed 7, session 12" and regenerated.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace fakehost::fuzz {

class Rng {
 public:
  explicit Rng(std::uint64_t seed) : state_(seed) {}
  std::uint64_t Next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  /// Uniform in [0, n); 0 when n is 0.
  std::size_t Below(std::size_t n) { return n == 0 ? 0 : static_cast<std::size_t>(Next() % n); }
  /// Uniform in [lo, hi].
  std::int64_t Between(std::int64_t lo, std::int64_t hi) {
    return lo + static_cast<std::int64_t>(Below(static_cast<std::size_t>(hi - lo) + 1));
  }
  /// True with probability percent/100.
  bool Chance(int percent) { return Below(100) < static_cast<std::size_t>(percent); }
  template <typename T>
  const T& Pick(const std::vector<T>& items) {
    return items[Below(items.size())];
  }

 private:
  std::uint64_t state_;
};

/// The seed of session `index` of a run seeded `seed`: sessions are independent, so session 12
/// can be regenerated without generating the 11 before it.
inline std::uint64_t SessionSeed(std::uint64_t seed, std::uint64_t index) {
  Rng r(seed ^ (index * 0xd1b54a32d192ed03ULL));
  r.Next();
  return r.Next();
}

}  // namespace fakehost::fuzz
