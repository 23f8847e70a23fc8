#include "harness/fuzz/fuzzer.hpp"

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "harness/fuzz/rng.hpp"
#include "harness/fuzz/shrink.hpp"
#include "harness/json/json.hpp"
#include "harness/protocol/profile.hpp"
#include "harness/report/reporter.hpp"
#include "harness/run/runner.hpp"
#include "harness/scenario/loader.hpp"

namespace fakehost::fuzz {
namespace {

using Clock = std::chrono::steady_clock;

double MsSince(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

std::size_t StepLines(const std::string& yaml) {
  std::size_t n = 0;
  std::istringstream in(yaml);
  for (std::string line; std::getline(in, line);) n += line.rfind("  - ", 0) == 0;
  return n;
}

std::string Fixed(double v, int decimals) {
  std::ostringstream o;
  o.setf(std::ios::fixed);
  o.precision(decimals);
  o << v;
  return o.str();
}

bool WriteFile(const std::string& path, const std::string& text) {
  std::string error;
  return report::WriteFileAtomically(path, text, &error);
}

}  // namespace

Fuzzer::Fuzzer(const protocol::Profile& profile, const schema::FrameSchema* schema,
               const interpreter::PluginTarget& plugin, const Catalog& catalog, FuzzOptions options)
    : profile_(profile),
      schema_(schema),
      plugin_(plugin),
      catalog_(catalog),
      options_(std::move(options)) {}

result::ScenarioResult Fuzzer::Play(const Plan& plan, const Header& given) {
  Header header = given;
  header.vars = catalog_.trigger_vars;
  std::string yaml = Render(plan, profile_, schema_, header, options_.render);
  scenario::Scenario sc;
  std::vector<scenario::LoadError> errors;
  ++stats_.plays;
  if (!scenario::LoadScenarioText(yaml, "fuzz-session.yaml", "fuzz-session", {}, &sc, &errors)) {
    // The generator wrote something the loader refuses: the fuzzer's bug, never a finding.
    result::ScenarioResult r;
    result::Failure f;
    f.harness_error = true;
    f.reason = result::Reason::kHarnessFault;
    f.check = "generator";
    f.message = errors.empty() ? "the generated scenario does not load" : errors.front().ToString();
    r.failures.push_back(std::move(f));
    r.status = result::Status::kError;
    return r;
  }
  interpreter::PlayOptions play;
  play.timeout = options_.session_timeout;
  // As every command plays: an exception is this session's harness error, not the fuzzer's end.
  result::ScenarioResult r = run::PlayScenario(sc, profile_, schema_, plugin_, play);
  for (const auto& e : r.transcript)
    stats_.execs +=
        e.direction == result::Direction::kHostToPlugin && e.kind != result::EntryKind::kTally;
  return r;
}

FuzzResult Fuzzer::Run() {
  FuzzResult out;
  Clock::time_point start = Clock::now();
  last_progress_ = start;
  std::set<std::string> known;
  double excluded_ms = 0;  // replays and shrinking do not spend the fuzzing budget
  for (std::uint64_t i = 0;; ++i) {
    double fuzz_ms = MsSince(start) - excluded_ms;
    if (fuzz_ms >= static_cast<double>(options_.budget.count())) break;
    if (options_.max_sessions && i >= options_.max_sessions) break;
    if (options_.max_findings && out.issues.size() >= options_.max_findings) break;
    Plan plan = Generate(catalog_, profile_, SessionSeed(options_.seed, i));
    ++stats_.sessions;
    for (const Action& a : plan.actions) {
      if (!a.def.empty()) ++stats_.defs[a.def];
      ++stats_.cases[a.what];
    }
    if (!plan.handshake_mutations.empty()) ++stats_.cases["bad handshake"];
    result::ScenarioResult r = Play(plan);
    if (std::string e = HarnessError(r); !e.empty()) {
      if (stats_.harness_errors++ == 0) stats_.first_harness_error = e;
    }
    for (const Finding& f : FindingsOf(r)) {
      if (!known.insert(f.Key()).second) continue;
      Clock::time_point t = Clock::now();
      out.issues.push_back(Investigate(plan, f, i, MsSince(start) - excluded_ms));
      excluded_ms += MsSince(t);
      break;  // one new finding per session: the shrinker keeps only that one
    }
    Progress(start, false);
  }
  stats_.total_ms = MsSince(start);
  stats_.fuzz_ms = stats_.total_ms - excluded_ms;
  Progress(start, true);
  out.stats = stats_;
  return out;
}

Issue Fuzzer::Investigate(const Plan& plan, const Finding& finding, std::uint64_t session,
                          double found_at_ms) {
  Issue issue;
  issue.finding = finding;
  issue.session = session;
  issue.found_at_ms = found_at_ms;
  issue.hits = 1;
  issue.runs = 1;
  const std::string key = finding.Key();
  for (int k = 0; k < options_.replays; ++k) {
    ++issue.runs;
    issue.hits += Shows(Play(plan), key);
  }
  issue.steps_before = StepCount(plan);
  issue.lines_before = StepLines(Render(plan, profile_, schema_, {}, options_.render));
  issue.flaky = issue.hits < issue.runs;
  Plan written = plan;
  if (!issue.flaky) {
    Clock::time_point t = Clock::now();
    ShrinkStats st;
    written = Shrink(
        plan, [&](const Plan& p) { return Shows(Play(p), key); }, t + options_.shrink_budget, &st);
    issue.shrink_ms = MsSince(t);
    issue.shrink_candidates = st.candidates;
    issue.shrink_capped = st.capped;
  }
  issue.plan = written;
  issue.steps_after = StepCount(written);
  issue.lines_after = StepLines(Render(written, profile_, schema_, {}, options_.render));
  // The transcript that goes with the file: one more play of what is written.
  result::ScenarioResult last = Play(written);
  if (!issue.flaky && !Shows(last, key)) {  // shrunk too far for a timing-dependent bug
    issue.plan = written = plan;
    issue.steps_after = issue.steps_before;
    issue.lines_after = issue.lines_before;
    last = Play(plan);
  }
  ++issues_found_;
  Write(&issue, last);
  return issue;
}

void Fuzzer::Write(Issue* issue, const result::ScenarioResult& result) {
  RuleText text = DescribeRule(issue->finding, profile_);
  Header h;
  h.vars = catalog_.trigger_vars;
  h.title = text.title;
  h.spec = text.spec;
  h.requirement = text.requirement;
  h.level = result::LevelName(issue->finding.level);
  h.comments.push_back("Written by fakehost fuzz --seed " + std::to_string(options_.seed) +
                       " (session " + std::to_string(issue->session) + ") against " +
                       options_.plugin_label + ".");
  h.comments.push_back("Finding [" + issue->finding.rule + ", " + h.level +
                       "]: " + json::Abbreviate(issue->finding.message, 300));
  h.comments.push_back(
      "Reproduced " + std::to_string(issue->hits) + " of " + std::to_string(issue->runs) +
      " plays" +
      (issue->flaky ? " (flaky: not shrunk)."
                    : "; shrunk from " + std::to_string(issue->lines_before) + " to " +
                          std::to_string(issue->lines_after) + " steps in " +
                          Fixed(issue->shrink_ms / 1000, 1) + " s (" +
                          std::to_string(issue->shrink_candidates) + " plays" +
                          (issue->shrink_capped ? ", stopped by the shrink budget" : "") + ")."));
  issue->yaml = Render(issue->plan, profile_, schema_, h, options_.render);
  if (options_.out_dir.empty()) return;
  std::error_code ec;
  std::string dir = options_.out_dir + (issue->flaky ? "/flaky" : "");
  std::filesystem::create_directories(dir, ec);
  std::string base = dir + "/" + issue->finding.rule + "-" + h.level + "-s" +
                     std::to_string(options_.seed) + "-" + std::to_string(issues_found_);
  // A flaky finding stays out of the suite (`run --suite` reads *.yaml only).
  issue->yaml_path = base + (issue->flaky ? ".yaml.flaky" : ".yaml");
  issue->transcript_path = base + ".jsonl";
  if (!WriteFile(issue->yaml_path, issue->yaml)) issue->yaml_path.clear();
  if (!WriteFile(issue->transcript_path, report::TranscriptLines(result)))
    issue->transcript_path.clear();
}

void Fuzzer::Progress(Clock::time_point start, bool final) {
  if (!options_.progress) return;
  Clock::time_point now = Clock::now();
  if (!final && now - last_progress_ < options_.progress_every) return;
  double window = std::chrono::duration<double>(now - last_progress_).count();
  if (final) window = MsSince(start) / 1000;
  std::uint64_t sessions = final ? stats_.sessions : stats_.sessions - last_sessions_;
  std::uint64_t execs = final ? stats_.execs : stats_.execs - last_execs_;
  *options_.progress << "fuzz: " << stats_.sessions << " sessions, "
                     << Fixed(window > 0 ? static_cast<double>(sessions) / window : 0, 1)
                     << " sessions/s, "
                     << Fixed(window > 0 ? static_cast<double>(execs) / window : 0, 0)
                     << " execs/s, " << issues_found_ << " finding"
                     << (issues_found_ == 1 ? "" : "s") << (final ? " (done)" : "") << "\n"
                     << std::flush;
  last_progress_ = now;
  last_sessions_ = stats_.sessions;
  last_execs_ = stats_.execs;
}

}  // namespace fakehost::fuzz
