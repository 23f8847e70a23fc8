#include "harness/report/synthetic_run.hpp"

#include <string>

namespace fakehost::report {

using result::Status;

namespace {

const char* const kSections[] = {"envelope", "framing", "handshake", "heartbeat", "shutdown"};

// Frame `f` of a handshake-then-heartbeats exchange: requests from the host, answers after.
result::TranscriptEntry SyntheticFrame(std::size_t f) {
  result::TranscriptEntry e;
  e.index = f;
  e.direction = f % 2 == 0 ? result::Direction::kHostToPlugin : result::Direction::kPluginToHost;
  e.t_ms = 1.0 + 0.7 * static_cast<double>(f);
  e.method = f < 2 ? "rim.handshake" : "rim.heartbeat";
  e.kind = f % 2 == 0 ? result::EntryKind::kRequest : result::EntryKind::kResponse;
  std::string id = std::to_string(f / 2 + 1);
  e.id = id;
  e.text =
      f % 2 == 0
          ? R"({"jsonrpc":"2.0","id":)" + id + R"(,"method":")" + e.method +
                R"(","params":{"protocolVersion":1,"supportedVersions":[1],"pluginId":"dev.fakehost.reference","hostVersion":"0.1.0"}})"
          : R"({"jsonrpc":"2.0","id":)" + id +
                R"(,"result":{"accepted":true,"protocolVersion":1,"capabilities":["ui","storage"],"pluginId":"dev.fakehost.reference"}})";
  e.size = e.text.size();
  e.schema_def = f % 2 == 0 ? "HandshakeRequest" : "HandshakeResult";
  return e;
}

// A failed, warned or errored scenario's failure, its last frame's violation, and its stderr.
void AddFailure(result::ScenarioResult& s, std::size_t frames) {
  std::size_t at = frames > 1 ? frames - 1 : 0;
  if (!s.transcript.empty())
    s.transcript[at].violations.push_back({"/result/pluginId", "does not match the manifest"});
  result::Failure f;
  f.level = s.status == Status::kWarn ? result::Level::kShould : result::Level::kMust;
  f.harness_error = s.status == Status::kError;
  f.check = "step";
  f.step = 2;
  f.step_kind = "expect";
  f.loc = {s.loc.file, 6, 5};
  f.message = f.harness_error ? "could not write to the plugin's stdin: EPIPE"
                              : "the reply's result.pluginId is not the manifest's id";
  f.expected = "\"dev.fakehost.reference\"";
  f.actual = "\"dev.fakehost.other\"";
  if (!s.transcript.empty()) f.frame = at;
  f.reason = f.harness_error ? result::Reason::kHarnessFault : result::Reason::kWrongContent;
  s.failures.push_back(std::move(f));
  s.stderr_tail = "starting\nlistening on stdin\nerror: something went wrong\n";
}

// Scenario `i`: its section, level and status cycle, so that every status and section shows.
result::ScenarioResult SyntheticScenario(std::size_t i, std::size_t frames) {
  const Status statuses[] = {Status::kPass, Status::kPass, Status::kPass, Status::kFail,
                             Status::kWarn, Status::kPass, Status::kSkip, Status::kError};
  result::ScenarioResult s;
  std::string n = std::to_string(i);
  s.id = std::string(kSections[i % 5]) + "/case-" +
         std::string(4 - std::min<std::size_t>(4, n.size()), '0') + n;
  s.title = "Synthetic scenario " + n;
  s.spec = "§7 Negotiation rules";
  s.requirement = "A plugin answers the handshake within 5 seconds with its own pluginId.";
  s.level = i % 4 == 0 ? result::Level::kShould : result::Level::kMust;
  s.tags = {kSections[i % 5], i % 2 ? "slow" : "fast"};
  s.loc = {"scenarios/rim-v1/" + s.id + ".yaml", 1, 1};
  s.status = statuses[i % 8];
  s.duration_ms = 10.0 + static_cast<double>(i % 17);
  s.steps_total = 4;
  s.steps_run = s.status == Status::kSkip ? 0 : 4;
  if (s.status == Status::kSkip) {
    s.skip_reason = "requires /capabilities/network";
    return s;
  }
  for (std::size_t f = 0; f < frames; ++f) s.transcript.push_back(SyntheticFrame(f));
  if (s.status == Status::kFail || s.status == Status::kWarn || s.status == Status::kError)
    AddFailure(s, frames);
  s.exit = {true, "exit code 0", 0, std::nullopt, 5.0 + 0.7 * static_cast<double>(frames), "",
            0,    false};
  return s;
}

}  // namespace

// A made-up run, every field a reporter reads filled.
result::RunReport SyntheticRun(std::size_t scenarios, std::size_t frames) {
  result::RunReport r;
  r.tool_version = "0.1.0";
  r.protocol = "rim-v1";
  r.protocol_title = "RIM plugin protocol v1";
  r.suite = "scenarios/rim-v1";
  r.started_at = "2025-01-01T00:00:00Z";
  r.jobs = 2;
  r.plugin = {
      "dev.fakehost.reference", "1.0.0", "fixtures/rim-v1/reference", {"reference"}, {}, {}};
  for (std::size_t i = 0; i < scenarios; ++i) r.scenarios.push_back(SyntheticScenario(i, frames));
  r.summary.duration_ms = 1234.5;
  result::Summarise(&r);
  return r;
}

}  // namespace fakehost::report
