#include "harness/scenario/step_kinds.hpp"

#include <algorithm>

namespace fakehost::scenario {
namespace {

double MsOf(Ms d) { return static_cast<double>(d.count()); }
double BytesMs(double bytes, const CostModel& m) {
  return bytes / (1024.0 * 1024.0) * m.ms_per_mib;
}

double SendCost(const Step& step, const CostModel& m) {
  const Send& send = std::get<Send>(step.body);
  return (send.trigger.empty() ? 0.0 : m.trigger_ms) + BytesMs(static_cast<double>(send.pad_to), m);
}

double SendRawCost(const Step& step, const CostModel& m) {
  const SendRaw& raw = std::get<SendRaw>(step.body);
  const double bytes = static_cast<double>(raw.bytes.size()) * static_cast<double>(raw.repeat);
  const double pauses =
      raw.chunk == 0 ? 0 : std::max(0.0, bytes / static_cast<double>(raw.chunk) - 1);
  return BytesMs(bytes, m) + pauses * MsOf(raw.delay);
}

double ExpectCost(const Step& step, const CostModel& m) {
  const Expect& expect = std::get<Expect>(step.body);
  return std::max(expect.not_before ? MsOf(*expect.not_before) : 0.0,
                  m.held ? MsOf(expect.within) : 0.0);
}

double ExpectNoneCost(const Step& step, const CostModel&) {
  const ExpectNone& none = std::get<ExpectNone>(step.body);
  return none.barrier ? 0.0 : MsOf(none.window);
}

double SleepCost(const Step& step, const CostModel&) {
  return MsOf(std::get<Sleep>(step.body).duration);
}

double ForEachCost(const Step& step, const CostModel& m) {
  return m.items_per_each * StepsCostMs(std::get<ForEach>(step.body).steps, m);
}

const StepKindInfo kKinds[] = {
    {"send",
     BodyIndex<Send>::value,
     {"as", "invalid", "pad_to", "pad_at", "level", "note"},
     &SendCost},
    {"notify", BodyIndex<Send>::value, {"invalid", "level", "note"}, &SendCost},
    {"send_raw", BodyIndex<SendRaw>::value, {"as", "level", "note"}, &SendRawCost},
    {"expect",
     BodyIndex<Expect>::value,
     {"within", "counted_from", "not_before", "after", "as", "reply", "level", "note", "why"},
     &ExpectCost},
    {"expect_none",
     BodyIndex<ExpectNone>::value,
     {"for", "barrier", "since", "level", "note", "why"},
     &ExpectNoneCost},
    {"answer", BodyIndex<Answer>::value, {"level", "note"}},
    {"close_stdin", BodyIndex<CloseStdin>::value, {"level", "note"}},
    {"kill_parent", BodyIndex<KillParent>::value, {"level", "note"}},
    {"signal", BodyIndex<Signal>::value, {"level", "note"}},
    {"sleep", BodyIndex<Sleep>::value, {"level", "note"}, &SleepCost},
    {"expect_exit", BodyIndex<ExpectExit>::value, {"within", "level", "note", "why"}},
    {"shutdown", BodyIndex<Shutdown>::value, {"level", "note", "why"}},
    {"for_each", BodyIndex<ForEach>::value, {"level", "note"}, &ForEachCost},
    // Expanded by the loader into the fragment's steps: never a step of a loaded scenario.
    {"use", std::variant_npos, {"level", "note"}},
};

}  // namespace

std::span<const StepKindInfo> StepKinds() { return kKinds; }

const StepKindInfo* FindStepKind(std::string_view key) {
  for (const StepKindInfo& info : kKinds)
    if (info.key == key) return &info;
  return nullptr;
}

const StepKindInfo& KindOf(const Step& step) {
  for (const StepKindInfo& info : kKinds)
    if (info.body == step.body.index()) return info;
  return kKinds[std::size(kKinds) - 1];  // unreachable: every body has its row (step_kinds_test)
}

double StepsCostMs(const std::vector<Step>& steps, const CostModel& model) {
  double ms = 0;
  for (const Step& step : steps) {
    const StepKindInfo& info = KindOf(step);
    ms += model.step_ms + (info.imposed_ms ? info.imposed_ms(step, model) : 0.0);
  }
  return ms;
}

}  // namespace fakehost::scenario
