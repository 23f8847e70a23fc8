#include "harness/cli/cli.hpp"

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <ctime>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <thread>

#include "harness/cli/manifest_command.hpp"
#include "harness/cli/schema_command.hpp"
#include "harness/json/json.hpp"
#include "harness/process/child.hpp"
#include "harness/protocol/profile.hpp"
#include "harness/report/reporter.hpp"
#include "harness/run/manifest_scenario.hpp"
#include "harness/run/runner.hpp"
#include "harness/scenario/duration.hpp"
#include "harness/scenario/interpreter.hpp"
#include "harness/scenario/loader.hpp"
#include "harness/schema/schema.hpp"
#include "harness/session/interrupt.hpp"
#include "harness/session/session.hpp"

#ifndef FAKEHOST_VERSION
#define FAKEHOST_VERSION "0.0.0"
#endif
#ifndef FAKEHOST_DATA_DIR
#define FAKEHOST_DATA_DIR "."
#endif

namespace fakehost::cli {
namespace {

namespace fs = std::filesystem;

/// Where profiles, schemas and suites live: $FAKEHOST_HOME, else the source tree it was built
/// from (the binary is used from a checkout; an install would set FAKEHOST_HOME).
std::string DataDir() {
  if (const char* home = std::getenv("FAKEHOST_HOME"); home && *home) return home;
  return FAKEHOST_DATA_DIR;
}

std::unique_ptr<protocol::Profile> LoadProfile(const std::string& name, std::ostream& err) {
  std::string path = DataDir() + "/schema/" + name + "/profile.json";
  if (!fs::exists(path)) {
    err << "fakehost: " << UnknownProtocol(DataDir(), name) << "\n";
    return nullptr;
  }
  std::string error;
  auto profile = protocol::Profile::Load(path, &error);
  if (!profile) err << "fakehost: " << error << "\n";
  return profile;
}

std::unique_ptr<schema::FrameSchema> LoadFrameSchema(const protocol::Profile& profile,
                                                     std::ostream& err) {
  if (profile.schema_path().empty()) return nullptr;
  std::string error;
  auto s = schema::FrameSchema::Load(profile.schema_path(), &error);
  if (!s) err << "fakehost: " << error << "\n";
  return s;
}

std::string NowIso8601() {
  std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

struct RunFlags {
  std::string protocol;
  std::string plugin_dir;
  std::vector<std::string> argv;
  std::string suite;
  std::vector<std::string> only, skip, env, reports;
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
};

// Levenshtein distance, for suggesting the flag a user probably meant.
std::size_t Distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

// "; did you mean --protocol?" for the first argument that looks like a mistyped flag of the
// subcommand it was given to, or "".
std::string NearestFlag(CLI::App& app, int argc, char** argv) {
  CLI::App* command = nullptr;
  for (int i = 1; i < argc && !command; ++i)
    for (CLI::App* sub : app.get_subcommands({}))
      if (sub->get_name() == argv[i]) command = sub;
  if (!command) return {};
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--") break;
    if (arg.rfind("--", 0) != 0) continue;
    arg = arg.substr(0, arg.find('='));
    std::string best;
    std::size_t best_distance = 3;  // at most two edits away
    for (const CLI::Option* o : command->get_options()) {
      for (const std::string& name : o->get_lnames()) {
        if ("--" + name == arg) return {};  // a real flag: not the mistake
        std::size_t d = Distance(arg, "--" + name);
        if (d < best_distance) best_distance = d, best = "--" + name;
      }
    }
    if (!best.empty()) return "; did you mean " + best + "?";
  }
  return {};
}

int Run(const RunFlags& f, std::ostream& out, std::ostream& err) {
  for (const std::string& kv : f.env) {
    if (kv.find('=') == std::string::npos || kv.front() == '=') {
      err << "fakehost: --env takes KEY=VALUE, got '" << kv << "'\n";
      return kBadInput;
    }
  }
  auto profile = LoadProfile(f.protocol, err);
  if (!profile) return kBadInput;
  auto frame_schema = LoadFrameSchema(*profile, err);
  if (!profile->schema_path().empty() && !frame_schema) return kBadInput;

  std::string suite = f.suite.empty() ? DataDir() + "/scenarios/" + f.protocol : f.suite;
  std::vector<scenario::Scenario> scenarios;
  std::vector<std::string> errors;
  if (!run::LoadSuite(suite, *profile, &scenarios, &errors)) {
    for (const auto& e : errors) err << e << "\n";
    err << "fakehost: the suite has errors; nothing was run\n";
    return kBadInput;
  }
  // manifest/loads-in-host heads the suite of a plugin that has a manifest: it is played here,
  // before anything is spawned, not by the interpreter.
  if (!f.plugin_dir.empty()) scenarios.insert(scenarios.begin(), run::ManifestScenario(*profile));
  auto selected = run::Select(scenarios, f.only, f.skip);
  if (selected.empty()) {
    err << "fakehost: no scenario selected (" << scenarios.size() << " in " << suite
        << "); check --only/--skip\n";
    return kBadInput;
  }
  bool manifest_selected = !f.plugin_dir.empty() && selected.front() == &scenarios.front();
  if (manifest_selected) selected.erase(selected.begin());

  // Report destinations are checked before anything runs.
  std::vector<std::unique_ptr<report::Reporter>> files;
  files.push_back(report::MakeJsonReporter(f.out_dir + "/report.json"));
  for (const auto& spec : f.reports) {
    auto eq = spec.find('=');
    std::string format = spec.substr(0, eq);
    if (eq == std::string::npos || eq + 1 == spec.size()) {
      err << "fakehost: --report takes FORMAT=PATH, got '" << spec << "'\n";
      return kBadInput;
    }
    std::string error;
    auto reporter = report::MakeFileReporter(format, spec.substr(eq + 1), &error);
    if (!reporter) {
      err << "fakehost: --report " << spec << ": " << error << "\n";
      return kBadInput;
    }
    files.push_back(std::move(reporter));
  }
  if (!f.transcripts_dir.empty())
    files.push_back(report::MakeTranscriptsReporter(f.transcripts_dir));

  // The manifest as the real host reads it. A refused one is the plugin's failure: nothing
  // else runs, since its host would never start it.
  plugin::ManifestCheck check;
  std::optional<scenario::ScenarioResult> manifest_result;
  if (!f.plugin_dir.empty()) {
    auto m0 = std::chrono::steady_clock::now();
    check = plugin::CheckManifest(*profile, f.plugin_dir);
    if (!check.readable) {
      err << "fakehost: " << check.error << "\n";
      return kBadInput;
    }
    if (manifest_selected || !check.loads)
      manifest_result = run::ManifestResult(
          *profile, check,
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - m0).count());
  }

  run::PluginSpec plugin_spec{f.plugin_dir, f.argv, f.env, f.plugin_id, f.config};
  scenario::PluginTarget plugin;
  std::string error;
  // An entrypoint that cannot be run is bad input (exit 2, nothing to run), even where the
  // manifest check also lists it; any other refusal is the plugin's failure.
  auto refused_for = [&](std::string_view rule) {
    return std::any_of(check.problems.begin(), check.problems.end(),
                       [&](const plugin::ManifestProblem& p) { return p.rule == rule; });
  };
  bool unrunnable = !check.loads && !refused_for("entrypoint-inside") &&
                    (refused_for("entrypoint-exists") || refused_for("entrypoint-executable"));
  if (check.loads || f.plugin_dir.empty() || unrunnable) {
    if (!run::ResolvePlugin(*profile, plugin_spec, &plugin, &error)) {
      err << "fakehost: " << error << "\n";
      return kBadInput;
    }
  } else {
    plugin.dir = f.plugin_dir;
  }
  if (!check.loads && check.manifest && !unrunnable) {
    auto text = [&](const std::string& pointer) {
      const rapidjson::Value* v =
          pointer.empty() ? nullptr : json::Resolve(*check.manifest, pointer);
      return v && v->IsString() ? std::string(v->GetString(), v->GetStringLength()) : std::string();
    };
    plugin.id = text(profile->manifest().id);
    plugin.version = text(profile->manifest().version);
  }

  protocol::LimitsSpec limits;
  if (!protocol::ResolveLimits(profile->limits(), f.limit_cpu, f.limit_memory, &limits, &error)) {
    err << "fakehost: " << error << "\n";
    return kBadInput;
  }
  plugin.spawn.limits = {limits.cpu_seconds, limits.address_space_bytes};

  run::RunOptions options;
  options.jobs =
      f.jobs > 0 ? f.jobs : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  options.repeat = f.repeat;
  options.play.strict = f.strict;
  options.play.interrupted = &session::InterruptFlag();
  if (!f.timeout.empty() && !scenario::ParseDuration(f.timeout, &options.play.timeout, &error)) {
    err << "fakehost: --timeout: " << error << "\n";
    return kBadInput;
  }

  run::RunReport report;
  report.tool_version = FAKEHOST_VERSION;
  report.protocol = profile->name();
  report.protocol_title = profile->title();
  report.suite = suite;
  report.started_at = NowIso8601();
  report.strict = f.strict;
  report.jobs = options.jobs;
  report.plugin = {plugin.id, plugin.version, plugin.dir, plugin.spawn.argv};

  process::InitProcessEnvironment();
  session::InstallInterruptHandlers();

  auto console = report::MakeConsoleReporter(
      out, report::ConsoleOptions{!f.no_color && isatty(STDOUT_FILENO) == 1, 6});
  console->RunStarting(report);
  auto t0 = std::chrono::steady_clock::now();
  if (manifest_result) console->ScenarioEnded(*manifest_result);
  if (manifest_result && !check.loads) {
    for (const scenario::Scenario* s : selected) {
      scenario::ScenarioResult r = scenario::ResultFor(*s, scenario::Status::kNotRun);
      r.skip_reason = std::string("its host refuses this plugin's manifest (see ") +
                      run::kManifestScenarioId + ")";
      console->ScenarioEnded(r);
      report.scenarios.push_back(std::move(r));
    }
  } else {
    report.scenarios =
        run::RunScenarios(selected, *profile, frame_schema.get(), plugin, options,
                          [&](const scenario::ScenarioResult& r) { console->ScenarioEnded(r); });
  }
  if (manifest_result) report.scenarios.insert(report.scenarios.begin(), *manifest_result);
  // Whatever a plugin left reparented to us (every Child has killed its own enclosure by now)
  // is killed, and every zombie reaped, before the reports claim the run is over.
  process::SweepOrphans();
  report.summary.duration_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  run::Summarise(&report);
  console->RunEnded(report, &error);

  bool written = true;
  for (auto& r : files) {
    if (!r->RunEnded(report, &error)) {
      err << "fakehost: " << error << "\n";
      written = false;
    }
  }
  if (!written || report.summary.errored > 0 || session::InterruptFlag().load())
    return kHarnessError;
  const run::Summary& m = report.summary;
  // The manifest check alone is not a check of the plugin's protocol behaviour.
  int manifest_passed = manifest_result && manifest_result->status == scenario::Status::kPass;
  if (m.passed - manifest_passed + m.failed + m.warned == 0) {
    err << "fakehost: no scenario checked anything about this plugin (" << m.untested
        << " untested, " << m.skipped << " not applicable): this is not a pass\n";
    return kFailures;
  }
  if (f.fail_untested && m.untested > 0) {
    err << "fakehost: " << m.untested
        << " scenarios untested (--fail-untested): give their triggers in fakehost.yaml\n";
    return kFailures;
  }
  return m.failed > 0 ? kFailures : kOk;
}

int List(const std::string& protocol, const std::string& suite_flag,
         const std::vector<std::string>& only, const std::vector<std::string>& skip,
         std::ostream& out, std::ostream& err) {
  auto profile = LoadProfile(protocol, err);
  if (!profile) return kBadInput;
  std::string suite = suite_flag.empty() ? DataDir() + "/scenarios/" + protocol : suite_flag;
  std::vector<scenario::Scenario> scenarios;
  std::vector<std::string> errors;
  bool ok = run::LoadSuite(suite, *profile, &scenarios, &errors);
  for (const auto& e : errors) err << e << "\n";
  scenarios.insert(scenarios.begin(), run::ManifestScenario(*profile));
  auto selected = run::Select(scenarios, only, skip);
  for (const auto* s : selected)
    out << s->id << "  [" << scenario::LevelName(s->level) << "] " << s->spec << " — " << s->title
        << "\n";
  if (!ok) return kBadInput;
  if (selected.empty()) {
    err << "fakehost: no scenario selected\n";
    return kBadInput;
  }
  return kOk;
}

}  // namespace

int Main(int argc, char** argv, std::ostream& out, std::ostream& err) {
  CLI::App app{"fakehost: a conformance harness for stdio plugin protocols"};
  app.require_subcommand(1);
  app.set_version_flag("--version", FAKEHOST_VERSION);

  RunFlags rf;
  CLI::App* run = app.add_subcommand("run", "play a suite against a plugin");
  run->add_option("--protocol,-p", rf.protocol,
                  "rim-v1 or flash-v1 (default: detected from the --plugin directory)");
  run->add_option("--plugin", rf.plugin_dir, "plugin directory (with its manifest)");
  run->add_option("argv", rf.argv, "after --: a bare executable and its arguments");
  run->add_option("--suite", rf.suite, "scenario directory (default scenarios/<protocol>)");
  run->add_option("--only", rf.only, "run only scenario ids matching this glob (repeatable)");
  run->add_option("--skip", rf.skip, "skip scenario ids matching this glob (repeatable)");
  run->add_option("--jobs,-j", rf.jobs, "scenarios in parallel (default: cores)");
  run->add_option("--report", rf.reports, "FORMAT=PATH, repeatable (json, junit, markdown, html)");
  run->add_option("--transcripts", rf.transcripts_dir,
                  "DIR: every frame of every scenario, as JSON lines");
  run->add_option("--out", rf.out_dir, "directory for report.json (default reports/latest)");
  run->add_option("--env", rf.env, "KEY=VALUE added to the plugin's environment (repeatable)");
  run->add_option("--plugin-id", rf.plugin_id, "plugin id when running a bare executable");
  run->add_option("--timeout", rf.timeout, "hard limit per scenario (default: the profile's)");
  run->add_option("--repeat", rf.repeat, "play each scenario N times (stability)");
  run->add_option("--limit-cpu", rf.limit_cpu,
                  "CPU seconds per plugin process, 0 for none (default: the profile's)");
  run->add_option("--limit-memory", rf.limit_memory,
                  "address space per plugin process in MiB, 0 for none (default: the profile's)");
  run->add_flag("--strict", rf.strict, "should-level misses fail the run");
  run->add_option("--config", rf.config,
                  "FILE: the plugin's fakehost.yaml (default: fakehost.yaml beside the manifest)");
  run->add_flag("--fail-untested", rf.fail_untested,
                "a scenario left untested (a trigger is missing) fails the run");
  run->add_flag("--no-color", rf.no_color, "no ANSI colours on the console");

  std::string list_protocol, list_suite;
  std::vector<std::string> list_only, list_skip;
  CLI::App* list = app.add_subcommand("list", "list a suite's scenarios");
  list->add_option("--protocol,-p", list_protocol, "rim-v1 or flash-v1")->required();
  list->add_option("--suite", list_suite, "scenario directory");
  list->add_option("--only", list_only, "glob");
  list->add_option("--skip", list_skip, "glob");

  std::string lint_protocol, lint_suite;
  CLI::App* lint = app.add_subcommand("lint", "load a suite and report every error");
  lint->add_option("--protocol,-p", lint_protocol, "rim-v1 or flash-v1")->required();
  lint->add_option("--suite", lint_suite, "scenario directory");

  std::string manifest_dir, manifest_protocol;
  CLI::App* manifest_cmd = app.add_subcommand("manifest", "work with a plugin's manifest");
  manifest_cmd->require_subcommand(1);
  CLI::App* manifest_check =
      manifest_cmd->add_subcommand("check", "check a manifest as the real host's loader would");
  manifest_check->add_option("dir", manifest_dir, "the plugin directory")->required();
  manifest_check->add_option("--protocol,-p", manifest_protocol,
                             "rim-v1 or flash-v1 (default: detected from the directory)");

  std::string schema_file;
  CLI::App* schema_cmd = app.add_subcommand("schema", "work with a protocol's frame schema");
  schema_cmd->require_subcommand(1);
  CLI::App* check = schema_cmd->add_subcommand("check", "certify a schema's examples");
  check->add_option("file", schema_file, "the schema file")->required();

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    out << app.help();
    return kOk;
  } catch (const CLI::CallForVersion&) {
    out << FAKEHOST_VERSION << "\n";
    return kOk;
  } catch (const CLI::ParseError& e) {
    std::string help = e.get_name() == "CallForHelp" ? "" : "run 'fakehost --help' for usage";
    err << "fakehost: " << e.what() << NearestFlag(app, argc, argv) << "\n" << help << "\n";
    return kBadInput;
  }
  try {
    if (run->parsed()) {
      if (rf.plugin_dir.empty() == rf.argv.empty()) {
        err << "fakehost: give exactly one of --plugin DIR and -- ARGV...\n";
        return kBadInput;
      }
      if (!PickProtocol(DataDir(), &rf.protocol, rf.plugin_dir, err)) return kBadInput;
      return Run(rf, out, err);
    }
    if (manifest_check->parsed())
      return ManifestCheckCommand(DataDir(), manifest_dir, manifest_protocol, out, err);
    if (list->parsed()) return List(list_protocol, list_suite, list_only, list_skip, out, err);
    if (lint->parsed()) {
      int rc = List(lint_protocol, lint_suite, {}, {}, out, err);
      if (rc == kOk) out << "no errors\n";
      return rc;
    }
    if (check->parsed()) return SchemaCheckCommand(DataDir(), schema_file, out, err);
  } catch (const std::exception& e) {
    err << "fakehost: internal error: " << e.what() << "\n";
    return kHarnessError;
  }
  return kBadInput;
}

}  // namespace fakehost::cli
