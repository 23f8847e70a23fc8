// Every flag is checked before anything is loaded or spawned (issue 20, item 8): a bad value is
// exit 2 naming the flag, in process, never a run whose every scenario errors.
#include "harness/cli/flag_checks.hpp"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "harness/cli/cli.hpp"
#include "harness/run/execute.hpp"

namespace fakehost::cli {
namespace {

struct Outcome {
  int code;
  std::string out, err;
};

Outcome Fakehost(std::vector<std::string> args) {
  args.insert(args.begin(), "fakehost");
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  std::ostringstream out, err;
  int code = Main(static_cast<int>(argv.size()), argv.data(), out, err);
  return {code, out.str(), err.str()};
}

// `run` on a bare executable that exists, with `flags` before the `--`.
Outcome RunWith(std::vector<std::string> flags, std::vector<std::string> argv = {"/bin/true"}) {
  std::vector<std::string> args = {"run", "--protocol", "rim-v1"};
  args.insert(args.end(), flags.begin(), flags.end());
  args.push_back("--");
  args.insert(args.end(), argv.begin(), argv.end());
  return Fakehost(args);
}

void ExpectRefused(const Outcome& o, const std::string& says) {
  EXPECT_EQ(o.code, kBadInput) << o.err;
  EXPECT_NE(o.err.find(says), std::string::npos) << o.err;
}

TEST(FlagChecks, JobsIsOneToFourPerCore) {
  const std::string bound = "is not 1 to " + std::to_string(MaxJobs());
  ExpectRefused(RunWith({"--jobs", "-1"}), "--jobs: '-1' " + bound);
  ExpectRefused(RunWith({"--jobs", "0"}), "--jobs: '0' " + bound);
  ExpectRefused(RunWith({"--jobs", std::to_string(MaxJobs() + 1)}), bound);
  ExpectRefused(RunWith({"--jobs", "10000"}), bound);
  ExpectRefused(Fakehost({"certify", "--jobs", "0", "corpus"}), "--jobs: '0' " + bound);
  EXPECT_EQ(MaxJobs(), kJobsPerCore * run::DefaultJobs());
  // Within the bound the flag passes, and the run stops at the next thing wrong: an --out that
  // cannot be created under a character device.
  ExpectRefused(RunWith({"--jobs", std::to_string(MaxJobs()), "--out", "/dev/null/x"}),
                "--out /dev/null/x");
}

TEST(FlagChecks, RepeatIsAtLeastOne) {
  ExpectRefused(RunWith({"--repeat", "0"}), "--repeat");
  ExpectRefused(RunWith({"--repeat", "-5"}), "--repeat");
  ExpectRefused(RunWith({"--repeat", std::to_string(kMaxRepeat + 1)}), "--repeat");
  ExpectRefused(Fakehost({"fuzz", "--plugin", "p", "--replays", "0"}), "--replays");
}

TEST(FlagChecks, AnEmptyValueIsNeverTakenForAnAbsentFlag) {
  for (const char* flag : {"--timeout", "--config", "--transcripts", "--out", "--expected-failures",
                           "--plugin-id", "--suite", "--shard"}) {
    Outcome o = RunWith({flag, ""});
    ExpectRefused(o, std::string(flag) + ": an empty value");
  }
  ExpectRefused(Fakehost({"report", "merge", "--out", "", "a.json"}), "--out: an empty value");
  ExpectRefused(Fakehost({"certify", "--out", "", "corpus"}), "--out: an empty value");
  ExpectRefused(Fakehost({"scenario", "from-transcript", "t.jsonl", "--out", ""}),
                "--out: an empty value");
  ExpectRefused(Fakehost({"validate", "--schema", "", "t.jsonl"}), "--schema: an empty value");
  ExpectRefused(Fakehost({"fuzz", "--plugin", ""}), "--plugin: an empty value");
}

TEST(FlagChecks, APluginProgramThatIsNotThereIsBadInputBeforeAnythingRuns) {
  char dir[] = "/tmp/fakehost-flag-checks-XXXXXX";
  ASSERT_NE(::mkdtemp(dir), nullptr);
  const std::string out = std::string(dir) + "/out";
  Outcome o = Fakehost({"run", "--protocol", "rim-v1", "--out", out, "--", "nosuchcmd-fakehost"});
  ExpectRefused(o, "-- nosuchcmd-fakehost: ");
  // No scenario was played: a run writes its report whatever its scenarios did, this one none.
  EXPECT_FALSE(std::filesystem::exists(out + "/report.json")) << o.out;
  std::filesystem::remove_all(dir);
  o = Fakehost({"run", "--protocol", "rim-v1", "--out", "/tmp", "--", ""});
  ExpectRefused(o, "the plugin program is an empty string");
}

TEST(FlagChecks, APluginIdTheManifestSchemaRefusesIsBadInput) {
  Outcome o = Fakehost({"run", "--protocol", "rim-v1", "--out", "/tmp", "--plugin-id", "Not An Id",
                        "--", "/bin/true"});
  ExpectRefused(o, "--plugin-id 'Not An Id': ");
  o = Fakehost({"run", "--protocol", "flash-v1", "--out", "/tmp", "--plugin-id", "../up", "--",
                "/bin/true"});
  ExpectRefused(o, "--plugin-id '../up': ");
}

TEST(FlagChecks, ReportDestinationsAreCheckedBeforeTheRun) {
  ExpectRefused(RunWith({"--out", "/tmp", "--report", "json=/tmp"}),
                "--report json=/tmp: cannot write /tmp: it is a directory");
  ExpectRefused(RunWith({"--out", "/tmp", "--report", "junit=/dev/fakehost-nothing"}),
                "fakehost creates no files there");
  ExpectRefused(RunWith({"--out", "/dev/null"}), "--out /dev/null: ");
  ExpectRefused(RunWith({"--out", "/tmp", "--write-expected-failures", "/tmp"}),
                "--write-expected-failures /tmp: ");
  ExpectRefused(Fakehost({"certify", "merge", "--out", "/tmp", "--report", "html=/tmp", "a.json"}),
                "--report html=/tmp: ");
  ExpectRefused(Fakehost({"scenario", "from-transcript", "t.jsonl", "--out", "/tmp"}),
                "--out /tmp: ");
}

}  // namespace
}  // namespace fakehost::cli
