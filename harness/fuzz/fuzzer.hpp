// The fuzzing loop: generate a session, play it, and turn each new finding into a replayable
// scenario.
//
// Sessions are played by the scenario interpreter from their rendered text, exactly as
// `fakehost run` would play the file, so a written scenario replays what the fuzzer saw. On a new
// finding (a rule and level not met before) the session is played `replays` more times: if the
// finding does not show every time it is reported as flaky with its rate and written unshrunk
// (as .yaml.flaky, outside the suite); otherwise it is shrunk within the shrink budget, played
// once more, and written as `<rule>-<level>-s<seed>.yaml` with its transcript beside it.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "harness/fuzz/generator.hpp"
#include "harness/fuzz/oracle.hpp"
#include "harness/fuzz/plan.hpp"
#include "harness/interpreter/interpreter.hpp"

namespace fakehost::fuzz {

struct FuzzOptions {
  Ms budget{60000};  ///< time spent generating and playing sessions (shrinking not counted)
  std::uint64_t seed = 1;
  std::string out_dir;           ///< where scenarios and transcripts go; "" writes nothing
  Ms shrink_budget{60000};       ///< per finding
  int replays = 3;               ///< extra plays of a failing session before shrinking it
  std::size_t max_findings = 0;  ///< stop after this many (0: go on until the budget is spent)
  std::size_t max_sessions = 0;  ///< stop after this many sessions (0: no limit)
  RenderOptions render;
  Ms session_timeout{20000};         ///< the hard limit of one session
  std::ostream* progress = nullptr;  ///< a progress line every `progress_every`
  Ms progress_every{2000};
  std::string plugin_label;  ///< for the scenario's comments
};

struct Issue {
  Finding finding;
  std::uint64_t session = 0;  ///< the session index that found it (regenerate with the seed)
  double found_at_ms = 0;     ///< since the fuzzing started
  int hits = 0, runs = 0;     ///< how often it showed when played again
  bool flaky = false;
  std::size_t steps_before = 0, steps_after = 0;  ///< StepCount before and after shrinking
  std::size_t lines_before = 0, lines_after = 0;  ///< scenario steps before and after
  double shrink_ms = 0;
  int shrink_candidates = 0;
  bool shrink_capped = false;
  Plan plan;                               ///< as written (shrunk unless flaky)
  std::string yaml;                        ///< the scenario text written
  std::string yaml_path, transcript_path;  ///< "" when nothing was written
};

struct FuzzStats {
  std::uint64_t sessions = 0;
  std::uint64_t execs = 0;  ///< host->plugin writes (frames and raw writes), all plays counted
  std::uint64_t plays = 0;  ///< sessions played, replays and shrinking included
  double fuzz_ms = 0;       ///< generating and playing, without replays and shrinking
  double total_ms = 0;
  std::uint64_t harness_errors = 0;
  std::string first_harness_error;
  std::map<std::string, std::uint64_t> defs;   ///< schema entries sent, by name
  std::map<std::string, std::uint64_t> cases;  ///< kinds of case ("long string", "split", ...)
};

struct FuzzResult {
  FuzzStats stats;
  std::vector<Issue> issues;
};

class Fuzzer {
 public:
  /// Everything must outlive the fuzzer.
  Fuzzer(const protocol::Profile& profile, const schema::FrameSchema* schema,
         const interpreter::PluginTarget& plugin, const Catalog& catalog, FuzzOptions options);
  FuzzResult Run();
  /// Plays one plan as a scenario (counted in the stats).
  result::ScenarioResult Play(const Plan& plan, const Header& header = {});

 private:
  Issue Investigate(const Plan& plan, const Finding& finding, std::uint64_t session,
                    double found_at_ms);
  void Write(Issue* issue, const result::ScenarioResult& result);
  void Progress(std::chrono::steady_clock::time_point start, bool final);

  const protocol::Profile& profile_;
  const schema::FrameSchema* schema_;
  const interpreter::PluginTarget& plugin_;
  const Catalog& catalog_;
  FuzzOptions options_;
  FuzzStats stats_;
  std::size_t issues_found_ = 0;
  std::chrono::steady_clock::time_point last_progress_;
  std::uint64_t last_sessions_ = 0, last_execs_ = 0;
};

}  // namespace fakehost::fuzz
