// Every wait in both suites comes from the protocol: no window (an expect's within, an exit
// window, a shutdown's grace) is shorter than the profile's deadline for what it waits on,
// unless the step says why with a quote from the text (`why:`), and no scenario's hard limit
// is shorter than the windows its steps may use one after another. A kind whose window the
// protocol does not bound costs what its row imposes (step_kinds.hpp), so a new kind needs
// nothing here. Read in process from the scenario files and the profiles; the mutations below
// show that a tightened window is caught.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "harness/json/json.hpp"
#include "harness/protocol/profile.hpp"
#include "harness/protocol/registry.hpp"
#include "harness/run/runner.hpp"
#include "harness/scenario/model.hpp"
#include "harness/scenario/step_kinds.hpp"
#include "tests/command.hpp"

namespace fakehost {
namespace {

using scenario::Ms;
using scenario::Scenario;
using scenario::Step;

std::unique_ptr<protocol::Profile> LoadProfile(const std::string& name) {
  std::string error;
  auto profile = protocol::Profile::Load(protocol::ProfilePath(testing::SourceDir(), name), &error);
  EXPECT_TRUE(profile) << error;
  return profile;
}

std::vector<Scenario> LoadSuite(const std::string& name, const protocol::Profile& profile) {
  std::vector<Scenario> all;
  std::vector<std::string> errors;
  EXPECT_TRUE(run::LoadSuite(testing::SourceDir() + "/scenarios/" + name, profile, &all, &errors));
  for (const auto& e : errors) ADD_FAILURE() << e;
  return all;
}

/// The time a stop sequence gives before its first signal (the protocol's shutdown grace), and
/// the whole sequence.
Ms GraceOf(const std::vector<protocol::StopStepSpec>& seq, bool whole = false) {
  Ms total{0};
  for (const auto& s : seq) {
    if (!whole && s.kind == protocol::StopStepSpec::Kind::kSignal) break;
    // A write's cap is how long the host tries to hand over its goodbye, not time to exit.
    if (s.kind == protocol::StopStepSpec::Kind::kWait ||
        (whole && s.kind == protocol::StopStepSpec::Kind::kWrite))
      total += s.time;
  }
  return total;
}

/// A `why:` that quotes the text: it holds a quotation of three words or more, in double quotes
/// ("..." or “...”), not a word in apostrophes.
bool Quotes(const std::string& why) {
  auto has = [&](std::string_view open, std::string_view close) {
    for (std::size_t a = why.find(open); a != std::string::npos; a = why.find(open, a + 1)) {
      std::size_t b = why.find(close, a + open.size());
      if (b == std::string::npos) return false;
      std::string_view quoted = std::string_view(why).substr(a + open.size(), b - a - open.size());
      if (std::count(quoted.begin(), quoted.end(), ' ') >= 2) return true;
      a = b;
    }
    return false;
  };
  return has("\"", "\"") || has("“", "”");
}

// Walks one scenario's steps in order, as the player does, and names every window tighter
// than the protocol allows.
class WaitAudit {
 public:
  WaitAudit(const Scenario& s, const protocol::Profile& p) : s_(s), p_(p) {}

  std::vector<std::string> Problems() {
    limit_ = s_.timeout.count() ? s_.timeout : p_.scenario_timeout();
    deadline_ = limit_;
    Walk(s_.steps);
    if (now_ > deadline_)
      Add(s_.loc.line, "the hard limit of " + std::to_string(limit_.count()) +
                           " ms is shorter than the " + std::to_string(now_.count()) +
                           " ms its steps may take one after another");
    return problems_;
  }

 private:
  struct Named {
    std::string method;
    std::optional<Ms> deadline;  // a deadline_ms given as a number
    bool unknown = false;        // deadline_ms from a variable: decided when played
    bool answered = false;       // a reply_to step for it has been walked
    Ms sent_at{0};               // when it was sent, on the walk's worst-case clock
    Ms Deadline(const protocol::Profile& p) const {
      return deadline ? *deadline : p.DeadlineFor(method);
    }
  };

  // The longest deadline of a request still open: what the plugin sends on its own while it
  // serves them may come until then.
  Ms OpenDeadline() const {
    Ms longest{0};
    for (const auto& [name, n] : named_)
      if (!n.answered && !n.method.empty() && !n.unknown)
        longest = std::max(longest, n.Deadline(p_));
    return longest;
  }
  // When the last of those deadlines ends, on the worst-case clock.
  Ms OpenDeadlineEnd() const {
    Ms end{0};
    for (const auto& [name, n] : named_)
      if (!n.answered && !n.method.empty() && !n.unknown)
        end = std::max(end, n.sent_at + n.Deadline(p_));
    return end;
  }

  void Add(int line, const std::string& what) {
    problems_.push_back(s_.id + ".yaml:" + std::to_string(line) + ": " + what);
  }

  // A window shorter than the protocol's is allowed only at should level, from a plugin that
  // has shown it runs (counted from its first frame, or after an earlier answer), with a
  // reason that quotes the text.
  void Check(const Step& step, Ms window, Ms needed, const std::string& what,
             bool counted_from_readiness) {
    if (window >= needed) return;
    if (!step.why.empty() && Quotes(step.why) && step.level != result::Level::kMust &&
        counted_from_readiness)
      return;
    Add(step.loc.line, step.kind + " waits " + std::to_string(window.count()) + " ms for " + what +
                           ", whose deadline is " + std::to_string(needed.count()) +
                           " ms; lengthen it, or make it a should-level window counted from the "
                           "plugin's readiness that says why, quoting the text (why:)");
  }

  std::string TriggerMethod(const std::string& trigger) const {
    const protocol::TriggerSpec* t = p_.trigger(trigger);
    return t ? t->method : "";
  }

  // What a step's kind costs on the walk's worst-case clock, from its row (step_kinds.hpp):
  // a plugin that answers nothing, so an expect waits its whole window. The kinds whose windows
  // the protocol bounds are walked below; any other kind costs what its row says it imposes.
  static Ms Imposed(const Step& step) {
    scenario::CostModel worst;
    worst.held = true;
    const scenario::StepKindInfo& kind = scenario::KindOf(step);
    return Ms(kind.imposed_ms ? static_cast<Ms::rep>(kind.imposed_ms(step, worst)) : 0);
  }

  void Walk(const std::vector<Step>& steps) {
    for (const Step& step : steps) {
      Ms used = Imposed(step);
      if (const auto* send = std::get_if<scenario::Send>(&step.body))
        Sent(*send);
      else if (const auto* raw = std::get_if<scenario::SendRaw>(&step.body))
        for (const std::string& name : raw->as)
          named_[name] = Named{"", std::nullopt, true, false, now_};
      else if (const auto* expect = std::get_if<scenario::Expect>(&step.body))
        used = Expected(step, *expect);
      else if (const auto* none = std::get_if<scenario::ExpectNone>(&step.body))
        // An absence window only ever passes a plugin sooner; a barrier waits its deadline.
        used = none->barrier ? p_.DeadlineFor(p_.barrier_method()) : none->window;
      else if (const auto* exit = std::get_if<scenario::ExpectExit>(&step.body))
        used = ExitAwaited(step, *exit);
      else if (const auto* shutdown = std::get_if<scenario::Shutdown>(&step.body))
        used = ShutDown(step, *shutdown);
      else if (const auto* each = std::get_if<scenario::ForEach>(&step.body)) {
        // Once: each item gets the whole hard limit again (player.cpp), from its start.
        ReachedBy(step);
        deadline_ = std::max(deadline_, now_ + limit_);
        Walk(each->steps);
        used = Ms(0);
      }
      now_ += used;
    }
  }

  void Sent(const scenario::Send& send) {
    if (send.as.empty()) return;
    Named n;
    n.method = send.trigger.empty() ? send.method : TriggerMethod(send.trigger);
    if (send.deadline_ms) {
      if (send.deadline_ms->IsUint64())
        n.deadline = Ms(static_cast<Ms::rep>(send.deadline_ms->GetUint64()));
      else
        n.unknown = true;
    }
    n.sent_at = now_;
    named_[send.as] = n;
  }

  // The step ends, at worst, when its window ends; a reply's window counts from its request,
  // and a frame the plugin sends while it serves one may come until the last open deadline
  // (steps_expect.cpp).
  Ms Expected(const Step& step, const scenario::Expect& e) {
    std::optional<Ms> needed = p_.default_deadline();
    std::string what = "a frame the plugin starts";
    Ms end{0};
    if (e.filter.kind == scenario::Filter::Kind::kReplyTo) {
      Named& n = named_[e.filter.name];
      what = "the answer to " + (n.method.empty() ? e.filter.name : n.method);
      needed = n.unknown ? std::nullopt : std::optional<Ms>(n.Deadline(p_));
      n.answered = true;
      end = n.sent_at + (e.within.count() ? e.within : needed.value_or(Ms(0)));
    } else {
      if (Ms open = OpenDeadline(); open > *needed) {
        what = "a frame the plugin sends while it serves a request whose deadline is " +
               std::to_string(open.count()) + " ms";
        needed = open;
      }
      end = now_ + (e.within.count() ? e.within : p_.default_deadline());
      if (!e.within.count()) end = std::max(end, OpenDeadlineEnd());
    }
    if (e.within.count() && needed)
      Check(step, e.within, *needed, what, e.from_first_frame || ready_);
    ready_ = true;
    return std::max(Ms(0), end - now_);
  }

  // The text's shutdown grace, counted from a plugin that has shown it runs: before its first
  // frame, the startup deadline comes first.
  Ms ExitAwaited(const Step& step, const scenario::ExpectExit& exit) {
    Ms needed = GraceOf(*p_.StopSequence("default"));
    std::string what = "the exit (the shutdown grace)";
    if (!ready_) {
      needed += p_.DeadlineFor(p_.handshake_method());
      what = "the exit of a plugin not yet shown to run (startup deadline + shutdown grace)";
    }
    Check(step, exit.within, needed, what, ready_);
    return exit.within;
  }

  Ms ShutDown(const Step& step, const scenario::Shutdown& sd) {
    const auto* seq = p_.StopSequence(sd.sequence.empty() ? "default" : sd.sequence);
    if (seq && sd.grace.count()) Check(step, sd.grace, GraceOf(*seq), "the exit", ready_);
    return seq ? GraceOf(*seq, /*whole=*/true) : Ms(0);
  }

  const Scenario& s_;
  const protocol::Profile& p_;
  std::map<std::string, Named> named_;
  std::vector<std::string> problems_;
  bool ready_ = false;
  Ms now_{0};                  // the worst-case time since the spawn at the step being walked
  Ms limit_{0}, deadline_{0};  // the hard limit, and when it ends on the worst-case clock

  // The hard limit must not end before `step` can start.
  void ReachedBy(const Step& step) {
    if (now_ > deadline_)
      Add(step.loc.line, "the hard limit of " + std::to_string(limit_.count()) +
                             " ms ends before this step, which may start at " +
                             std::to_string(now_.count()) + " ms");
  }
};

std::vector<std::string> AuditSuite(const std::vector<Scenario>& suite,
                                    const protocol::Profile& profile) {
  std::vector<std::string> problems;
  for (const auto& s : suite)
    for (auto& p : WaitAudit(s, profile).Problems()) problems.push_back(std::move(p));
  return problems;
}

class Waits : public ::testing::TestWithParam<std::string> {};

TEST_P(Waits, NoWindowIsShorterThanTheProtocolAllows) {
  auto profile = LoadProfile(GetParam());
  ASSERT_TRUE(profile);
  std::vector<Scenario> suite = LoadSuite(GetParam(), *profile);
  ASSERT_FALSE(suite.empty());
  for (const auto& problem : AuditSuite(suite, *profile)) ADD_FAILURE() << problem;
}

// The audit is honest: every reply_to expectation of the suite, tightened to a millisecond
// under its deadline, is caught; the same window with a quoted reason is not.
TEST_P(Waits, ATightenedWindowIsCaught) {
  auto profile = LoadProfile(GetParam());
  ASSERT_TRUE(profile);
  std::vector<Scenario> suite = LoadSuite(GetParam(), *profile);
  int mutated = 0;
  for (Scenario& s : suite) {
    for (Step& step : s.steps) {
      auto* e = std::get_if<scenario::Expect>(&step.body);
      if (!e || e->filter.kind != scenario::Filter::Kind::kReplyTo) continue;
      std::size_t before = WaitAudit(s, *profile).Problems().size();
      if (e->within.count()) continue;
      // The window the player uses: the deadline of the request's method.
      Ms window{0};
      for (const Step& send : s.steps)
        if (const auto* sd = std::get_if<scenario::Send>(&send.body);
            sd && sd->as == e->filter.name && sd->trigger.empty() && !sd->deadline_ms)
          window = profile->DeadlineFor(sd->method);
      if (window.count() <= 1) continue;
      Ms saved = e->within;
      std::string saved_why = step.why;
      result::Level saved_level = step.level;
      e->within = window - Ms(1);
      step.why.clear();
      step.level = result::Level::kMust;
      EXPECT_EQ(WaitAudit(s, *profile).Problems().size(), before + 1)
          << s.id << ": a window of " << e->within.count() << " ms was not caught";
      step.why = "\"a quoted line of the text\"";
      EXPECT_EQ(WaitAudit(s, *profile).Problems().size(), before + 1)
          << s.id << ": a quoted reason does not excuse a must-level window";
      step.level = result::Level::kShould;
      bool saved_from = e->from_first_frame;
      e->from_first_frame = true;
      EXPECT_EQ(WaitAudit(s, *profile).Problems().size(), before) << s.id;
      step.why = "'a word'";
      EXPECT_EQ(WaitAudit(s, *profile).Problems().size(), before + 1)
          << s.id << ": a word in apostrophes is not a quotation of the text";
      step.level = saved_level;
      e->from_first_frame = saved_from;
      e->within = saved;
      step.why = saved_why;
      ++mutated;
    }
  }
  EXPECT_GT(mutated, 10);
}

// A frame the plugin sends on its own while it serves a request (a host call during a command)
// may come until that request's deadline: a window of the profile's default there is caught.
TEST_P(Waits, AWindowForAPluginsOwnFrameShorterThanTheRequestItServesIsCaught) {
  auto profile = LoadProfile(GetParam());
  ASSERT_TRUE(profile);
  std::vector<Scenario> suite = LoadSuite(GetParam(), *profile);
  int mutated = 0;
  for (Scenario& s : suite) {
    for (Step& step : s.steps) {
      auto* e = std::get_if<scenario::Expect>(&step.body);
      if (!e || e->filter.kind != scenario::Filter::Kind::kRequest || e->within.count()) continue;
      std::size_t before = WaitAudit(s, *profile).Problems().size();
      e->within = profile->default_deadline();
      std::size_t after = WaitAudit(s, *profile).Problems().size();
      e->within = Ms(0);
      if (after == before) continue;  // no request open there: the default is the window
      EXPECT_EQ(after, before + 1) << s.id;
      ++mutated;
    }
  }
  EXPECT_GE(mutated, 3) << "the host-call scenarios of a suite wait on a served request";
}

// An exit window shorter than the shutdown grace is caught; before the plugin has shown it
// runs, so is one shorter than startup plus grace.
TEST_P(Waits, ATightenedExitWindowIsCaught) {
  auto profile = LoadProfile(GetParam());
  ASSERT_TRUE(profile);
  std::vector<Scenario> suite = LoadSuite(GetParam(), *profile);
  int mutated = 0;
  for (Scenario& s : suite) {
    for (Step& step : s.steps) {
      auto* exit = std::get_if<scenario::ExpectExit>(&step.body);
      if (!exit || !step.why.empty()) continue;
      std::size_t before = WaitAudit(s, *profile).Problems().size();
      Ms saved = exit->within;
      exit->within = Ms(900);
      EXPECT_EQ(WaitAudit(s, *profile).Problems().size(), before + 1) << s.id;
      exit->within = saved;
      ++mutated;
    }
  }
  // MCP's legacy texts give a server no rule for exiting (the shutdown sentences bind the
  // client), so its suite waits on no exit.
  if (mutated == 0) GTEST_SKIP() << GetParam() << "'s suite has no expect_exit step";
}

// Every protocol of the source tree (protocol/registry.hpp), each with its standard suite.
INSTANTIATE_TEST_SUITE_P(EverySuite, Waits,
                         ::testing::ValuesIn(protocol::ProtocolNames(testing::SourceDir())),
                         [](const auto& param) {
                           std::string name = param.param;
                           for (char& c : name)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return name;
                         });

}  // namespace
}  // namespace fakehost
