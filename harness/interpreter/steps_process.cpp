// Steps about the plugin process and the time between frames: close_stdin, kill_parent, signal,
// sleep, expect_exit and shutdown.

#include "harness/interpreter/step_context.hpp"
#include "harness/interpreter/steps.hpp"
#include "harness/os/signals.hpp"
#include "harness/protocol/profile.hpp"
#include "harness/session/session.hpp"

namespace fakehost::interpreter {

bool PlayStep(StepContext& ctx, const CloseStdin&) {
  ctx.session.CloseStdin();
  return true;
}

bool PlayStep(StepContext& ctx, const KillParent&) {
  ctx.stand_in.Kill();
  return true;
}

bool PlayStep(StepContext& ctx, const Signal& signal) {
  ctx.session.SignalGroup(signal.signal);
  return true;
}

bool PlayStep(StepContext& ctx, const Sleep& sleep) {
  ctx.session.RunUntil([&ctx] { return ctx.Interrupted(); },
                       ctx.limit.Cap(Clock::now() + sleep.duration));
  return true;
}

bool PlayStep(StepContext& ctx, const ExpectExit& expect) {
  ctx.Checked();
  Clock::time_point wanted = Clock::now() + expect.within;
  ctx.session.RunUntil([&] { return ctx.session.exited() || ctx.Interrupted(); },
                       ctx.limit.Cap(wanted));
  if (!ctx.session.exited()) {
    if (ctx.Interrupted()) return false;
    if (ctx.limit.Hit(wanted))
      return ctx.Miss(Reason::kHardLimit,
                      ctx.limit.Text() + " while waiting for the plugin to exit");
    return ctx.Miss(Reason::kDeadlinePassed,
                    "the plugin was still running " + MsText(expect.within) + " later",
                    "exit within " + MsText(expect.within), "still running");
  }
  const process::ExitStatus& st = *ctx.session.exit_status();
  if (expect.code && st.code != expect.code)
    return ctx.Miss(
        Reason::kWrongExit,
        "the plugin " + st.Describe() + ", not with code " + std::to_string(*expect.code),
        "exit code " + std::to_string(*expect.code), st.Describe());
  if (expect.signal && st.signal != expect.signal)
    return ctx.Miss(Reason::kWrongExit,
                    "the plugin " + st.Describe() + ", not by " + os::SignalName(*expect.signal),
                    "killed by " + os::SignalName(*expect.signal), st.Describe());
  return true;
}

// The stop sequence graded: the exit it took is the result's, and the teardown is not needed.
bool PlayStep(StepContext& ctx, const Shutdown& shutdown) {
  ctx.Checked();
  std::string name = shutdown.sequence.empty() ? "default" : shutdown.sequence;
  const auto* seq = ctx.profile.StopSequence(name);
  if (!seq) return ctx.ScenarioBug("the profile has no stop sequence '" + name + "'");
  std::size_t first_signal = seq->size();
  for (std::size_t i = 0; i < seq->size(); ++i)
    if ((*seq)[i].kind == protocol::StopStepSpec::Kind::kSignal) {
      first_signal = i;
      break;
    }
  process::StopResult r = ctx.session.Stop(*seq);
  ctx.result.exit.graded = true;
  ctx.result.exit.stop_stage = r.exited_before ? "before the stop sequence" : r.stage_label;
  ctx.result.exit.stop_ms = static_cast<double>(r.elapsed.count());
  if (!r.exited)
    return ctx.Miss(Reason::kWrongExit,
                    "the plugin was still running after the whole stop sequence, SIGKILL "
                    "included");
  if (r.exited_before)
    return ctx.Miss(Reason::kPluginExited, "the plugin had already exited (" + r.status.Describe() +
                                               ") before the stop sequence began");
  std::string first = seq->empty() ? "the stop" : (*seq)[0].label;
  if (r.stage >= first_signal) {
    int needed = 0;
    for (std::size_t i = first_signal; i <= r.stage && i < seq->size(); ++i)
      if ((*seq)[i].kind == protocol::StopStepSpec::Kind::kSignal) needed = (*seq)[i].signal;
    std::string grace;
    for (std::size_t i = 0; i < first_signal; ++i)
      if ((*seq)[i].kind == protocol::StopStepSpec::Kind::kWait) grace = MsText((*seq)[i].time);
    std::string how = needed == SIGKILL ? "it ignored SIGTERM as well and was killed with SIGKILL"
                                        : "it needed " + os::SignalName(needed);
    return ctx.Miss(Reason::kWrongExit,
                    "the plugin did not exit within the " + grace + " grace after " + first + "; " +
                        how + " (" + r.status.Describe() + " " + MsText(r.elapsed) + " after " +
                        first + ")",
                    "exit within " + grace + " of " + first,
                    "needed " + os::SignalName(needed) + ", exited after " + MsText(r.elapsed));
  }
  if (shutdown.grace.count() > 0 && r.elapsed > shutdown.grace)
    return ctx.Miss(Reason::kWrongExit,
                    "the plugin took " + MsText(r.elapsed) + " to exit after " + first,
                    "exit within " + MsText(shutdown.grace), MsText(r.elapsed));
  return true;
}

}  // namespace fakehost::interpreter
