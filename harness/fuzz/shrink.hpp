// Shrinking a failing plan to a small one that still fails the same way.
//
// Greedy and deterministic: first whole actions are removed (halves, then quarters, down to
// single actions, as in delta debugging), then each remaining part is simplified (mutations
// dropped or their values emptied, odd ids made ordinary, split writes made whole, pauses
// zeroed, the host's special answers and the barrier dropped), and the passes repeat until one
// changes nothing or the deadline passes. `fails` is called once per candidate; with a
// deterministic `fails` the result is deterministic.
#pragma once

#include <chrono>
#include <functional>

#include "harness/fuzz/plan.hpp"

namespace fakehost::fuzz {

struct ShrinkStats {
  int candidates = 0;   ///< calls of `fails`
  int accepted = 0;     ///< candidates that still failed and were kept
  bool capped = false;  ///< the deadline ended it before a fixpoint
};

Plan Shrink(const Plan& plan, const std::function<bool(const Plan&)>& fails,
            std::chrono::steady_clock::time_point deadline, ShrinkStats* stats);

}  // namespace fakehost::fuzz
