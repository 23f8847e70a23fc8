// One row per step kind, as a scenario writes it: what every layer that reads steps without
// playing them needs to know of the kind. The loader reads its key and the keys allowed beside
// it; the shards' cost model (run/shard.cpp), the schedule and the suites' wait audit
// (tests/waits_test.cpp, on a plugin that answers nothing) read the time it imposes; the
// fuzzer's plans write their steps by these keys.
//
// A new step kind is its struct and its line in model.hpp's FAKEHOST_STEP_BODIES, its row here,
// its Reader::Read in a reader_*.cpp, its PlayStep in a steps_*.cpp of the interpreter, its
// shape in schema/scenario.schema.json and its section in docs/scenarios.md: six files.
// Readers that care about one kind only (the answer policy: answer and expect; the schema
// check and the trigger list: send) ask for that kind, so a new one does not touch them.
#pragma once

#include <span>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

#include "harness/scenario/model.hpp"

namespace fakehost::scenario {

/// The figures a cost estimate is made of (run/shard.cpp says where they come from). Only their
/// ratios matter: a poor guess makes shards uneven, never wrong.
struct CostModel {
  double step_ms = 0;         ///< one round trip
  double trigger_ms = 0;      ///< the plugin acting on a trigger
  double ms_per_mib = 0;      ///< writing (and the plugin reading) bulk bytes
  double items_per_each = 0;  ///< a for_each's items, unknown until run time
  /// The fake host never answers some plugin calls, so the plugin waits out its own timeout and
  /// the scenario's explicit deadlines are what that wait has to fit in.
  bool held = false;
};

/// The index of body type T in StepBody (std::variant_npos when it is none of them).
template <typename T, typename V = StepBody>
struct BodyIndex;
template <typename T, typename... Bodies>
struct BodyIndex<T, std::variant<Bodies...>> {
  static constexpr std::size_t value = [] {
    std::size_t i = 0;
    bool found = false;
    ((found = found || std::is_same_v<T, Bodies>, i += found ? 0 : 1), ...);
    return found ? i : std::variant_npos;
  }();
};

struct StepKindInfo {
  std::string_view key;  ///< the YAML key: "expect"
  /// The StepBody alternative it loads as (send and notify share Send; `use` has none).
  std::size_t body = std::variant_npos;
  std::vector<std::string_view> siblings;  ///< the keys allowed beside it in the step's map
  /// The time a step of this kind costs against a plugin that behaves, beyond its round trip:
  /// the waits it cannot shorten (sleeps, absence windows, not_before, pauses between chunks),
  /// the bytes it writes, what a trigger makes the plugin do. Null: nothing beyond the round
  /// trip (a plugin that behaves answers or exits at once).
  double (*imposed_ms)(const Step& step, const CostModel& model) = nullptr;
};

/// Every kind, in the order the loader lists them ("known: send, notify, ...").
std::span<const StepKindInfo> StepKinds();
/// The row of the kind written `key`, or null.
const StepKindInfo* FindStepKind(std::string_view key);
/// The row of a step's body (for a Send, the first of send and notify: they cost alike).
const StepKindInfo& KindOf(const Step& step);
/// The cost of `steps` against a plugin that behaves: a round trip each, plus what each kind
/// imposes (a for_each's steps once per expected item).
double StepsCostMs(const std::vector<Step>& steps, const CostModel& model);

}  // namespace fakehost::scenario
