// `fakehost list` and `fakehost lint`: a suite's scenarios, and its errors.
#include "harness/cli/cli.hpp"
#include "harness/cli/command.hpp"
#include "harness/protocol/profile.hpp"
#include "harness/run/manifest_scenario.hpp"
#include "harness/run/runner.hpp"

namespace fakehost::cli {
namespace {

int List(const std::string& protocol, const std::string& suite_flag,
         const std::vector<std::string>& only, const std::vector<std::string>& skip,
         const Context& ctx) {
  std::ostream& out = ctx.out;
  std::ostream& err = ctx.err;
  auto profile = LoadProfile(ctx.data_dir, protocol, err);
  if (!profile) return kBadInput;
  std::string suite = suite_flag.empty() ? ctx.data_dir + "/scenarios/" + protocol : suite_flag;
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

struct ListFlags {
  std::string protocol, suite;
  std::vector<std::string> only, skip;
};

}  // namespace

void AddListCommands(CLI::App& app, Commands* commands) {
  auto lf = std::make_shared<ListFlags>();
  CLI::App* list = app.add_subcommand("list", "list a suite's scenarios");
  list->add_option("--protocol,-p", lf->protocol, "rim-v1 or flash-v1")->required();
  list->add_option("--suite", lf->suite, "scenario directory");
  list->add_option("--only", lf->only, "glob");
  list->add_option("--skip", lf->skip, "glob");
  commands->push_back({list, [lf](const Context& ctx) {
                         return List(lf->protocol, lf->suite, lf->only, lf->skip, ctx);
                       }});

  auto nf = std::make_shared<ListFlags>();
  CLI::App* lint = app.add_subcommand("lint", "load a suite and report every error");
  lint->add_option("--protocol,-p", nf->protocol, "rim-v1 or flash-v1")->required();
  lint->add_option("--suite", nf->suite, "scenario directory");
  commands->push_back({lint, [nf](const Context& ctx) {
                         int rc = List(nf->protocol, nf->suite, {}, {}, ctx);
                         if (rc == kOk) ctx.out << "no errors\n";
                         return rc;
                       }});
}

}  // namespace fakehost::cli
