// `fakehost list` and `fakehost lint`: a suite's scenarios, and its errors.
#include "harness/cli/cli.hpp"
#include "harness/cli/command.hpp"
#include "harness/protocol/profile.hpp"
#include "harness/report/text.hpp"
#include "harness/run/manifest_scenario.hpp"
#include "harness/run/runner.hpp"
#include "harness/run/shard.hpp"

namespace fakehost::cli {
namespace {

struct ListFlags {
  std::string protocol;
  std::vector<std::string> suites;  ///< --suite DIR (repeatable; `standard`: scenarios/<protocol>)
  run::Selection selection;
  std::string shard;  ///< --shard K/N: only the scenarios `run --shard K/N` would play
};

int List(const ListFlags& f, const Context& ctx) {
  std::ostream& out = ctx.out;
  std::ostream& err = ctx.err;
  auto profile = LoadProfile(ctx.data_dir, f.protocol, err);
  if (!profile) return kBadInput;
  int shard = 0, shards = 0;
  std::string error;
  if (!f.shard.empty() && !run::ParseShard(f.shard, &shard, &shards, &error)) {
    err << "fakehost: " << error << "\n";
    return kBadInput;
  }
  std::string standard = StandardSuite(ctx.data_dir, *profile);
  std::vector<scenario::Scenario> scenarios;
  std::vector<std::string> errors;
  bool ok =
      run::LoadSuites(run::SuiteDirs(f.suites, standard), standard, *profile, &scenarios, &errors);
  for (const auto& e : errors) err << e << "\n";
  if (profile->has_manifest()) scenarios.insert(scenarios.begin(), run::ManifestScenario(*profile));
  auto selected = run::Select(scenarios, f.selection);
  bool none = selected.empty();
  if (shards > 0) selected = run::Shard(selected, shard, shards);
  for (const auto* s : selected)
    out << report::TerminalSafe(s->id) << "  [" << result::LevelName(s->level) << "] "
        << report::TerminalSafe(s->spec) << " — " << report::TerminalSafe(s->title) << "\n";
  if (!ok) return kBadInput;
  if (none) {
    err << "fakehost: no scenario selected\n";
    return kBadInput;
  }
  return kOk;
}

}  // namespace

void AddListCommands(CLI::App& app, Commands* commands) {
  auto lf = std::make_shared<ListFlags>();
  CLI::App* list = app.add_subcommand("list", "list a suite's scenarios");
  list->add_option("--protocol,-p", lf->protocol, ProtocolsHelp(true))->required();
  list->add_option(
      "--suite", lf->suites,
      "scenario directory, repeatable; 'standard' is scenarios/<protocol>, the default");
  list->add_option("--only", lf->selection.only, "glob");
  list->add_option("--skip", lf->selection.skip, "glob");
  list->add_option("--tag", lf->selection.tags, "only scenarios with this tag (repeatable)");
  list->add_option("--skip-tag", lf->selection.skip_tags,
                   "skip scenarios with this tag (repeatable)");
  list->add_option("--shard", lf->shard, "K/N: the scenarios `run --shard K/N` plays");
  commands->push_back({list, [lf](const Context& ctx) { return List(*lf, ctx); }});

  auto nf = std::make_shared<ListFlags>();
  CLI::App* lint = app.add_subcommand("lint", "load a suite and report every error");
  lint->add_option("--protocol,-p", nf->protocol, ProtocolsHelp(true))->required();
  lint->add_option("--suite", nf->suites, "scenario directory, repeatable (as for list)");
  commands->push_back({lint, [nf](const Context& ctx) {
                         int rc = List(*nf, ctx);
                         if (rc == kOk) ctx.out << "no errors\n";
                         return rc;
                       }});
}

}  // namespace fakehost::cli
