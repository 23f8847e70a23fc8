// One cause, one block, on real plugins: a stray print in a length-prefixed plugin ends the
// connection and the step waiting for the handshake answer misses; a plugin that dies in the
// middle of a frame leaves that step waiting too. Each report shows the cause once with the step
// it broke, and the JSON keeps both failures, each with the typed reason the grouping reads
// (`reason`, result::Reason): no assertion here reads the session's, the interpreter's or the
// profile's wording. Across scenarios too: an MCP server's start-up banner that fails every
// scenario is one block and one annotation.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "harness/json/json.hpp"
#include "tests/command.hpp"

namespace fakehost::testing {
namespace {

struct Played {
  CommandResult command;
  std::string markdown, json, junit;
};

// `fixture` (under the fixture root) on one scenario, with annotations on as in a GitHub job
// whose workspace is the fixture root: the suite is outside it.
Played Play(const std::string& fixture, const std::string& only) {
  std::string dir = MakeTempDir();
  ::setenv("GITHUB_ACTIONS", "true", 1);
  ::setenv("GITHUB_WORKSPACE", FixturesDir().c_str(), 1);
  Played run;
  run.command =
      RunCommand({FakehostBin(), "run", "--plugin", FixturesDir() + "/" + fixture, "--only", only,
                  "--no-color", "--out", dir, "--report", "markdown=" + dir + "/report.md",
                  "--report", "junit=" + dir + "/report.xml"},
                 std::chrono::seconds(60));
  ::unsetenv("GITHUB_ACTIONS");
  ::unsetenv("GITHUB_WORKSPACE");
  run.markdown = ReadFile(dir + "/report.md");
  run.json = ReadFile(dir + "/report.json");
  run.junit = ReadFile(dir + "/report.xml");
  std::filesystem::remove_all(dir);
  return run;
}

std::size_t Count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

std::string Dump(const Played& r) {
  return "stdout:\n" + r.command.out + "\nstderr:\n" + r.command.err + "\nmarkdown:\n" + r.markdown;
}

// One failure of the JSON report, as the grouping sees it.
struct JsonFailure {
  std::string check, reason, message;
  std::optional<std::size_t> caused_by;
  std::uint64_t step = 0;
  std::string step_kind;
  int line = 0;  ///< of its location ("file:line:col"), 0 when it has none
};

// The line of a location "file:line:col".
int LineOf(const std::string& location) {
  const std::size_t col = location.rfind(':');
  const std::size_t line = col == std::string::npos ? col : location.rfind(':', col - 1);
  if (line == std::string::npos) return 0;
  return std::atoi(location.substr(line + 1, col - line - 1).c_str());
}

// The failures of the report's only scenario, and how its plugin ended.
std::vector<JsonFailure> Failures(const std::string& json, std::string* exit_description) {
  rapidjson::Document doc;
  std::vector<JsonFailure> out;
  if (!json::Parse(json, &doc).ok) return out;
  const rapidjson::Value* scenarios = json::Find(doc, "scenarios");
  if (!scenarios || !scenarios->IsArray() || scenarios->Size() != 1) return out;
  const rapidjson::Value& s = (*scenarios)[0];
  if (const rapidjson::Value* d = json::Resolve(s, "/exit/description"); d && d->IsString())
    *exit_description = d->GetString();
  for (const auto& f : json::Find(s, "failures")->GetArray()) {
    JsonFailure got;
    got.check = json::Find(f, "check")->GetString();
    got.reason = json::Find(f, "reason")->GetString();
    got.message = json::Find(f, "message")->GetString();
    if (const rapidjson::Value* c = json::Find(f, "caused_by")) got.caused_by = c->GetUint64();
    if (const rapidjson::Value* n = json::Find(f, "step")) got.step = n->GetUint64();
    if (const rapidjson::Value* k = json::Find(f, "step_kind")) got.step_kind = k->GetString();
    if (const rapidjson::Value* at = json::Find(f, "location")) got.line = LineOf(at->GetString());
    out.push_back(std::move(got));
  }
  return out;
}

// The start of a message as an annotation quotes it (before anything it escapes).
std::string Start(const std::string& message) {
  return message.substr(0, std::min<std::size_t>(message.find_first_of("%\r\n"), 40));
}

// The step every format names as the one the cause broke ("step 2 expect (line 20)"): the
// scenario's second step, the expect of the handshake's answer, written on line 20.
void ExpectTheHandshakeAnswerStep(const JsonFailure& f) {
  EXPECT_EQ(f.step, 2u);
  EXPECT_EQ(f.step_kind, "expect");
  EXPECT_EQ(f.line, 20);
}

TEST(StrayStdoutReport, ShowsTheFramingErrorOnceWithTheStepItBroke) {
  Played r = Play("rim-v1/broken/stray-stdout", "handshake/accepts-offered-version");
  ASSERT_EQ(r.command.exit_code, 1) << Dump(r);
  // JSON: both failures, the step (reason framing-lost) naming the framing check that ended the
  // connection (listed after it, reason framing-lost too) as its cause.
  std::string exit;
  std::vector<JsonFailure> failures = Failures(r.json, &exit);
  ASSERT_EQ(failures.size(), 2u) << r.json;
  EXPECT_EQ(failures[0].check, "step");
  EXPECT_EQ(failures[0].reason, "framing-lost");
  EXPECT_EQ(failures[0].caused_by, 1u);
  ExpectTheHandshakeAnswerStep(failures[0]);
  EXPECT_EQ(failures[1].check, "framing");
  EXPECT_EQ(failures[1].reason, "framing-lost");
  EXPECT_EQ(failures[1].caused_by, std::nullopt);
  // Markdown: one cause block (one bullet), the framing error, the broken step listed under it.
  EXPECT_EQ(Count(r.markdown, "\n- **"), 1u) << Dump(r);
  EXPECT_NE(r.markdown.find("- **must** `framing: "), std::string::npos) << Dump(r);
  EXPECT_NE(r.markdown.find("  - caused: `step 2 expect (line 20)`"), std::string::npos) << Dump(r);
  // Console: the same.
  EXPECT_EQ(Count(r.command.out, "  ✗ "), 1u) << Dump(r);
  EXPECT_NE(r.command.out.find("      caused: step 2 expect (line 20)"), std::string::npos)
      << Dump(r);
  // JUnit: the failure is the framing error.
  EXPECT_NE(r.junit.find("<failure message=\"framing: " + Start(failures[1].message)),
            std::string::npos)
      << r.junit;
  // One annotation, with the cause's explanation, and no file outside the workspace.
  EXPECT_EQ(Count(r.command.out, "::error "), 1u) << Dump(r);
  std::size_t at = r.command.out.find("::error ");
  ASSERT_NE(at, std::string::npos);
  std::string annotation = r.command.out.substr(at, r.command.out.find('\n', at) - at);
  EXPECT_EQ(annotation.rfind("::error title=fakehost FAIL handshake/accepts-offered-version::", 0),
            0u)
      << annotation;
  EXPECT_NE(annotation.find(Start(failures[1].message)), std::string::npos) << annotation;
  EXPECT_NE(annotation.find("%0Acaused: step 2 expect (line 20)"), std::string::npos) << annotation;
}

TEST(StrayStdoutReport, ShowsAPluginThatDiedInAFrameOnceWithTheStepItBroke) {
  Played r = Play("rim-v1/hostile/dies-mid-frame", "handshake/accepts-offered-version");
  ASSERT_EQ(r.command.exit_code, 1) << Dump(r);
  std::string exit;
  std::vector<JsonFailure> failures = Failures(r.json, &exit);
  ASSERT_EQ(failures.size(), 2u) << r.json;
  EXPECT_EQ(failures[0].check, "step");
  // Which the session sees first, the exit or the end of stdout, is a race: either is the cause.
  EXPECT_TRUE(failures[0].reason == "plugin-exited" || failures[0].reason == "stdout-closed")
      << failures[0].reason;
  EXPECT_EQ(failures[0].caused_by, 1u);
  ExpectTheHandshakeAnswerStep(failures[0]);
  EXPECT_EQ(failures[1].check, "framing");
  EXPECT_EQ(failures[1].reason, "cut-short");
  EXPECT_EQ(Count(r.markdown, "\n- **"), 1u) << Dump(r);
  EXPECT_NE(r.markdown.find("- **must** `framing: "), std::string::npos) << Dump(r);
  EXPECT_NE(r.markdown.find("  - caused: `step 2 expect (line 20)`"), std::string::npos) << Dump(r);
  ASSERT_FALSE(exit.empty()) << r.json;
  EXPECT_NE(r.command.out.find("%0Aplugin: " + exit), std::string::npos) << Dump(r);
}

// The text of the frame each root of the shared cause points at, which must be one line for
// all (the banner), with the frame numbers it was seen at; "" if there are no roots.
std::string BannerOfEveryRoot(const rapidjson::Value& scenarios, const rapidjson::Value& roots,
                              std::vector<std::size_t>* frames) {
  std::string banner;
  for (const auto& root : roots.GetArray()) {
    const rapidjson::Value& s = scenarios[json::Find(root, "scenario")->GetUint()];
    const rapidjson::Value& f =
        (*json::Find(s, "failures"))[json::Find(root, "failure")->GetUint()];
    EXPECT_EQ(std::string(json::Find(f, "reason")->GetString()), "not-a-message");
    std::size_t frame = json::Find(f, "frame")->GetUint64();
    frames->push_back(frame);
    std::string text =
        json::Find((*json::Find(s, "transcript"))[static_cast<rapidjson::SizeType>(frame)], "text")
            ->GetString();
    if (banner.empty()) banner = text;
    EXPECT_EQ(text, banner);
  }
  return banner;
}

// Console: one block, the banner quoted once; each scenario's entry names the block. And one
// annotation, for the cause, naming the banner.
void ExpectOneConsoleBlockAndAnnotation(const Played& r, const std::string& banner,
                                        std::size_t failed) {
  const std::string n = std::to_string(failed);
  EXPECT_EQ(Count(r.command.out, "\nFAIL cause "), 1u) << Dump(r);
  EXPECT_EQ(Count(r.command.out, "\nFAIL cause 1 — one failure in " + n + " scenarios\n"), 1u)
      << Dump(r);
  std::string console = r.command.out.substr(0, r.command.out.find("\n::"));  // annotations last
  EXPECT_EQ(Count(console, banner), 1u) << Dump(r);
  EXPECT_EQ(Count(r.command.out, ": cause 1 above (" + n + " scenarios)\n"), failed) << Dump(r);
  EXPECT_EQ(Count(r.command.out, "  frames:\n"), 0u) << Dump(r);
  EXPECT_EQ(Count(r.command.out, "::error "), 1u) << Dump(r);
  std::size_t at = r.command.out.find("::error ");
  ASSERT_NE(at, std::string::npos);
  std::string annotation = r.command.out.substr(at, r.command.out.find('\n', at) - at);
  EXPECT_EQ(annotation.rfind("::error title=fakehost FAIL " + n + " scenarios%2C one cause::", 0),
            0u)
      << annotation;
  EXPECT_NE(annotation.find(banner), std::string::npos) << annotation;
  EXPECT_NE(annotation.find("%0Ain " + n + " scenarios: lifecycle/"), std::string::npos)
      << annotation;
}

// An MCP server that prints a start-up banner on stdout before its first message fails every
// legacy scenario with the same not-json line, mostly as frame #1, as frame #2 where the host
// wrote two requests first. That is one cause: one block naming the scenarios, each scenario's
// entry naming the block, one annotation; the JSON keeps every failure and lists the cause.
TEST(BannerReport, ShowsOneCauseForTheBannerThatFailedEveryScenario) {
  Played r = Play("mcp-stdio/broken/stray-stdout", "lifecycle/*");
  ASSERT_EQ(r.command.exit_code, 1) << Dump(r);
  rapidjson::Document doc;
  ASSERT_TRUE(json::Parse(r.json, &doc).ok) << r.json;
  const rapidjson::Value& scenarios = *json::Find(doc, "scenarios");
  std::size_t failed = 0;
  for (const auto& s : scenarios.GetArray())
    if (std::string(json::Find(s, "status")->GetString()) == "fail") {
      ++failed;
      EXPECT_EQ(json::Find(s, "failures")->Size(), 1u) << json::Find(s, "id")->GetString();
    }
  ASSERT_GE(failed, 2u) << Dump(r);
  const rapidjson::Value* shared = json::Find(doc, "shared_causes");
  ASSERT_TRUE(shared && shared->IsArray()) << r.json;
  ASSERT_EQ(shared->Size(), 1u) << r.json;
  const rapidjson::Value& roots = *json::Find((*shared)[0], "roots");
  ASSERT_EQ(roots.Size(), failed);
  std::vector<std::size_t> frames;
  const std::string banner = BannerOfEveryRoot(scenarios, roots, &frames);
  ASSERT_FALSE(banner.empty());
  // The same line at another frame number is the same cause.
  std::sort(frames.begin(), frames.end());
  EXPECT_NE(frames.front(), frames.back()) << "no scenario saw the banner at another frame";
  ASSERT_NO_FATAL_FAILURE(ExpectOneConsoleBlockAndAnnotation(r, banner, failed));
  // Markdown: one block before the scenarios, which name it.
  const std::string n = std::to_string(failed);
  EXPECT_EQ(Count(r.markdown, "### Causes shared by several scenarios (1)"), 1u) << r.markdown;
  EXPECT_EQ(Count(r.markdown, "cause 1 — one failure in " + n + " scenarios"), 1u) << r.markdown;
  EXPECT_LT(r.markdown.find("### Causes shared"), r.markdown.find("### Failures and errors"));
  EXPECT_EQ(Count(r.markdown, "cause 1 above (" + n + " scenarios)`"), failed) << r.markdown;
}

}  // namespace
}  // namespace fakehost::testing
