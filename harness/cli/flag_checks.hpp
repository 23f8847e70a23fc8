// Flags are input like any other: each is checked when the command line is parsed, before
// anything is loaded or spawned, and a bad one is exit 2 with the flag's name (CLI11 validators,
// so the message reads "--jobs: ..." like every other parse error).
#pragma once

#include <CLI/CLI.hpp>
#include <ostream>
#include <string>
#include <vector>

namespace fakehost::protocol {
class Profile;
}

namespace fakehost::cli {

/// `--jobs` at most this many: kJobsPerCore × the cores (run::DefaultJobs, the default).
/// Scenarios mostly wait on their plugin, so a few per core keep the CPU busy; far more only
/// queue, each with a live plugin and its deadlines running while it waits for the CPU.
constexpr int kJobsPerCore = 4;
int MaxJobs();
/// `--jobs N`: 1 to MaxJobs(); the help text states the bound.
CLI::Validator JobsRange();
std::string JobsHelp(const std::string& what);

/// `--repeat N`: 1 to kMaxRepeat (every play's result is kept for the report).
constexpr int kMaxRepeat = 10000;

/// Gives every option of `app` and its subcommands that takes a value a check that the value is
/// not empty: `--timeout ''` or `--out ''` would otherwise silently mean "absent" (or "/").
/// Flags are left alone, and so is `run`'s trailing ARGV, whose arguments after the first are
/// the plugin's own (the program name itself is checked by run::ResolvePlugin).
void RequireValues(CLI::App& app);

/// Gives every repeatable option of `app` and its subcommands one value per occurrence (`--only A
/// --only B`). CLI11 otherwise lets a vector option take every following word, and the `--` that
/// ends such a list would not end fakehost's own flags: `--only 'x/*' -- npx -y pkg` refused
/// `-y` as an unknown flag.
void OneValuePerOccurrence(CLI::App& app);

/// The trailing positional "argv" of a command that takes a plugin's command line (`run`,
/// `fuzz`): every word after `--` is the plugin's, verbatim, options of fakehost's own names
/// (`-y`, `--protocol`, `--help`, `--`) included.
CLI::Option* AddPluginCommandLine(CLI::App* app, std::vector<std::string>* argv);

/// Exactly one of --plugin DIR and -- ARGV: false with a message on `err` otherwise.
bool OnePlugin(const std::string& plugin_dir, const std::vector<std::string>& argv,
               std::ostream& err);

/// A `--plugin-id` the profile's manifest schema accepts at its id (the id goes to the plugin in
/// the handshake: one its host would refuse makes every scenario time out). False with `*error`
/// ("--plugin-id 'x': must be ...") otherwise; true when the profile has no manifest or no manifest
/// schema.
bool CheckPluginId(const protocol::Profile& profile, const std::string& id, std::string* error);

}  // namespace fakehost::cli
