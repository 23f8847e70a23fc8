// `fakehost run`: its flags as a run::RunRequest, the run (run::Execute), then its reports.
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <optional>

#include "harness/cli/cli.hpp"
#include "harness/cli/command.hpp"
#include "harness/cli/flag_checks.hpp"
#include "harness/cli/manifest_command.hpp"
#include "harness/cli/play_flags.hpp"
#include "harness/cli/reporters.hpp"
#include "harness/process/child.hpp"
#include "harness/protocol/profile.hpp"
#include "harness/report/reporter.hpp"
#include "harness/report/text.hpp"
#include "harness/run/execute.hpp"
#include "harness/run/expected_failures.hpp"
#include "harness/run/plugin_config.hpp"
#include "harness/schema/schema.hpp"
#include "harness/session/interrupt.hpp"

#ifndef FAKEHOST_VERSION
#define FAKEHOST_VERSION "0.0.0"
#endif

namespace fakehost::cli {
namespace {

// The flags certify shares (PlayFlags), then run's own.
struct RunFlags : PlayFlags {
  std::string plugin_dir;
  std::vector<std::string> argv;
  std::vector<std::string> suites;  ///< --suite DIR (repeatable; `standard`: scenarios/<protocol>)
  std::vector<std::string> tags, skip_tags, env;
  std::string transcripts_dir;  ///< --transcripts DIR: one JSON-lines file per scenario
  std::string plugin_id;
  std::string config;  ///< --config FILE: the plugin's fakehost.yaml, when not beside it
  int repeat = 1;
  std::optional<std::int64_t> limit_cpu;     ///< --limit-cpu SECONDS (0: none)
  std::optional<std::int64_t> limit_memory;  ///< --limit-memory MIB (0: none)
  bool fail_untested = false;  ///< --fail-untested: a scenario left untested fails the run
  bool no_color = false;
  std::string expected_failures;        ///< --expected-failures FILE: the known-failure baseline
  std::string write_expected_failures;  ///< --write-expected-failures FILE
};

// --write-expected-failures FILE: this run's failures as a baseline.
bool WriteBaseline(const std::string& path, const run::RunOutcome& run, bool strict,
                   std::string* error) {
  const result::RunReport& report = run.report;
  std::string header = "fakehost expected failures: the failures of a " + report.protocol +
                       " run of " + report.plugin.id + " on " + run.today +
                       ".\nLoad with --expected-failures FILE; an entry that passes again fails "
                       "the run (stale).";
  return report::WriteFileAtomically(
      path, run::WriteExpectedFailures(report.scenarios, run.suite_ids, strict, header), error);
}

// `run -- ARGV` in a directory holding a fakehost.yaml reads it (its triggers, its host
// replies, its protocol), as `run --plugin .` would, and says so: the command after `--` is the
// plugin, the file beside it what the author wrote for it. --config FILE names another.
void ConfigInWorkingDirectory(RunFlags* f, std::ostream& err) {
  std::error_code ec;
  if (!f->plugin_dir.empty() || f->argv.empty() || !f->config.empty() ||
      !std::filesystem::is_regular_file(run::kPluginConfigName, ec))
    return;
  f->config = run::kPluginConfigName;
  err << "fakehost: reading ./" << run::kPluginConfigName
      << " for the command after --; --config FILE names another\n";
}

// The author's baseline where init's workflow keeps it, which a run reads only when told: say
// so, so that a run that fails on what the baseline lists is not a surprise.
void BaselineNotRead(const RunFlags& f, std::ostream& err) {
  if (f.plugin_dir.empty() || !f.expected_failures.empty() || !f.write_expected_failures.empty())
    return;
  const std::filesystem::path baseline =
      std::filesystem::path(f.plugin_dir) / "fakehost" / "expected-failures.yaml";
  std::error_code ec;
  if (std::filesystem::is_regular_file(baseline, ec))
    err << "fakehost: not reading " << report::TerminalSafe(baseline.string())
        << " (the workflow init writes does): give --expected-failures "
        << report::TerminalSafe(baseline.string()) << " to use it\n";
}

bool CheckEnv(const RunFlags& f, std::ostream& err) {
  for (const std::string& kv : f.env) {
    if (kv.find('=') == std::string::npos || kv.front() == '=') {
      err << "fakehost: --env takes KEY=VALUE, got '" << kv << "'\n";
      return false;
    }
  }
  return true;
}

// Report destinations are checked before anything runs.
bool OpenDestinations(const RunFlags& f, std::vector<std::unique_ptr<report::Reporter>>* files,
                      std::ostream& err) {
  if (!MakeReporters(f.out_dir, f.reports, f.transcripts_dir, files, err)) return false;
  std::string error;
  if (!f.write_expected_failures.empty() &&
      !report::CheckDestination(f.write_expected_failures, &error)) {
    err << "fakehost: --write-expected-failures " << f.write_expected_failures << ": " << error
        << "\n";
    return false;
  }
  return true;
}

// The flags as a request; the caller adds the callbacks.
run::RunRequest Request(const RunFlags& f, const Context& ctx, const protocol::Profile& profile,
                        const schema::FrameSchema* frame_schema) {
  run::RunRequest q;
  q.profile = &profile;
  q.schema = frame_schema;
  q.standard_suite = StandardSuite(ctx.data_dir, profile);
  q.suites = f.suites;
  q.selection = {f.only, f.skip, f.tags, f.skip_tags};
  q.shard = f.shard;
  q.plugins = {{f.plugin_dir, f.argv, f.env, f.plugin_id, f.config}};
  q.jobs = f.jobs;
  q.repeat = f.repeat;
  q.strict = f.strict;
  q.revision = f.revision;
  q.fail_untested = f.fail_untested;
  q.timeout = f.timeout;
  q.limits = {f.limit_cpu, f.limit_memory};
  q.expected_failures = f.expected_failures;
  q.interrupted = &session::InterruptFlag();
  q.tool_version = FAKEHOST_VERSION;
  q.err = &ctx.err;
  return q;
}

// The reports and the baseline; false when one could not be written.
bool WriteRunFiles(const RunFlags& f, const std::vector<std::unique_ptr<report::Reporter>>& files,
                   const run::RunOutcome& outcome, std::ostream& err) {
  bool written = WriteReports(files, outcome.report, err);
  std::string error;
  if (!f.write_expected_failures.empty() &&
      !WriteBaseline(f.write_expected_failures, outcome, f.strict, &error)) {
    err << "fakehost: " << error << "\n";
    written = false;
  }
  return written;
}

// The flags checked, the run, then its files. `summary` (may be null) gets the run's counts.
int RunOnce(const RunFlags& f, const Context& ctx, result::Summary* summary = nullptr) {
  std::ostream& err = ctx.err;
  if (!CheckEnv(f, err)) return kBadInput;
  auto profile = LoadProfile(ctx.data_dir, f.protocol, err);
  if (!profile) return kBadInput;
  auto frame_schema = LoadFrameSchema(*profile, err);
  if (!profile->schema_path().empty() && !frame_schema) return kBadInput;
  std::string error;
  if (!f.plugin_id.empty() && !CheckPluginId(*profile, f.plugin_id, &error)) {
    err << "fakehost: " << error << "\n";
    return kBadInput;
  }
  std::vector<std::unique_ptr<report::Reporter>> files;
  if (!OpenDestinations(f, &files, err)) return kBadInput;

  auto console = report::MakeConsoleReporter(
      ctx.out, report::ConsoleOptions{!f.no_color && isatty(STDOUT_FILENO) == 1, 6});
  run::RunRequest q = Request(f, ctx, *profile, frame_schema.get());
  q.on_start = [&](const run::RunPlan& plan) {
    process::InitProcessEnvironment();
    session::InstallInterruptHandlers();
    console->RunStarting(plan.report);
  };
  q.on_result = [&](const run::PluginRun&, const result::ScenarioResult& r) {
    console->ScenarioEnded(r);
  };
  run::RunOutcome outcome = run::Execute(q);
  if (outcome.exit_code == kBadInput) return kBadInput;
  if (summary) *summary = outcome.report.summary;
  console->RunEnded(outcome.report, &error);
  if (const std::string note = session::IgnoredSignalsNote(); !note.empty())
    err << "fakehost: " << note << "\n";
  return WriteRunFiles(f, files, outcome, err) ? outcome.exit_code : kHarnessError;
}

// --revision all: the suite once per revision the profile knows, each run's reports under
// OUT/REVISION/, then one line per revision. A revision under which every scenario is not
// applicable is one the plugin does not speak: it says so, and does not count in the exit code.
int RunEveryRevision(const RunFlags& flags, const Context& ctx) {
  auto profile = LoadProfile(ctx.data_dir, flags.protocol, ctx.err);
  if (!profile) return kBadInput;
  if (!profile->revisions()) {
    ctx.err << "fakehost: --revision all: the " << profile->name() << " profile has no revisions\n";
    return kBadInput;
  }
  if (!flags.reports.empty() || !flags.transcripts_dir.empty() ||
      !flags.expected_failures.empty() || !flags.write_expected_failures.empty()) {
    ctx.err << "fakehost: --revision all writes one report.json per revision under --out; "
               "--report, --transcripts and the baselines take one revision (--revision R)\n";
    return kBadInput;
  }
  std::vector<std::pair<std::string, std::string>> lines;
  int worst = kOk;
  for (const protocol::Revision& r : profile->revisions()->known) {
    RunFlags f = flags;
    f.revision = r.name;
    f.out_dir = (std::filesystem::path(flags.out_dir) / r.name).string();
    ctx.out << "== revision " << r.name << "\n";
    result::Summary m;
    const int code = RunOnce(f, ctx, &m);
    if (code == kBadInput || code == kHarnessError) return code;
    const int judged = m.total - m.skipped - m.not_run - m.untested;
    if (judged == 0) {
      lines.emplace_back(r.name, "not spoken (every scenario not applicable)");
      continue;
    }
    worst = std::max(worst, code);
    lines.emplace_back(r.name, std::to_string(m.passed) + " passed, " + std::to_string(m.failed) +
                                   " failed, " + std::to_string(m.warned) + " warned, " +
                                   std::to_string(m.skipped) + " not applicable");
  }
  ctx.out << "\n";
  for (const auto& [revision, line] : lines)
    ctx.out << "revision " << revision << ": " << line << "\n";
  return worst;
}

int Run(const RunFlags& f, const Context& ctx) {
  return f.revision == "all" ? RunEveryRevision(f, ctx) : RunOnce(f, ctx);
}

}  // namespace

void AddRunCommand(CLI::App& app, Commands* commands) {
  auto rf = std::make_shared<RunFlags>();
  CLI::App* run = app.add_subcommand("run", "play a suite against a plugin");
  AddPlayFlags(
      run, rf.get(),
      {.protocol_default = "detected from --plugin",
       .jobs_over = "scenarios",
       .report_help = ReportHelp(),
       .out_file = "report.json",
       .out_default = "reports/latest",
       .shard_help = "play shard K of N of the selection (see docs/ci.md)",
       .revision_help = "R: offer protocol revision R and judge the plugin only if it speaks R "
                        "(default: offer the newest, judge by the one it answers); all: the suite "
                        "once per revision, reports under --out/R/"});
  run->add_option("--plugin", rf->plugin_dir,
                  "plugin directory (with its manifest, or a fakehost.yaml with command:)");
  AddPluginCommandLine(run, &rf->argv);
  run->add_option(
      "--suite", rf->suites,
      "scenario directory, repeatable; 'standard' is scenarios/<protocol>, the default");
  run->add_option("--tag", rf->tags, "run only scenarios with this tag (repeatable: any of them)");
  run->add_option("--skip-tag", rf->skip_tags, "skip scenarios with this tag (repeatable)");
  run->add_option("--transcripts", rf->transcripts_dir,
                  "DIR: every frame of every scenario, as JSON lines");
  run->add_option("--env", rf->env, "KEY=VALUE added to the plugin's environment (repeatable)");
  run->add_option("--plugin-id", rf->plugin_id,
                  "plugin id when there is no manifest (default: derived from the command)");
  run->add_option("--repeat", rf->repeat,
                  "play each scenario N times, 1 to " + std::to_string(kMaxRepeat) + " (stability)")
      ->check(CLI::Range(1, kMaxRepeat));
  run->add_option("--limit-cpu", rf->limit_cpu,
                  "CPU seconds per plugin process, 0 for none (default: the profile's)");
  run->add_option("--limit-memory", rf->limit_memory,
                  "address space per plugin process in MiB, 0 for none (default: the profile's)");
  run->add_option("--config", rf->config,
                  "FILE: the plugin's fakehost.yaml (default: fakehost.yaml in --plugin DIR)");
  run->add_flag("--fail-untested", rf->fail_untested,
                "a scenario left untested (a trigger is missing) fails the run");
  run->add_flag("--no-color", rf->no_color, "no ANSI colours on the console");
  run->add_option("--expected-failures", rf->expected_failures,
                  "FILE: known failures (YAML); they are xfail, and one that passes fails the run");
  run->add_option("--write-expected-failures", rf->write_expected_failures,
                  "FILE: write this run's failures there, in --expected-failures' format");
  commands->push_back(
      {run, [rf](const Context& ctx) {
         if (!OnePlugin(rf->plugin_dir, rf->argv, ctx.err)) return int{kBadInput};
         ConfigInWorkingDirectory(rf.get(), ctx.err);
         BaselineNotRead(*rf, ctx.err);
         if (!PickProtocol(ctx.data_dir, &rf->protocol, rf->plugin_dir, ctx.err, rf->config))
           return int{kBadInput};
         return Run(*rf, ctx);
       }});
}

}  // namespace fakehost::cli
