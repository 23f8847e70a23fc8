// `fakehost run`: plays a suite against one plugin and writes its reports.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <optional>
#include <thread>

#include "harness/cli/cli.hpp"
#include "harness/cli/command.hpp"
#include "harness/cli/flag_checks.hpp"
#include "harness/cli/manifest_command.hpp"
#include "harness/cli/verdict.hpp"
#include "harness/json/json.hpp"
#include "harness/process/child.hpp"
#include "harness/protocol/profile.hpp"
#include "harness/report/reporter.hpp"
#include "harness/run/expected_failures.hpp"
#include "harness/run/manifest_scenario.hpp"
#include "harness/run/runner.hpp"
#include "harness/run/shard.hpp"
#include "harness/run/suite_version.hpp"
#include "harness/scenario/duration.hpp"
#include "harness/scenario/interpreter.hpp"
#include "harness/schema/schema.hpp"
#include "harness/session/interrupt.hpp"

#ifndef FAKEHOST_VERSION
#define FAKEHOST_VERSION "0.0.0"
#endif

namespace fakehost::cli {
namespace {

struct RunFlags {
  std::string protocol;
  std::string plugin_dir;
  std::vector<std::string> argv;
  std::vector<std::string> suites;  ///< --suite DIR (repeatable; `standard`: scenarios/<protocol>)
  std::vector<std::string> only, skip, tags, skip_tags, env, reports;
  std::string shard;  ///< --shard K/N
  std::string out_dir = "reports/latest";
  std::string transcripts_dir;  ///< --transcripts DIR: one JSON-lines file per scenario
  std::string plugin_id;
  std::string config;  ///< --config FILE: the plugin's fakehost.yaml, when not beside it
  std::string timeout;
  int jobs = 0;
  int repeat = 1;
  std::optional<std::int64_t> limit_cpu;     ///< --limit-cpu SECONDS (0: none)
  std::optional<std::int64_t> limit_memory;  ///< --limit-memory MIB (0: none)
  bool strict = false;
  bool fail_untested = false;  ///< --fail-untested: a scenario left untested fails the run
  bool no_color = false;
  std::string expected_failures;        ///< --expected-failures FILE: the known-failure baseline
  std::string write_expected_failures;  ///< --write-expected-failures FILE
};

// --write-expected-failures FILE: this run's failures as a baseline.
bool WriteBaseline(const std::string& path, const run::RunReport& report,
                   const std::vector<scenario::Scenario>& suite, const run::ApplyOptions& expect,
                   std::string* error) {
  std::vector<std::string> ids;
  for (const auto& s : suite) ids.push_back(s.id);
  std::string header = "fakehost expected failures: the failures of a " + report.protocol +
                       " run of " + report.plugin.id + " on " + expect.today +
                       ".\nLoad with --expected-failures FILE; an entry that passes again fails "
                       "the run (stale).";
  return report::WriteFileAtomically(
      path, run::WriteExpectedFailures(report.scenarios, ids, expect.strict, header), error);
}

// Everything one run settles before it plays, in the order it is settled.
struct RunPlan {
  std::unique_ptr<protocol::Profile> profile;
  std::unique_ptr<schema::FrameSchema> frame_schema;
  std::vector<std::string> suites;
  std::vector<scenario::Scenario> scenarios;  ///< every scenario of the suites
  std::vector<const scenario::Scenario*> selected;
  int shard = 0, shards = 0;  ///< 0: not sharded
  bool manifest_selected = false;
  run::ExpectedFailures baseline;
  run::ApplyOptions expect;
  std::vector<std::unique_ptr<report::Reporter>> files;
  plugin::ManifestCheck check;
  std::optional<scenario::ScenarioResult> manifest_result;
  scenario::PluginTarget plugin;
  run::RunOptions options;
};

// The profile, the suites and the selection (sharded), and the known-failure baseline.
int LoadScenarios(const RunFlags& f, const Context& ctx, RunPlan* p) {
  std::ostream& err = ctx.err;
  for (const std::string& kv : f.env) {
    if (kv.find('=') == std::string::npos || kv.front() == '=') {
      err << "fakehost: --env takes KEY=VALUE, got '" << kv << "'\n";
      return kBadInput;
    }
  }
  p->profile = LoadProfile(ctx.data_dir, f.protocol, err);
  if (!p->profile) return kBadInput;
  p->frame_schema = LoadFrameSchema(*p->profile, err);
  if (!p->profile->schema_path().empty() && !p->frame_schema) return kBadInput;
  std::string error;
  if (!f.shard.empty() && !run::ParseShard(f.shard, &p->shard, &p->shards, &error)) {
    err << "fakehost: " << error << "\n";
    return kBadInput;
  }
  std::string standard = StandardSuite(ctx.data_dir, *p->profile);
  p->suites = run::SuiteDirs(f.suites, standard);
  std::vector<std::string> errors;
  if (!run::LoadSuites(p->suites, standard, *p->profile, &p->scenarios, &errors)) {
    for (const auto& e : errors) err << e << "\n";
    err << "fakehost: the suite has errors; nothing was run\n";
    return kBadInput;
  }
  // manifest/loads-in-host heads the suite of a plugin that has a manifest: it is played here,
  // before anything is spawned, not by the interpreter.
  if (!f.plugin_dir.empty())
    p->scenarios.insert(p->scenarios.begin(), run::ManifestScenario(*p->profile));
  p->selected = run::Select(p->scenarios, {f.only, f.skip, f.tags, f.skip_tags});
  if (p->selected.empty()) {
    err << "fakehost: no scenario selected (" << p->scenarios.size() << " in " << p->suites.front()
        << "); check --only/--skip/--tag/--skip-tag\n";
    return kBadInput;
  }
  // A shard plays its part of the selection; the manifest check, and a refused manifest's
  // report, belong to shard 1 alone, so that merged shards count it once.
  if (p->shards > 0) {
    std::size_t all = p->selected.size();
    p->selected = run::Shard(p->selected, p->shard, p->shards);
    if (p->selected.empty())
      err << "fakehost: shard " << f.shard << " holds none of the " << all
          << " selected scenarios (more shards than scenarios)\n";
  }
  p->manifest_selected =
      !f.plugin_dir.empty() && !p->selected.empty() && p->selected.front() == &p->scenarios.front();
  if (p->manifest_selected) p->selected.erase(p->selected.begin());
  p->expect = {f.strict, run::TodayUtc()};
  std::vector<scenario::LoadError> baseline_errors;
  if (!f.expected_failures.empty() && !run::LoadExpectedFailures(f.expected_failures, p->scenarios,
                                                                 &p->baseline, &baseline_errors)) {
    for (const auto& e : baseline_errors) err << e.ToString() << "\n";
    err << "fakehost: " << f.expected_failures << " has errors; nothing was run\n";
    return kBadInput;
  }
  return kOk;
}

// The manifest as the real host reads it, and the plugin to spawn. A refused manifest is the
// plugin's failure (nothing else runs, since its host would never start it); an entrypoint that
// cannot be run is bad input (exit 2, nothing to run), even where the manifest check lists it.
int ResolveTarget(const RunFlags& f, const Context& ctx, RunPlan* p) {
  std::ostream& err = ctx.err;
  const protocol::Profile& profile = *p->profile;
  plugin::ManifestCheck& check = p->check;
  if (!f.plugin_dir.empty()) {
    auto m0 = std::chrono::steady_clock::now();
    check = plugin::CheckManifest(profile, f.plugin_dir);
    if (!check.readable) {
      err << "fakehost: " << check.error << "\n";
      return kBadInput;
    }
    if (p->manifest_selected || (!check.loads && p->shard <= 1))
      p->manifest_result = run::ManifestResult(
          profile, check,
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - m0).count());
  }
  auto refused_for = [&](std::string_view rule) {
    return std::any_of(check.problems.begin(), check.problems.end(),
                       [&](const plugin::ManifestProblem& m) { return m.rule == rule; });
  };
  bool unrunnable = !check.loads && !refused_for("entrypoint-inside") &&
                    (refused_for("entrypoint-exists") || refused_for("entrypoint-executable"));
  std::string error;
  if (!f.plugin_id.empty() && !CheckPluginId(profile, f.plugin_id, &error)) {
    err << "fakehost: " << error << "\n";
    return kBadInput;
  }
  if (check.loads || f.plugin_dir.empty() || unrunnable) {
    run::PluginSpec spec{f.plugin_dir, f.argv, f.env, f.plugin_id, f.config};
    if (!run::ResolvePlugin(profile, spec, &p->plugin, &error)) {
      err << "fakehost: " << error << "\n";
      return kBadInput;
    }
  } else {
    p->plugin.dir = f.plugin_dir;
  }
  if (!check.loads && check.manifest && !unrunnable) {
    auto text = [&](const std::string& pointer) {
      const rapidjson::Value* v =
          pointer.empty() ? nullptr : json::Resolve(*check.manifest, pointer);
      return v && v->IsString() ? std::string(v->GetString(), v->GetStringLength()) : std::string();
    };
    p->plugin.id = text(profile.manifest().id);
    p->plugin.version = text(profile.manifest().version);
  }
  protocol::LimitsSpec limits;
  if (!protocol::ResolveLimits(profile.limits(), f.limit_cpu, f.limit_memory, &limits, &error)) {
    err << "fakehost: " << error << "\n";
    return kBadInput;
  }
  p->plugin.spawn.limits = {limits.cpu_seconds, limits.address_space_bytes};
  run::RunOptions& o = p->options;
  o.jobs = f.jobs > 0 ? f.jobs : DefaultJobs();
  o.repeat = f.repeat;
  o.play.strict = f.strict;
  o.play.interrupted = &session::InterruptFlag();
  if (!f.timeout.empty() && !scenario::ParseDuration(f.timeout, &o.play.timeout, &error)) {
    err << "fakehost: --timeout: " << error << "\n";
    return kBadInput;
  }
  return kOk;
}

// Plays the selection (or, for a refused manifest, reports it not run), showing each result
// on the console as the report will have it.
void Play(const RunFlags& f, const Context& ctx, RunPlan* p, run::RunReport* report) {
  auto console = report::MakeConsoleReporter(
      ctx.out, report::ConsoleOptions{!f.no_color && isatty(STDOUT_FILENO) == 1, 6});
  console->RunStarting(*report);
  auto t0 = std::chrono::steady_clock::now();
  if (p->manifest_result) {
    run::ApplyExpectedFailures(p->baseline, p->expect, &*p->manifest_result);
    console->ScenarioEnded(*p->manifest_result);
  }
  if (!f.plugin_dir.empty() && !p->check.loads) {
    for (const scenario::Scenario* s : p->selected) {
      scenario::ScenarioResult r = scenario::ResultFor(*s, scenario::Status::kNotRun);
      r.skip_reason = std::string("its host refuses this plugin's manifest (see ") +
                      run::kManifestScenarioId + ")";
      console->ScenarioEnded(r);
      report->scenarios.push_back(std::move(r));
    }
  } else {
    auto show = [&](const scenario::ScenarioResult& r) {
      if (p->baseline.entries.empty()) return console->ScenarioEnded(r);
      scenario::ScenarioResult shown = r;
      run::ApplyExpectedFailures(p->baseline, p->expect, &shown);
      console->ScenarioEnded(shown);
    };
    report->scenarios = run::RunScenarios(p->selected, *p->profile, p->frame_schema.get(),
                                          p->plugin, p->options, show);
  }
  if (p->manifest_result) report->scenarios.insert(report->scenarios.begin(), *p->manifest_result);
  // Whatever a plugin left reparented to us (every Child has killed its own enclosure by now)
  // is killed, and every zombie reaped, before the reports claim the run is over.
  process::SweepOrphans();
  report->summary.duration_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  run::ApplyExpectedFailures(p->baseline, p->expect, &report->scenarios);
  run::Summarise(report);
  std::string error;
  console->RunEnded(*report, &error);
}

int Run(const RunFlags& f, const Context& ctx) {
  RunPlan p;
  if (int rc = LoadScenarios(f, ctx, &p); rc != kOk) return rc;
  // Report destinations are checked before anything runs.
  if (!MakeReporters(f.out_dir, f.reports, f.transcripts_dir, &p.files, ctx.err)) return kBadInput;
  if (std::string error; !f.write_expected_failures.empty() &&
                         !report::CheckDestination(f.write_expected_failures, &error)) {
    ctx.err << "fakehost: --write-expected-failures " << f.write_expected_failures << ": " << error
            << "\n";
    return kBadInput;
  }
  if (int rc = ResolveTarget(f, ctx, &p); rc != kOk) return rc;

  run::RunReport report;
  report.tool_version = FAKEHOST_VERSION;
  report.protocol = p.profile->name();
  report.protocol_title = p.profile->title();
  report.suite = p.suites.front();
  std::string error;
  if (run::SuiteVersion v; run::ReadSuiteVersion(report.suite, &v, &error))
    report.suite_version = v.digest;
  report.suites = p.suites;
  report.started_at = NowIso8601();
  report.strict = f.strict;
  report.jobs = p.options.jobs;
  report.plugin = {p.plugin.id, p.plugin.version, p.plugin.dir, p.plugin.spawn.argv,
                   p.plugin.never_spawned};
  report.shard = {p.shard, p.shards};

  process::InitProcessEnvironment();
  session::InstallInterruptHandlers();
  Play(f, ctx, &p, &report);
  if (const std::string note = session::IgnoredSignalsNote(); !note.empty())
    ctx.err << "fakehost: " << note << "\n";

  bool written = WriteReports(p.files, report, ctx.err);
  if (!f.write_expected_failures.empty() &&
      !WriteBaseline(f.write_expected_failures, report, p.scenarios, p.expect, &error)) {
    ctx.err << "fakehost: " << error << "\n";
    written = false;
  }
  if (!written || report.summary.errored > 0 || session::InterruptFlag().load())
    return kHarnessError;
  if (p.shard > 1 && !f.plugin_dir.empty() && !p.check.loads) {
    ctx.err << "fakehost: its host refuses this plugin's manifest (" << run::kManifestScenarioId
            << " is reported by shard 1/" << p.shards << ")\n";
    return kFailures;
  }
  return Verdict(report, {f.fail_untested, p.shards > 0}, ctx.err);
}

}  // namespace

void AddRunCommand(CLI::App& app, Commands* commands) {
  auto rf = std::make_shared<RunFlags>();
  CLI::App* run = app.add_subcommand("run", "play a suite against a plugin");
  run->add_option("--protocol,-p", rf->protocol,
                  "rim-v1, flash-v1 or a profile.json path (default: detected from --plugin)");
  run->add_option("--plugin", rf->plugin_dir, "plugin directory (with its manifest)");
  run->add_option("argv", rf->argv, "after --: a bare executable and its arguments");
  run->add_option(
      "--suite", rf->suites,
      "scenario directory, repeatable; 'standard' is scenarios/<protocol>, the default");
  run->add_option("--only", rf->only, "run only scenario ids matching this glob (repeatable)");
  run->add_option("--skip", rf->skip, "skip scenario ids matching this glob (repeatable)");
  run->add_option("--tag", rf->tags, "run only scenarios with this tag (repeatable: any of them)");
  run->add_option("--skip-tag", rf->skip_tags, "skip scenarios with this tag (repeatable)");
  run->add_option("--shard", rf->shard, "K/N: play shard K of N of the selection (see docs/ci.md)");
  run->add_option("--jobs,-j", rf->jobs, JobsHelp("scenarios"))->check(JobsRange());
  run->add_option("--report", rf->reports, "FORMAT=PATH, repeatable (json, junit, markdown, html)");
  run->add_option("--transcripts", rf->transcripts_dir,
                  "DIR: every frame of every scenario, as JSON lines");
  run->add_option("--out", rf->out_dir, "directory for report.json (default reports/latest)");
  run->add_option("--env", rf->env, "KEY=VALUE added to the plugin's environment (repeatable)");
  run->add_option("--plugin-id", rf->plugin_id, "plugin id when running a bare executable");
  run->add_option("--timeout", rf->timeout, "hard limit per scenario (default: the profile's)");
  run->add_option("--repeat", rf->repeat,
                  "play each scenario N times, 1 to " + std::to_string(kMaxRepeat) + " (stability)")
      ->check(CLI::Range(1, kMaxRepeat));
  run->add_option("--limit-cpu", rf->limit_cpu,
                  "CPU seconds per plugin process, 0 for none (default: the profile's)");
  run->add_option("--limit-memory", rf->limit_memory,
                  "address space per plugin process in MiB, 0 for none (default: the profile's)");
  run->add_flag("--strict", rf->strict, "should-level misses fail the run");
  run->add_option("--config", rf->config,
                  "FILE: the plugin's fakehost.yaml (default: fakehost.yaml beside the manifest)");
  run->add_flag("--fail-untested", rf->fail_untested,
                "a scenario left untested (a trigger is missing) fails the run");
  run->add_flag("--no-color", rf->no_color, "no ANSI colours on the console");
  run->add_option("--expected-failures", rf->expected_failures,
                  "FILE: known failures (YAML); they are xfail, and one that passes fails the run");
  run->add_option("--write-expected-failures", rf->write_expected_failures,
                  "FILE: write this run's failures there, in --expected-failures' format");
  commands->push_back({run, [rf](const Context& ctx) {
                         if (rf->plugin_dir.empty() == rf->argv.empty()) {
                           ctx.err << "fakehost: give exactly one of --plugin DIR and -- ARGV...\n";
                           return int{kBadInput};
                         }
                         if (!PickProtocol(ctx.data_dir, &rf->protocol, rf->plugin_dir, ctx.err))
                           return int{kBadInput};
                         return Run(*rf, ctx);
                       }});
}

}  // namespace fakehost::cli
