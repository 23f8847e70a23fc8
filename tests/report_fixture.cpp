#include "tests/report_fixture.hpp"

#include <gtest/gtest.h>

#include <regex>

namespace fakehost::testing {

using result::Direction;
using result::Level;
using result::Status;

namespace {

result::TranscriptEntry Frame(std::size_t i, Direction d, double t, std::string kind,
                              std::string method, std::string id, std::string text) {
  result::TranscriptEntry e;
  e.index = i;
  e.direction = d;
  e.t_ms = t;
  EXPECT_TRUE(result::ParseEntryKind(kind, &e.kind)) << kind;
  e.method = std::move(method);
  e.id = std::move(id);
  e.size = text.size();
  e.text = std::move(text);
  if (e.kind != result::EntryKind::kRaw && e.kind != result::EntryKind::kNotJson)
    e.schema_def = "Frame";
  return e;
}

result::ScenarioResult Base(const std::string& id, const std::string& title, Status status) {
  result::ScenarioResult r;
  r.id = id;
  r.title = title;
  r.spec = "§7 Negotiation rules";
  r.requirement = "A plugin answers rim.handshake with its own pluginId.";
  r.tags = {id.substr(0, id.find('/'))};
  r.loc = {std::string(kGoldenRoot) + "/scenarios/rim-v1/" + id + ".yaml", 1, 1};
  r.status = status;
  r.duration_ms = 21.5;
  r.steps_total = 3;
  r.steps_run = status == Status::kSkip || status == Status::kNotRun ? 0 : 3;
  return r;
}

void Handshake(result::ScenarioResult* r, const std::string& plugin_id) {
  r->transcript.push_back(
      Frame(0, Direction::kHostToPlugin, 1.1, "request", "rim.handshake", "1",
            R"({"jsonrpc":"2.0","id":1,"method":"rim.handshake","params":{"protocolVersion":1}})"));
  r->transcript.push_back(Frame(
      1, Direction::kPluginToHost, 2.0, "response", "rim.handshake", "1",
      R"({"jsonrpc":"2.0","id":1,"result":{"accepted":true,"pluginId":")" + plugin_id + R"("}})"));
  r->exit = {true, "exit code 0", 0, std::nullopt, 9.5, "close-stdin", 3.2, false};
}

result::Failure Miss(Level level, std::size_t step, int line, std::string message) {
  result::Failure f;
  f.level = level;
  f.check = "step";
  f.step = step;
  f.step_kind = "expect";
  f.loc = {"", line, 5};
  f.message = std::move(message);
  return f;
}

}  // namespace

std::string HostileText() {
  return std::string(
             "</script><script>document.title='PWNED';document.body.appendChild("
             "document.createElement('pwned'))</script><!-- ]]> ]]]]><![CDATA[ \"q\" 'a' &amp; "
             "<img src=x onerror=\"document.title='PWNED2'\"> % 50%25 a:b,c ") +
         "\x01\x08\x0b\x1b[31m\x7f \r\n" + "\xff\xfe\xc0\xaf \xed\xa0\x80 \xef\xbf\xbe " +
         "**bold** _it_ [link](javascript:alert(1)) `code` ``` $x$ @here\n# heading\n" +
         "::error::injected\n  ::add-mask::secret\n\xc2\xa0::stop-commands::tok\n" +
         "mid-line ##[stop-commands]tok \x1b]52;c;cHduZWQ=\x07\x07 ok\rPASS\n" +
         "<details open><summary>x</summary> https://e… www.example.com https://1572395042/login "
         "http://localhost:8080/x user@example.com @scope/server @octocat ![i](x.png) "
         "<https://a.b>";
}

namespace {

// A text field's ordinary value or, when a hostile text is given, that text instead.
struct Texts {
  const std::string& hostile;
  std::string operator()(const std::string& ordinary) const {
    return hostile.empty() ? ordinary : hostile;
  }
};

result::ScenarioResult Passed() {
  auto pass = Base("envelope/null-id-gets-no-answer", "A null id gets no answer", Status::kPass);
  Handshake(&pass, "dev.fakehost.reference");
  return pass;
}

// A MUST missed on a frame's content, and stray bytes on stdout that are no frame.
result::ScenarioResult Failed(const std::string& hostile) {
  const Texts h{hostile};
  auto fail = Base("handshake/accepts-offered-version", h("Accepts a version it was offered"),
                   Status::kFail);
  fail.spec = h(fail.spec);
  fail.requirement = h(fail.requirement);
  fail.tags = {"handshake", h("identity")};
  Handshake(&fail, hostile.empty() ? "dev.fakehost.other" : "x");
  fail.transcript[1].violations.push_back({"/result/pluginId", h("must equal the manifest's id")});
  fail.transcript[1].notes.push_back(h("answers #0 after 0.9 ms"));
  fail.transcript.push_back(
      Frame(2, Direction::kPluginToHost, 2.4, "not-json", "", "", h("stray text on stdout")));
  fail.transcript.push_back(Frame(3, Direction::kPluginToHost, 2.6, "response", h("rim.handshake"),
                                  hostile.empty() ? "\"7\"" : "{\"a\":\"</script>\"}",
                                  h(R"({"jsonrpc":"2.0","id":"7","result":{}})")));
  auto m = Miss(Level::kMust, 2, 9, h("result.pluginId is not the manifest's id"));
  m.loc.file = fail.loc.file;
  m.expected = h("\"dev.fakehost.reference\"");
  m.actual = h("\"dev.fakehost.other\"");
  m.frame = 1;
  m.reason = result::Reason::kWrongContent;
  fail.failures.push_back(m);
  result::Failure stray;
  stray.check = "stray-stdout";
  stray.message = hostile.empty() ? "bytes on stdout that are not a frame (§3)"
                                  : hostile + std::string(1 << 20, 'M');
  stray.frame = 2;
  stray.reason = result::Reason::kNotAMessage;
  fail.failures.push_back(stray);
  fail.stderr_tail = h("loading manifest\nwarning: id mismatch\n");
  fail.exit = {true, h("exit code 3"), 3, std::nullopt, 12.0, "", 0, false};
  return fail;
}

// A SHOULD missed: the plugin outlived its refusal and was killed.
result::ScenarioResult Warned(const std::string& hostile) {
  const Texts h{hostile};
  auto warn =
      Base("handshake/refuses-unoffered-version", "Refuses an unoffered version", Status::kWarn);
  warn.level = Level::kMust;
  Handshake(&warn, "dev.fakehost.reference");
  auto w = Miss(Level::kShould, 3, 17, h("the plugin did not exit within 1000 ms of refusing"));
  w.loc.file = warn.loc.file;
  w.reason = result::Reason::kDeadlinePassed;
  warn.failures.push_back(w);
  warn.exit = {true, "killed by SIGTERM", std::nullopt, 15, 1011.0, "SIGTERM", 1002.0, true};
  return warn;
}

// The harness's own fault: a write to the plugin's stdin failed.
result::ScenarioResult Errored(const std::string& hostile) {
  const Texts h{hostile};
  auto error =
      Base("heartbeat/answers-within-5s", "Answers a heartbeat within 5 s", Status::kError);
  error.transcript.push_back(
      Frame(0, Direction::kHostToPlugin, 0.8, "raw", "", "", std::string("\x00\x00\x10\x00", 4)));
  result::Failure e;
  e.harness_error = true;
  e.reason = result::Reason::kHarnessFault;
  e.check = "harness";
  e.message = h("cannot write to the plugin's stdin: Broken pipe");
  error.failures.push_back(e);
  error.exit = {false, "", std::nullopt, std::nullopt, 0, "SIGKILL", 0, false};
  return error;
}

result::ScenarioResult Skipped(const std::string& hostile) {
  const Texts h{hostile};
  auto skip = Base("shutdown/acknowledges-in-time", "Acknowledges shutdown", Status::kSkip);
  skip.skip_reason = h("requires /capabilities/shutdown-ack (absent from the manifest)");
  skip.duration_ms = 0;
  return skip;
}

result::ScenarioResult NotRun() {
  auto not_run = Base("shutdown/exits-promptly", "Exits within a second", Status::kNotRun);
  not_run.skip_reason = "interrupted";
  not_run.duration_ms = 0;
  return not_run;
}

}  // namespace

// One result per status, every field a reporter reads, built in the open.
result::RunReport ReportFixture(const std::string& hostile) {
  const Texts h{hostile};
  result::RunReport report;
  report.tool_version = "0.1.0";
  report.protocol = "rim-v1";
  report.protocol_title = "RIM plugin protocol v1";
  report.suite = std::string(kGoldenRoot) + "/scenarios/rim-v1";
  report.started_at = "2025-06-01T12:00:00Z";
  report.jobs = 2;
  report.plugin = {h("dev.fakehost.reference"),
                   h("1.0.0"),
                   std::string(kGoldenRoot) + "/fixtures/rim-v1/reference",
                   {std::string(kGoldenRoot) + "/fixtures/rim-v1/reference/plugin"},
                   {},
                   {}};
  report.scenarios.push_back(Passed());
  report.scenarios.push_back(Failed(hostile));
  report.scenarios.push_back(Warned(hostile));
  report.scenarios.push_back(Errored(hostile));
  report.scenarios.push_back(Skipped(hostile));
  report.scenarios.push_back(NotRun());
  report.summary.duration_ms = 1053.25;
  result::Summarise(&report);
  return report;
}

std::string Masked(std::string text) {
  static const std::regex kSeconds(R"(time="[0-9]+\.[0-9]{3}")");
  static const std::regex kMsFields(R"re("(duration_ms|t_ms|at_ms|stop_ms|t)":[0-9.eE+-]+)re");
  static const std::regex kStamp(R"([0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z)");
  static const std::regex kDuration(R"(\b[0-9]+(\.[0-9]+)? (ms|s)\b)");
  text = std::regex_replace(text, kSeconds, "time=\"#\"");
  text = std::regex_replace(text, kMsFields, "\"$1\":#");
  text = std::regex_replace(text, kStamp, "#TIMESTAMP#");
  text = std::regex_replace(text, kDuration, "# $2");
  // The root as written, and as Markdown escapes it ('-' becomes "\\-").
  for (std::string root : {std::string(kGoldenRoot), std::string("/golden\\-root")})
    for (std::size_t at; (at = text.find(root)) != std::string::npos;)
      text.replace(at, root.size(), "<ROOT>");
  return text;
}

}  // namespace fakehost::testing
