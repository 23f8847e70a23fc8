#include "harness/cli/manifest_command.hpp"

#include <algorithm>
#include <filesystem>

#include "harness/cli/cli.hpp"
#include "harness/cli/command.hpp"
#include "harness/protocol/profile.hpp"
#include "harness/protocol/registry.hpp"
#include "harness/report/text.hpp"
#include "harness/run/plugin_config.hpp"

namespace fakehost::cli {

namespace fs = std::filesystem;

std::vector<plugin::KnownProtocol> KnownProtocols(const std::string& data_dir) {
  std::vector<plugin::KnownProtocol> known;
  for (const std::string& name : protocol::ProtocolNames(data_dir)) {
    std::string error;
    auto profile = protocol::Profile::Load(protocol::ProfilePath(data_dir, name), &error);
    if (profile) known.push_back({profile->name(), profile->manifest().file});  // "" if none
  }
  return known;
}

std::string UnknownProtocol(const std::string& data_dir, const std::string& name) {
  std::string known;
  for (const auto& p : KnownProtocols(data_dir)) known += (known.empty() ? "" : ", ") + p.name;
  return "unknown protocol '" + name + "' (known: " + (known.empty() ? "none" : known) + ")";
}

std::string DetectPluginProtocol(const std::string& plugin_dir,
                                 const std::vector<plugin::KnownProtocol>& known,
                                 std::string* error) {
  std::string found = plugin::DetectProtocol(plugin_dir, known, error);
  if (!found.empty()) return found;
  // A plugin without a manifest (its protocol identifies plugins by command line) names its
  // protocol in its fakehost.yaml; errors in that file are reported when the run reads it.
  std::error_code ec;
  const fs::path config = fs::path(plugin_dir) / run::kPluginConfigName;
  run::PluginConfig parsed;
  std::vector<scenario::LoadError> errors;
  if (fs::exists(config, ec) && run::ReadPluginConfig(config.string(), &parsed, &errors) &&
      !parsed.protocol.empty())
    return parsed.protocol;
  if (fs::is_directory(plugin_dir, ec))
    *error += std::string(" (a plugin without a manifest names its protocol in ") +
              run::kPluginConfigName + ")";
  return "";
}

bool PickProtocol(const std::string& data_dir, std::string* protocol, const std::string& plugin_dir,
                  std::ostream& err, const std::string& config) {
  if (!protocol->empty()) return true;
  if (plugin_dir.empty()) {
    // A command line names no protocol; the fakehost.yaml read for it may.
    run::PluginConfig parsed;
    std::vector<scenario::LoadError> errors;
    if (!config.empty() && run::ReadPluginConfig(config, &parsed, &errors) &&
        !parsed.protocol.empty()) {
      *protocol = parsed.protocol;
      return true;
    }
    std::string names;
    for (const plugin::KnownProtocol& k : KnownProtocols(data_dir))
      names += (names.empty() ? "" : ", ") + k.name;
    err << "fakehost: give --protocol (" << names
        << "): a command line does not say which protocol it speaks"
        << (config.empty() ? "" : ", and ") << (config.empty() ? "" : config + " names none")
        << "\n";
    return false;
  }
  std::string error;
  *protocol = DetectPluginProtocol(plugin_dir, KnownProtocols(data_dir), &error);
  if (protocol->empty()) err << "fakehost: " << error << "\n";
  return !protocol->empty();
}

int ManifestCheckCommand(const std::string& data_dir, const std::string& dir, std::string protocol,
                         std::ostream& out, std::ostream& err) {
  if (!PickProtocol(data_dir, &protocol, dir, err)) return kBadInput;
  const std::string profile_path = protocol::ProfilePath(data_dir, protocol);
  if (!fs::exists(profile_path)) {
    err << "fakehost: " << UnknownProtocol(data_dir, protocol) << "\n";
    return kBadInput;
  }
  std::string error;
  auto profile = protocol::Profile::Load(profile_path, &error);
  if (!profile) {
    err << "fakehost: " << error << "\n";
    return kBadInput;
  }
  plugin::ManifestCheck check = plugin::CheckManifest(*profile, dir);
  if (!check.readable) {
    err << "fakehost: " << check.error << "\n";
    return kBadInput;
  }
  for (const auto& p : check.problems) {
    // The message quotes the plugin's manifest: shown, never acted on.
    out << report::TerminalSafe(check.file);
    if (p.line > 0) out << ":" << p.line << ":" << p.column;
    out << ": " << report::TerminalSafe(p.message) << "  [" << p.rule << "]\n";
  }
  const std::string host = profile->title().empty() ? profile->name() : profile->title();
  if (check.loads) {
    out << report::TerminalSafe(check.file) << ": loads (" << host << ")\n";
    return kOk;
  }
  out << report::TerminalSafe(check.file) << ": refused, " << check.problems.size()
      << (check.problems.size() == 1 ? " problem" : " problems") << " (" << host << ")\n";
  return kFailures;
}

}  // namespace fakehost::cli

namespace fakehost::cli {

void AddManifestCommands(CLI::App& app, Commands* commands) {
  struct Flags {
    std::string dir, protocol;
  };
  auto f = std::make_shared<Flags>();
  CLI::App* manifest = app.add_subcommand("manifest", "work with a plugin's manifest");
  manifest->require_subcommand(1);
  CLI::App* check =
      manifest->add_subcommand("check", "check a manifest as the real host's loader would");
  check->add_option("dir", f->dir, "the plugin directory")->required();
  check->add_option("--protocol,-p", f->protocol,
                    ProtocolsHelp() + " (default: detected from the directory)");
  commands->push_back({check, [f](const Context& ctx) {
                         return ManifestCheckCommand(ctx.data_dir, f->dir, f->protocol, ctx.out,
                                                     ctx.err);
                       }});
}

}  // namespace fakehost::cli
