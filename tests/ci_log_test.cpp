// Nothing a plugin or an input file prints can act (issue 20, item 1). A GitHub runner acts on
// a line that starts, after blanks, with "::" and on "##[" anywhere in a line; a terminal on
// escape sequences, BEL and CR. A hostile plugin (fixtures/flash-v1/hostile/ci-commands) writes
// all of that on stderr, in a method name and in an id; a shard report carries it in titles,
// reasons and checks; a transcript in a field an error quotes. Each output is read as the runner
// reads it (lines end at \n or \r), and only fakehost's own annotations may be commands.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>

#include "harness/json/json.hpp"
#include "tests/command.hpp"

namespace fakehost::testing {
namespace {

namespace fs = std::filesystem;

const std::string kFixture = "flash-v1/hostile/ci-commands";
const std::string kScenario = "initialize/answers-within-startup";

// The blanks .NET's TrimStart removes that fakehost could print (ASCII space and tab, U+00A0,
// U+2000..U+200A, U+3000).
std::size_t Blanks(const std::string& line) {
  std::size_t k = 0;
  for (;;) {
    if (k < line.size() && (line[k] == ' ' || line[k] == '\t')) {
      ++k;
    } else if (line.compare(k, 2, "\xc2\xa0") == 0) {
      k += 2;
    } else if (line.compare(k, 3, "\xe3\x80\x80") == 0 ||
               (line.compare(k, 2, "\xe2\x80") == 0 && k + 2 < line.size() &&
                static_cast<unsigned char>(line[k + 2]) <= 0x8a)) {
      k += 3;
    } else {
      return k;
    }
  }
}

// Every line of `text` the runner or a terminal would act on, as "line N: why: text". With
// `own_annotations`, fakehost's own `::error`/`::warning` lines (titled "fakehost ...") pass.
std::vector<std::string> Acting(const std::string& text, bool own_annotations) {
  static const std::regex own(
      R"(^::(error|warning) (file=[^,:]*,line=[0-9]+,)?title=fakehost [A-Z]+ [^:]*::.*)");
  std::vector<std::string> found;
  std::size_t n = 0, at = 0;
  while (at <= text.size()) {
    std::size_t end = text.find_first_of("\r\n", at);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(at, end - at);
    ++n;
    auto add = [&](const char* why) {
      found.push_back("line " + std::to_string(n) + ": " + why + ": " + line);
    };
    if (end < text.size() && text[end] == '\r') add("CR");
    for (unsigned char c : line)
      if (c < 0x20 && c != '\t') {
        add("control character");
        break;
      }
    if (line.find("##[") != std::string::npos) add("##[ command");
    if (line.compare(Blanks(line), 2, "::") == 0 &&
        !(own_annotations && std::regex_match(line, own)))
      add(":: command");
    at = end + 1;
  }
  return found;
}

std::string Joined(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& l : lines) out += l + "\n";
  return out;
}

// `run` as in a GitHub job: annotations on, the workspace the fixture root.
CommandResult RunInGithub(std::vector<std::string> args) {
  ::setenv("GITHUB_ACTIONS", "true", 1);
  ::setenv("GITHUB_WORKSPACE", FixturesDir().c_str(), 1);
  args.insert(args.begin(), FakehostBin());
  CommandResult r = RunCommand(args, std::chrono::seconds(120));
  ::unsetenv("GITHUB_ACTIONS");
  ::unsetenv("GITHUB_WORKSPACE");
  return r;
}

TEST(CiLog, AHostilePluginCannotActThroughTheConsoleTheAnnotationsOrTheMarkdown) {
  std::string dir = MakeTempDir();
  CommandResult r =
      RunInGithub({"run", "--plugin", FixturesDir() + "/" + kFixture, "--only", kScenario,
                   "--no-color", "--out", dir, "--report", "markdown=" + dir + "/report.md"});
  std::string dump = "stdout:\n" + r.out + "\nstderr:\n" + r.err;
  ASSERT_EQ(r.exit_code, 1) << dump;
  // The hostile text was printed (else "nothing acts" would prove nothing), visibly escaped.
  EXPECT_NE(r.out.find("##\\x5bstop-commands]plugin-token"), std::string::npos) << dump;
  EXPECT_NE(r.out.find("\\x3a:add-mask::secret-from-plugin"), std::string::npos) << dump;
  EXPECT_NE(r.out.find("\\x1b]52;c;cHduZWQ=\\x07"), std::string::npos) << dump;
  EXPECT_NE(r.out.find("FAIL\\x0d  PASS"), std::string::npos) << dump;
  EXPECT_NE(r.out.find("##\\x5bstop-commands]m"), std::string::npos) << "the method: " << dump;
  // fakehost's own annotation still works: it is a command, and the only kind.
  EXPECT_NE(r.out.find("\n::error title=fakehost FAIL " + kScenario + "::"), std::string::npos)
      << dump;
  EXPECT_EQ(Joined(Acting(r.out, true)), "") << dump;
  EXPECT_EQ(Joined(Acting(r.err, false)), "") << dump;
  std::string md = ReadFile(dir + "/report.md");
  EXPECT_NE(md.find("stop-commands"), std::string::npos) << md;
  EXPECT_EQ(Joined(Acting(md, false)), "") << md;
  fs::remove_all(dir);
}

// A shard report is an artifact downloaded from another job: its text is as hostile as a
// plugin's. The shard is a real one, its fields then filled with what would act.
TEST(CiLog, AHostileShardReportCannotActThroughReportMerge) {
  std::string dir = MakeTempDir();
  CommandResult run =
      RunCommand({FakehostBin(), "run", "--plugin", FixturesDir() + "/" + kFixture, "--only",
                  kScenario, "--shard", "1/1", "--no-color", "--out", dir + "/shard"},
                 std::chrono::seconds(120));
  ASSERT_EQ(run.exit_code, 1) << run.out << run.err;
  rapidjson::Document report;
  ASSERT_TRUE(json::Parse(ReadFile(dir + "/shard/report.json"), &report).ok);
  const std::string hostile =
      "\x1b[2J\x1b]52;c;cHduZWQ=\x07\x07 ok\rPASS\n::add-mask::shard-secret\n"
      "  ::stop-commands::tok\nx ##[stop-commands]tok ##[error]forged";
  auto set = [&](rapidjson::Value& v, const char* key) {
    rapidjson::Value text(hostile.c_str(), static_cast<rapidjson::SizeType>(hostile.size()),
                          report.GetAllocator());
    if (v.HasMember(key))
      v[key] = text;
    else
      v.AddMember(rapidjson::StringRef(key), text, report.GetAllocator());
  };
  set(report["plugin"], "version");
  for (auto& s : report["scenarios"].GetArray()) {
    set(s, "title");
    set(s, "spec");
    set(s, "requirement");
    for (auto& f : s["failures"].GetArray()) {
      set(f, "check");
      set(f, "message");
    }
  }
  std::string shard = dir + "/hostile-shard.json";
  std::ofstream(shard) << json::ToCompact(report);
  CommandResult r = RunInGithub({"report", "merge", shard, "--no-color", "--out", dir + "/merged",
                                 "--report", "markdown=" + dir + "/merged.md"});
  std::string dump = "stdout:\n" + r.out + "\nstderr:\n" + r.err;
  ASSERT_EQ(r.exit_code, 1) << dump;
  EXPECT_NE(r.out.find("\\x1b]52;c;cHduZWQ=\\x07\\x07 ok\\x0dPASS"), std::string::npos) << dump;
  EXPECT_NE(r.out.find("\\x0a::add-mask::shard-secret"), std::string::npos) << dump;
  EXPECT_NE(r.out.find("\n::error title=fakehost FAIL " + kScenario + "::"), std::string::npos)
      << dump;
  EXPECT_EQ(Joined(Acting(r.out, true)), "") << dump;
  EXPECT_EQ(Joined(Acting(r.err, false)), "") << dump;
  std::string md = ReadFile(dir + "/merged.md");
  EXPECT_EQ(Joined(Acting(md, false)), "") << md;
  fs::remove_all(dir);
}

// Errors quote their input: a transcript whose kind is hostile is refused by from-transcript and
// by validate, and the message that quotes it cannot act. validate quotes the kind with its line
// breaks: standard error's neutraliser (cli/printable_stream.hpp) takes each piece as a line.
TEST(CiLog, AnErrorQuotingAHostileInputFileCannotAct) {
  std::string dir = MakeTempDir();
  std::string transcript = dir + "/t.jsonl";
  std::ofstream(transcript)
      << R"({"index":0,"direction":"host-to-plugin","t_ms":0,"size":0,)"
      << R"("kind":"x\n::add-mask::k\n##[stop-commands]t\u001b]52;c;aGk=\u0007\r"})"
      << "\n";
  for (std::vector<std::string> args :
       {std::vector<std::string>{"scenario", "from-transcript", transcript, "--protocol",
                                 "flash-v1"},
        std::vector<std::string>{"validate", transcript, "--protocol", "flash-v1"}}) {
    args.insert(args.begin(), FakehostBin());
    CommandResult r = RunCommand(args, std::chrono::seconds(60));
    std::string dump = args[1] + "\nstdout:\n" + r.out + "\nstderr:\n" + r.err;
    EXPECT_EQ(r.exit_code, 2) << dump;
    if (args[1] == "validate") {  // validate quotes the kind; from-transcript names the line
      EXPECT_NE(r.err.find("##\\x5bstop-commands]t\\x1b]52"), std::string::npos) << dump;
      EXPECT_NE(r.err.find("\n\\x3a:add-mask::k\n"), std::string::npos) << dump;
    }
    EXPECT_EQ(Joined(Acting(r.err, false)), "") << dump;
    EXPECT_EQ(Joined(Acting(r.out, false)), "") << dump;
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace fakehost::testing
