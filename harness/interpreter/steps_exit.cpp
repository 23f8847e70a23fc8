// Steps about the plugin process: expect_exit and shutdown.
#include "harness/interpreter/player.hpp"

#include "harness/os/signals.hpp"

namespace fakehost::interpreter {

bool Player::DoExpectExit(const Step& step, const ExpectExit& expect) {
  Checked(step);
  Clock::time_point wanted = Clock::now() + expect.within;
  session_.RunUntil([&] { return session_.exited() || Interrupted(); }, Deadline(wanted));
  if (!session_.exited()) {
    if (Interrupted()) return false;
    if (HitHardLimit(wanted))
      return Miss(step, Reason::kHardLimit,
                  HardLimitText() + " while waiting for the plugin to exit");
    return Miss(step, Reason::kDeadlinePassed,
                "the plugin was still running " + MsText(expect.within) + " later",
                "exit within " + MsText(expect.within), "still running");
  }
  const process::ExitStatus& st = *session_.exit_status();
  if (expect.code && st.code != expect.code)
    return Miss(step, Reason::kWrongExit,
                "the plugin " + st.Describe() + ", not with code " + std::to_string(*expect.code),
                "exit code " + std::to_string(*expect.code), st.Describe());
  if (expect.signal && st.signal != expect.signal)
    return Miss(step, Reason::kWrongExit,
                "the plugin " + st.Describe() + ", not by " + os::SignalName(*expect.signal),
                "killed by " + os::SignalName(*expect.signal), st.Describe());
  return true;
}

bool Player::DoShutdown(const Step& step, const Shutdown& shutdown) {
  Checked(step);
  std::string name = shutdown.sequence.empty() ? "default" : shutdown.sequence;
  const auto* seq = profile_.StopSequence(name);
  if (!seq) return ScenarioBug(step, "the profile has no stop sequence '" + name + "'");
  std::size_t first_signal = seq->size();
  for (std::size_t i = 0; i < seq->size(); ++i)
    if ((*seq)[i].kind == protocol::StopStepSpec::Kind::kSignal) {
      first_signal = i;
      break;
    }
  process::StopResult r = session_.Stop(*seq);
  stopped_ = true;
  result_.exit.graded = true;
  result_.exit.stop_stage = r.exited_before ? "before the stop sequence" : r.stage_label;
  result_.exit.stop_ms = static_cast<double>(r.elapsed.count());
  if (!r.exited)
    return Miss(step, Reason::kWrongExit,
                "the plugin was still running after the whole stop sequence, SIGKILL "
                "included");
  if (r.exited_before)
    return Miss(step, Reason::kPluginExited,
                "the plugin had already exited (" + r.status.Describe() +
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
    return Miss(step, Reason::kWrongExit,
                "the plugin did not exit within the " + grace + " grace after " + first + "; " +
                    how + " (" + r.status.Describe() + " " + MsText(r.elapsed) + " after " + first +
                    ")",
                "exit within " + grace + " of " + first,
                "needed " + os::SignalName(needed) + ", exited after " + MsText(r.elapsed));
  }
  if (shutdown.grace.count() > 0 && r.elapsed > shutdown.grace)
    return Miss(step, Reason::kWrongExit,
                "the plugin took " + MsText(r.elapsed) + " to exit after " + first,
                "exit within " + MsText(shutdown.grace), MsText(r.elapsed));
  return true;
}

}  // namespace fakehost::interpreter
