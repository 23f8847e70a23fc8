#include "harness/fuzz/oracle.hpp"

#include <algorithm>

#include "harness/json/json.hpp"
#include "harness/protocol/profile.hpp"

namespace fakehost::fuzz {
namespace {

bool HasCheck(std::string_view id) {
  const auto& checks = protocol::EngineChecks();
  return std::any_of(checks.begin(), checks.end(),
                     [&](const protocol::EngineCheck& c) { return id == c.id; });
}

using result::Reason;

bool IsStep(const result::Failure& f) { return f.check == "step"; }

std::string RuleOf(const result::Failure& f) {
  const result::ReasonInfo& info = result::Info(f.reason);
  if (*info.rule) return info.rule;
  // A step that found the plugin gone: its death, however far its exit had got (stdout closed,
  // or the exit status already reaped). A shutdown that found it gone is the shutdown's.
  if (info.ends == result::ReasonEnds::kPlugin && IsStep(f) && f.step_kind != "shutdown")
    return "died";
  if (!IsStep(f)) return f.check;  // an always-on check is its own rule
  if (f.step_kind == "shutdown") return "shutdown";
  return "no-answer";
}

}  // namespace

std::vector<Finding> FindingsOf(const result::ScenarioResult& result) {
  std::vector<Finding> out;
  // The always-on checks first: a wrong id or an invalid frame is the cause, the expectation it
  // made miss only the consequence.
  auto owed = [](const result::Failure& f) { return IsStep(f) || f.reason == Reason::kUnanswered; };
  std::vector<const result::Failure*> order;
  for (const auto& f : result.failures)
    if (!owed(f)) order.push_back(&f);
  for (const auto& f : result.failures)
    if (owed(f)) order.push_back(&f);
  for (const result::Failure* p : order) {
    const result::Failure& f = *p;
    if (f.harness_error) continue;
    Finding finding;
    finding.rule = RuleOf(f);
    finding.level = f.level;
    finding.message = f.message;
    bool seen = std::any_of(out.begin(), out.end(),
                            [&](const Finding& o) { return o.Key() == finding.Key(); });
    if (!seen) out.push_back(std::move(finding));
  }
  return out;
}

bool Shows(const result::ScenarioResult& result, const std::string& key) {
  for (const auto& f : FindingsOf(result))
    if (f.Key() == key) return true;
  return false;
}

std::string HarnessError(const result::ScenarioResult& result) {
  for (const auto& f : result.failures)
    if (f.harness_error) return f.check + ": " + f.message;
  return {};
}

RuleText DescribeRule(const Finding& finding, const protocol::Profile& profile) {
  auto section = [&](std::string_view check) {
    return HasCheck(check) ? profile.Check(check).section : std::string();
  };
  RuleText t;
  const std::string& rule = finding.rule;
  if (rule == "no-answer") {
    t.spec = section("duplicate-reply");
    t.title = "Answers every request, whatever came before it";
    t.requirement =
        "Every request the host sends gets exactly one answer within its deadline, however odd "
        "the frames before it were.";
  } else if (rule == "died") {
    t.spec = section("not-json");
    t.title = "Survives whatever the host sends";
    t.requirement =
        "Malformed, unexpected or extreme frames are answered with an error or ignored; the "
        "plugin neither dies nor exits, and keeps answering requests.";
  } else if (rule == "shutdown") {
    t.spec = section("after-shutdown");
    t.title = "Exits on the host's shutdown, whatever came before it";
    t.requirement =
        "When the host shuts the plugin down it exits within the grace period, without a "
        "signal, however odd the frames before it were.";
  } else {
    t.spec = section(rule);
    t.title = "Never breaks the always-on check " + rule;
    t.requirement = "Whatever the host sends, the plugin's frames pass the always-on check " +
                    rule +
                    (HasCheck(rule) ? ": " + json::Abbreviate(profile.Check(rule).text, 160)
                                    : std::string("."));
  }
  if (t.spec.empty()) t.spec = profile.title();
  return t;
}

}  // namespace fakehost::fuzz
