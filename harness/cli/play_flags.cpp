#include "harness/cli/play_flags.hpp"

#include <type_traits>
#include <variant>

#include "harness/cli/command.hpp"
#include "harness/cli/flag_checks.hpp"

namespace fakehost::cli {
namespace {

using Member = std::variant<std::string PlayFlags::*, std::vector<std::string> PlayFlags::*,
                            int PlayFlags::*, bool PlayFlags::*>;

// One row per flag: its names, its member, its help (a command's words where it has them), and
// the check of its value, if any.
struct Row {
  const char* names;
  Member member;
  std::string (*help)(const PlayFlagWords&);
  CLI::Validator (*check)() = nullptr;
};

const Row kRows[] = {
    {"--protocol,-p", &PlayFlags::protocol,
     [](const PlayFlagWords& w) {
       return ProtocolsHelp(true) + " (default: " + w.protocol_default + ")";
     }},
    {"--only", &PlayFlags::only,
     [](const PlayFlagWords&) {
       return std::string("run only scenario ids matching this glob (repeatable)");
     }},
    {"--skip", &PlayFlags::skip,
     [](const PlayFlagWords&) {
       return std::string("skip scenario ids matching this glob (repeatable)");
     }},
    {"--jobs,-j", &PlayFlags::jobs, [](const PlayFlagWords& w) { return JobsHelp(w.jobs_over); },
     &JobsRange},
    {"--report", &PlayFlags::reports, [](const PlayFlagWords& w) { return w.report_help; }},
    {"--out", &PlayFlags::out_dir,
     [](const PlayFlagWords& w) {
       return "directory for " + w.out_file + " (default " + w.out_default + ")";
     }},
    {"--shard", &PlayFlags::shard, [](const PlayFlagWords& w) { return "K/N: " + w.shard_help; }},
    {"--timeout", &PlayFlags::timeout,
     [](const PlayFlagWords&) {
       return std::string("hard limit per scenario (default: the profile's)");
     }},
    {"--strict", &PlayFlags::strict,
     [](const PlayFlagWords&) { return std::string("should-level misses fail the run"); }},
    {"--revision", &PlayFlags::revision, [](const PlayFlagWords& w) { return w.revision_help; }},
};

}  // namespace

void AddPlayFlags(CLI::App* app, PlayFlags* flags, const PlayFlagWords& words) {
  flags->out_dir = words.out_default;
  for (const Row& row : kRows) {
    std::string help = row.help(words);
    std::visit(
        [&](auto member) {
          auto& value = flags->*member;
          if constexpr (std::is_same_v<std::decay_t<decltype(value)>, bool>) {
            app->add_flag(row.names, value, help);
          } else {
            CLI::Option* option = app->add_option(row.names, value, help);
            if (row.check) option->check(row.check());
          }
        },
        row.member);
  }
}

}  // namespace fakehost::cli
