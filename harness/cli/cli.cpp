// The front end: parses the command line and dispatches to the command that was given. Each
// command wires its own flags in its own file (command.hpp).
#include "harness/cli/cli.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <filesystem>
#include <string_view>

#include "harness/cli/command.hpp"
#include "harness/cli/flag_checks.hpp"
#include "harness/cli/printable_stream.hpp"
#include "harness/protocol/profile.hpp"
#include "harness/protocol/registry.hpp"
#include "harness/run/suite_version.hpp"

#ifndef FAKEHOST_VERSION
#define FAKEHOST_VERSION "0.0.0"
#endif

namespace fakehost::cli {
namespace {

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

// `fakehost --version`: the tool's version, then one line per suite installed in the data
// directory with its scenario count and digest (harness/run/suite_version.hpp), so a CI log says
// exactly which scenarios a run could play.
void PrintVersion(const std::string& data_dir, std::ostream& out, std::ostream& err) {
  out << "fakehost " << FAKEHOST_VERSION << "\n";
  std::vector<std::filesystem::path> suites;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(data_dir + "/scenarios", ec))
    if (entry.is_directory(ec)) suites.push_back(entry.path());
  std::sort(suites.begin(), suites.end());
  for (const auto& suite : suites) {
    run::SuiteVersion v;
    std::string error;
    if (!run::ReadSuiteVersion(suite.string(), &v, &error)) {
      err << "fakehost: " << error << "\n";
      continue;
    }
    // The count is `fakehost list`'s: the built-in manifest/loads-in-host heads the suite of a
    // protocol whose plugins have a manifest. The pinned revision, or the revisions the profile
    // knows, follow.
    const std::string name = suite.filename().string();
    auto profile = protocol::Profile::Load(protocol::ProfilePath(data_dir, name), &error);
    const bool manifest = !profile || profile->has_manifest();
    out << "suite " << name << " " << v.scenarios + (manifest ? 1 : 0) << " scenarios " << v.digest;
    if (profile && !profile->revision().empty()) out << " revision " << profile->revision();
    if (profile && profile->revisions())
      out << " revisions " << profile->revisions()->KnownList() << " (offers "
          << profile->revisions()->offer << ")";
    out << "\n";
  }
}

}  // namespace

int Main(int argc, char** argv, std::ostream& out, std::ostream& raw_err) {
  // Every message on standard error may quote hostile input (printable_stream.hpp).
  PrintableStream err(raw_err);
  CLI::App app{"fakehost: a conformance harness for stdio plugin protocols"};
  app.require_subcommand(1);
  app.set_version_flag("--version", FAKEHOST_VERSION);

  Commands commands;
  AddRunCommand(app, &commands);
  AddListCommands(app, &commands);
  AddManifestCommands(app, &commands);
  AddSchemaCommands(app, &commands);
  AddInitCommand(app, &commands);
  AddCertifyCommands(app, &commands);
  AddReportCommands(app, &commands);
  AddFuzzCommand(app, &commands);
  AddScenarioCommands(app, &commands);
  RequireValues(app);
  OneValuePerOccurrence(app);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    out << app.help();
    return kOk;
  } catch (const CLI::CallForVersion&) {
    PrintVersion(DataDir(), out, err);
    return kOk;
  } catch (const CLI::ParseError& e) {
    std::string help = e.get_name() == "CallForHelp" ? "" : "run 'fakehost --help' for usage";
    err << "fakehost: " << e.what() << NearestFlag(app, argc, argv) << "\n" << help << "\n";
    return kBadInput;
  }
  Context ctx{DataDir(), out, err};
  try {
    for (const Command& c : commands)
      if (c.app->parsed()) return c.action(ctx);
  } catch (const std::exception& e) {
    err << "fakehost: internal error: " << e.what() << "\n";
    return kHarnessError;
  }
  return kBadInput;
}

}  // namespace fakehost::cli
