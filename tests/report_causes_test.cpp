// One cause, one block, on real plugins: a stray print in a length-prefixed plugin ends the
// connection and the step waiting for the handshake answer misses; a plugin that dies in the
// middle of a frame leaves that step waiting too. Each report shows the cause once with the step
// it broke, and the JSON keeps both failures. This also pins the session's and the
// interpreter's wording that harness/report/causes.cpp reads.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

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

TEST(StrayStdoutReport, ShowsTheFramingErrorOnceWithTheStepItBroke) {
  Played r = Play("rim-v1/broken/stray-stdout", "handshake/accepts-offered-version");
  ASSERT_EQ(r.command.exit_code, 1) << Dump(r);
  // Markdown: one cause block (one bullet), the framing error, the broken step listed under it.
  EXPECT_EQ(Count(r.markdown, "\n- **"), 1u) << Dump(r);
  EXPECT_NE(r.markdown.find("- **must** framing: frame \\#1 announces"), std::string::npos)
      << Dump(r);
  EXPECT_NE(r.markdown.find("something printed to stdout"), std::string::npos) << Dump(r);
  EXPECT_NE(r.markdown.find("  - caused: step 2 expect \\(line 20\\)"), std::string::npos)
      << Dump(r);
  // Console: the same.
  EXPECT_EQ(Count(r.command.out, "  ✗ "), 1u) << Dump(r);
  EXPECT_NE(r.command.out.find("      caused: step 2 expect (line 20)"), std::string::npos)
      << Dump(r);
  // JUnit: the failure is the framing error.
  EXPECT_NE(r.junit.find("<failure message=\"framing: frame #1 announces"), std::string::npos)
      << r.junit;
  // JSON: both failures, the step naming the framing check (listed after it) as its cause.
  EXPECT_NE(r.json.find("the framing was lost"), std::string::npos) << r.json;
  EXPECT_EQ(Count(r.json, "\"caused_by\":1"), 1u) << r.json;
  // One annotation, with the explanation, and no file outside the workspace.
  EXPECT_EQ(Count(r.command.out, "::error "), 1u) << Dump(r);
  std::size_t at = r.command.out.find("::error ");
  ASSERT_NE(at, std::string::npos);
  std::string annotation = r.command.out.substr(at, r.command.out.find('\n', at) - at);
  EXPECT_EQ(annotation.rfind("::error title=fakehost FAIL handshake/accepts-offered-version::", 0),
            0u)
      << annotation;
  EXPECT_NE(annotation.find("something printed to stdout"), std::string::npos) << annotation;
  EXPECT_NE(annotation.find("%0Acaused: step 2 expect (line 20)"), std::string::npos) << annotation;
}

TEST(StrayStdoutReport, ShowsAPluginThatDiedInAFrameOnceWithTheStepItBroke) {
  Played r = Play("rim-v1/hostile/dies-mid-frame", "handshake/accepts-offered-version");
  ASSERT_EQ(r.command.exit_code, 1) << Dump(r);
  EXPECT_EQ(Count(r.markdown, "\n- **"), 1u) << Dump(r);
  EXPECT_NE(r.markdown.find("- **must** framing: stdout ended inside frame \\#1"),
            std::string::npos)
      << Dump(r);
  EXPECT_NE(r.markdown.find("  - caused: step 2 expect \\(line 20\\)"), std::string::npos)
      << Dump(r);
  // Which the session sees first, the exit or the end of stdout, is a race: either is the cause.
  EXPECT_TRUE(r.json.find("the plugin exited (") != std::string::npos ||
              r.json.find("the plugin closed its stdout") != std::string::npos)
      << r.json;
  EXPECT_EQ(Count(r.json, "\"caused_by\":1"), 1u) << r.json;
  EXPECT_NE(r.command.out.find("%0Aplugin: exit code"), std::string::npos) << Dump(r);
}

}  // namespace
}  // namespace fakehost::testing
