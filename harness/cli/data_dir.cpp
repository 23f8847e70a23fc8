#include <cstdlib>
#include <filesystem>

#include "harness/cli/command.hpp"
#include "harness/cli/data_dir.hpp"
#include "harness/cli/manifest_command.hpp"
#include "harness/protocol/profile.hpp"
#include "harness/protocol/registry.hpp"
#include "harness/schema/schema.hpp"

#ifndef FAKEHOST_DATA_DIR
#define FAKEHOST_DATA_DIR "."
#endif

namespace fakehost::cli {

std::string ResolveDataDir(const char* home, const std::string& exe, const std::string& built_in) {
  if (home && *home) return home;
  if (!exe.empty()) {
    std::filesystem::path beside =
        std::filesystem::path(exe).parent_path().parent_path() / "share" / "fakehost";
    std::error_code ec;
    if (std::filesystem::is_directory(beside, ec)) return beside.string();
  }
  return built_in;
}

std::string DataDir() {
  // /proc/self/exe names the binary with every symlink resolved, so a fakehost linked into
  // another bin/ still finds the share/ of the prefix it was installed to.
  std::error_code ec;
  std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ResolveDataDir(std::getenv("FAKEHOST_HOME"), ec ? std::string() : exe.string(),
                        FAKEHOST_DATA_DIR);
}

std::string ProtocolsHelp(bool or_a_path) {
  std::vector<std::string> names = protocol::ProtocolNames(DataDir());
  if (or_a_path || names.empty()) names.push_back(or_a_path ? "a profile.json path" : "a name");
  std::string text;
  for (std::size_t i = 0; i < names.size(); ++i)
    text += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
  return text;
}

bool IsProfilePath(const std::string& name) {
  return name.find('/') != std::string::npos ||
         (name.size() > 5 && name.compare(name.size() - 5, 5, ".json") == 0);
}

std::string StandardSuite(const std::string& data_dir, const protocol::Profile& profile) {
  // X/schema/<p>/profile.json goes with X/scenarios/<p>: a copied data dir plays its own suite.
  std::filesystem::path beside = std::filesystem::path(profile.dir()).parent_path().parent_path() /
                                 "scenarios" / profile.name();
  std::error_code ec;
  if (std::filesystem::is_directory(beside, ec)) return beside.string();
  return data_dir + "/scenarios/" + profile.name();
}

std::unique_ptr<protocol::Profile> LoadProfile(const std::string& data_dir, const std::string& name,
                                               std::ostream& err) {
  std::string path = IsProfilePath(name) ? name : protocol::ProfilePath(data_dir, name);
  if (IsProfilePath(name) && !std::filesystem::exists(path)) {
    err << "fakehost: no profile at " << path << "\n";
    return nullptr;
  }
  if (!std::filesystem::exists(path)) {
    err << "fakehost: " << UnknownProtocol(data_dir, name) << "\n";
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

}  // namespace fakehost::cli
