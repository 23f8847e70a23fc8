// `fakehost fuzz`: generates sessions from the protocol's profile and schema, plays them against
// one plugin, and writes each finding as a shrunk scenario that `fakehost run --suite` replays.
#include <algorithm>
#include <iomanip>

#include "harness/cli/cli.hpp"
#include "harness/cli/command.hpp"
#include "harness/cli/flag_checks.hpp"
#include "harness/cli/manifest_command.hpp"
#include "harness/fuzz/fuzzer.hpp"
#include "harness/json/json.hpp"
#include "harness/process/child.hpp"
#include "harness/protocol/profile.hpp"
#include "harness/report/destination.hpp"
#include "harness/report/text.hpp"
#include "harness/run/runner.hpp"
#include "harness/scenario/duration.hpp"
#include "harness/schema/schema.hpp"

namespace fakehost::cli {
namespace {

struct FuzzFlags {
  std::string protocol;
  std::string plugin_dir;
  std::vector<std::string> argv;  ///< after --: the plugin's command line, verbatim
  std::string plugin_id;
  std::string config;  ///< --config FILE: the plugin's fakehost.yaml, when not beside it
  std::string budget = "60s";
  std::string shrink_budget = "60s";
  std::uint64_t seed = 1;
  std::string out_dir = "reports/fuzz";
  std::size_t max_findings = 0;
  std::size_t max_sessions = 0;
  int replays = 3;
  bool quiet = false;
};

std::string Seconds(double ms) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f s", ms / 1000);
  return buf;
}

// The summary: findings first, then what was exercised.
void Summarise(const fuzz::FuzzResult& r, const FuzzFlags& f, std::ostream& out) {
  const fuzz::FuzzStats& s = r.stats;
  double secs = s.fuzz_ms / 1000;
  out << "\nfakehost fuzz: " << s.sessions << " sessions in " << Seconds(s.fuzz_ms) << " ("
      << std::fixed << std::setprecision(1)
      << (secs > 0 ? static_cast<double>(s.sessions) / secs : 0) << std::defaultfloat
      << " sessions/s), " << s.plays << " plays, " << s.execs << " host writes; seed " << f.seed
      << "\n";
  if (r.issues.empty()) out << "no findings\n";
  for (const fuzz::Issue& i : r.issues) {
    out << (i.flaky ? "FLAKY " : "FOUND ") << report::TerminalSafe(i.finding.rule) << " ["
        << result::LevelName(i.finding.level) << "] in session " << i.session << " after "
        << Seconds(i.found_at_ms) << ": "
        << report::TerminalSafe(json::Abbreviate(i.finding.message, 240)) << "\n";
    out << "  reproduced " << i.hits << "/" << i.runs;
    if (!i.flaky)
      out << "; shrunk " << i.lines_before << " -> " << i.lines_after << " steps in "
          << Seconds(i.shrink_ms) << (i.shrink_capped ? " (shrink budget spent)" : "");
    out << "\n";
    if (!i.yaml_path.empty()) out << "  scenario:   " << i.yaml_path << "\n";
    if (!i.transcript_path.empty()) out << "  transcript: " << i.transcript_path << "\n";
  }
  if (s.harness_errors)
    out << "harness errors: " << s.harness_errors
        << " (first: " << report::TerminalSafe(s.first_harness_error) << ")\n";
  out << "schema entries exercised (" << s.defs.size() << "):";
  for (const auto& [def, n] : s.defs) out << " " << def << " x" << n;
  std::vector<std::pair<std::uint64_t, std::string>> cases;
  for (const auto& [c, n] : s.cases) cases.emplace_back(n, c);
  std::sort(cases.rbegin(), cases.rend());
  out << "\ncases (" << cases.size() << "):";
  for (std::size_t k = 0; k < cases.size() && k < 40; ++k)
    out << " " << cases[k].second << " x" << cases[k].first << (k + 1 < cases.size() ? "," : "");
  out << "\n";
  if (r.issues.empty()) return;
  out << "replay: fakehost run --suite " << f.out_dir;
  if (!f.plugin_dir.empty()) {
    out << " --plugin " << f.plugin_dir << "\n";
    return;
  }
  out << " --protocol " << f.protocol << " --";
  for (const std::string& word : f.argv) out << " " << report::TerminalSafe(word);
  out << "\n";
}

// What the fuzzer's scenarios say they were found on: the directory, or the command line.
std::string PluginLabel(const FuzzFlags& f) {
  if (!f.plugin_dir.empty()) return f.plugin_dir;
  std::string label;
  for (const std::string& word : f.argv) label += (label.empty() ? "" : " ") + word;
  return label;
}

// The flags that need no protocol: the budgets, the output directory and the counts.
bool ReadOptions(const FuzzFlags& f, fuzz::FuzzOptions* o, std::ostream& err) {
  std::string error;
  if (!scenario::ParseDuration(f.budget, &o->budget, &error)) {
    err << "fakehost: --budget " << f.budget << ": " << error << "\n";
    return false;
  }
  if (!scenario::ParseDuration(f.shrink_budget, &o->shrink_budget, &error)) {
    err << "fakehost: --shrink-budget " << f.shrink_budget << ": " << error << "\n";
    return false;
  }
  if (!report::CheckDestinationDir(f.out_dir, &error)) {
    err << "fakehost: --out " << f.out_dir << ": " << error << "\n";
    return false;
  }
  o->seed = f.seed;
  o->out_dir = f.out_dir;
  o->replays = std::max(f.replays, 0);
  o->max_findings = f.max_findings;
  o->max_sessions = f.max_sessions;
  o->progress = f.quiet ? nullptr : &err;
  o->plugin_label = PluginLabel(f);
  return true;
}

// The plugin to fuzz: one that is spawned, with the protocol's limits.
bool FindPlugin(const FuzzFlags& f, const protocol::Profile& profile,
                interpreter::PluginTarget* plugin, std::ostream& err) {
  std::string error;
  if (!run::ResolvePlugin(profile, run::PluginSpec{f.plugin_dir, f.argv, {}, f.plugin_id, f.config},
                          plugin, &error)) {
    err << "fakehost: " << error << "\n";
    return false;
  }
  if (!plugin->never_spawned.empty()) {
    err << "fakehost: " << PluginLabel(f) << ": " << plugin->never_spawned
        << ", so there is nothing to fuzz\n";
    return false;
  }
  if (!run::PluginLimits(profile, {}, &plugin->spawn.limits, &error)) {
    err << "fakehost: " << error << "\n";
    return false;
  }
  return true;
}

// What sessions are made of: the handshake fragment, the schema's frames and the plugin's
// triggers.
bool MakeCatalog(const std::string& data_dir, const protocol::Profile& profile,
                 const schema::FrameSchema& schema, const interpreter::PluginTarget& plugin,
                 fuzz::Catalog* catalog, std::ostream& err) {
  std::string error;
  std::vector<std::string> fragment_dirs = {
      data_dir + "/scenarios/" + profile.name() + "/fragments", profile.dir() + "/fragments"};
  fuzz::Json handshake = fuzz::FindHandshakeFragment(fragment_dirs, profile, &error);
  if (!handshake) {
    err << "fakehost: " << error << "\n";
    return false;
  }
  std::vector<std::string> triggers;
  std::vector<const rapidjson::Value*> requests;
  for (const auto& [name, value] : plugin.triggers) {
    triggers.push_back(name);
    requests.push_back(value.get());
  }
  if (!fuzz::BuildCatalog(profile, schema, handshake, triggers, catalog, &error)) {
    err << "fakehost: " << error << "\n";
    return false;
  }
  catalog->trigger_vars = fuzz::ScenarioOnlyVariables(profile, requests);
  return true;
}

int Fuzz(FuzzFlags& f, const Context& ctx) {
  std::ostream& err = ctx.err;
  fuzz::FuzzOptions o;
  if (!ReadOptions(f, &o, err)) return kBadInput;
  if (!PickProtocol(ctx.data_dir, &f.protocol, f.plugin_dir, err)) return kBadInput;
  auto profile = LoadProfile(ctx.data_dir, f.protocol, err);
  if (!profile) return kBadInput;
  auto schema = LoadFrameSchema(*profile, err);
  if (!schema) {
    err << "fakehost: fuzzing needs the protocol's frame schema\n";
    return kBadInput;
  }
  interpreter::PluginTarget plugin;
  if (!FindPlugin(f, *profile, &plugin, err)) return kBadInput;
  fuzz::Catalog catalog;
  if (!MakeCatalog(ctx.data_dir, *profile, *schema, plugin, &catalog, err)) return kBadInput;
  process::InitProcessEnvironment();  // a plugin that died must not take us down with SIGPIPE
  fuzz::Fuzzer fuzzer(*profile, schema.get(), plugin, catalog, o);
  fuzz::FuzzResult result = fuzzer.Run();
  Summarise(result, f, ctx.out);
  if (!result.issues.empty()) return kFailures;
  return result.stats.harness_errors > 0 ? kHarnessError : kOk;
}

}  // namespace

void AddFuzzCommand(CLI::App& app, Commands* commands) {
  auto f = std::make_shared<FuzzFlags>();
  CLI::App* fuzz = app.add_subcommand(
      "fuzz", "generate sessions from the protocol's schema and shrink findings to scenarios");
  fuzz->add_option("--plugin", f->plugin_dir,
                   "plugin directory (with its manifest, or a fakehost.yaml with command:)");
  AddPluginCommandLine(fuzz, &f->argv);
  fuzz->add_option("--plugin-id", f->plugin_id, "plugin id when there is no manifest");
  fuzz->add_option("--config", f->config,
                   "FILE: the plugin's fakehost.yaml (default: fakehost.yaml in --plugin DIR)");
  fuzz->add_option("--protocol,-p", f->protocol,
                   ProtocolsHelp(true) + " (default: detected from the --plugin directory)");
  fuzz->add_option("--budget", f->budget, "time spent fuzzing, shrinking not counted (60s)");
  fuzz->add_option("--seed", f->seed, "the seed: the same seed generates the same sessions (1)");
  fuzz->add_option("--out", f->out_dir, "where scenarios and transcripts go (reports/fuzz)");
  fuzz->add_option("--shrink-budget", f->shrink_budget, "time spent shrinking each finding (60s)");
  fuzz->add_option("--max-findings", f->max_findings, "stop after this many findings (0: none)");
  fuzz->add_option("--max-sessions", f->max_sessions, "stop after this many sessions (0: none)");
  fuzz->add_option("--replays", f->replays,
                   "plays of a failing session before shrinking, 1 to 100 (3)")
      ->check(CLI::Range(1, 100));
  fuzz->add_flag("--quiet,-q", f->quiet, "no progress lines");
  commands->push_back({fuzz, [f](const Context& ctx) {
                         if (!OnePlugin(f->plugin_dir, f->argv, ctx.err)) return int{kBadInput};
                         return Fuzz(*f, ctx);
                       }});
}

}  // namespace fakehost::cli
