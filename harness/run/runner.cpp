// The run layer's pieces but plugin resolution (resolve_plugin.cpp): suites, selection, the one
// way to play a scenario, limits.
#include "harness/run/runner.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <filesystem>
#include <map>

#include "harness/run/manifest_scenario.hpp"
#include "harness/scenario/loader.hpp"

namespace fakehost::run {

namespace fs = std::filesystem;

bool LoadSuites(const std::vector<std::string>& suite_dirs, const std::string& standard_dir,
                const protocol::Profile& profile, std::vector<scenario::Scenario>* out,
                std::vector<std::string>* errors) {
  std::error_code ec;
  bool ok = true;
  std::map<std::string, std::string> file_of;  // id -> the file that defined it first
  for (const scenario::Scenario& s : *out) file_of.emplace(s.id, s.loc.file);
  if (profile.has_manifest())
    file_of.emplace(kManifestScenarioId, "the manifest check fakehost plays itself");
  for (const std::string& suite_dir : suite_dirs) {
    if (!fs::is_directory(suite_dir, ec)) {
      errors->push_back("suite " + suite_dir + " is not a directory");
      ok = false;
      continue;
    }
    scenario::LoadContext context;
    for (const fs::path& dir :
         {fs::path(suite_dir), fs::path(standard_dir), fs::path(profile.dir())}) {
      std::string fragments = (dir / "fragments").lexically_normal().string();
      if (std::find(context.fragment_dirs.begin(), context.fragment_dirs.end(), fragments) ==
          context.fragment_dirs.end())
        context.fragment_dirs.push_back(fragments);
    }
    for (const std::string& path : scenario::FindScenarioFiles(suite_dir)) {
      scenario::Scenario s;
      std::vector<scenario::LoadError> file_errors;
      if (!scenario::LoadScenarioFile(path, scenario::ScenarioIdFor(suite_dir, path), context, &s,
                                      &file_errors)) {
        ok = false;
        for (const auto& e : file_errors) errors->push_back(e.ToString());
        continue;
      }
      auto [first, fresh] = file_of.emplace(s.id, path);
      if (!fresh) {
        errors->push_back(path + ": the scenario id " + s.id + " is also that of " + first->second +
                          " (ids must be unique across suites)");
        ok = false;
        continue;
      }
      out->push_back(std::move(s));
    }
  }
  std::sort(out->begin(), out->end(),
            [](const scenario::Scenario& a, const scenario::Scenario& b) { return a.id < b.id; });
  return ok;
}

std::vector<std::string> SuiteDirs(const std::vector<std::string>& flags,
                                   const std::string& standard_dir) {
  std::vector<std::string> dirs;
  std::vector<fs::path> seen;
  for (const std::string& flag : flags.empty() ? std::vector<std::string>{"standard"} : flags) {
    std::string dir = flag == "standard" ? standard_dir : flag;
    std::error_code ec;
    fs::path key = fs::weakly_canonical(dir, ec);
    if (ec) key = fs::path(dir).lexically_normal();
    if (!key.has_filename()) key = key.parent_path();  // "mine/" is "mine"
    if (std::find(seen.begin(), seen.end(), key) != seen.end()) continue;
    seen.push_back(key);
    dirs.push_back(dir);
  }
  return dirs;
}

bool LoadSuite(const std::string& suite_dir, const protocol::Profile& profile,
               std::vector<scenario::Scenario>* out, std::vector<std::string>* errors) {
  return LoadSuites({suite_dir}, suite_dir, profile, out, errors);
}

std::vector<const scenario::Scenario*> Select(const std::vector<scenario::Scenario>& all,
                                              const Selection& selection) {
  auto matches = [](const std::vector<std::string>& globs, const std::string& id) {
    return std::any_of(globs.begin(), globs.end(), [&](const std::string& g) {
      return fnmatch(g.c_str(), id.c_str(), 0) == 0;
    });
  };
  auto tagged = [](const std::vector<std::string>& wanted, const scenario::Scenario& s) {
    return std::any_of(wanted.begin(), wanted.end(), [&](const std::string& t) {
      return std::find(s.tags.begin(), s.tags.end(), t) != s.tags.end();
    });
  };
  std::vector<const scenario::Scenario*> out;
  for (const auto& s : all) {
    if ((selection.only.empty() || matches(selection.only, s.id)) &&
        (selection.tags.empty() || tagged(selection.tags, s)) && !matches(selection.skip, s.id) &&
        !tagged(selection.skip_tags, s))
      out.push_back(&s);
  }
  return out;
}

result::ScenarioResult PlayScenario(const scenario::Scenario& s, const protocol::Profile& profile,
                                    const schema::FrameSchema* schema,
                                    const interpreter::PluginTarget& plugin,
                                    const interpreter::PlayOptions& options) {
  result::ScenarioResult r;
  if (options.interrupted && options.interrupted->load()) {
    r = scenario::ResultFor(s, result::Status::kNotRun);
    r.skip_reason = "interrupted";
    return r;
  }
  if (!plugin.never_spawned.empty()) {
    r = scenario::ResultFor(s, result::Status::kSkip);
    r.skip_reason = plugin.never_spawned;
    return r;
  }
  try {
    r = interpreter::Play(s, profile, schema, plugin, options);
  } catch (const std::exception& e) {
    // A harness bug or an exhausted resource: this scenario is an error, the run goes on.
    r = scenario::ResultFor(s, result::Status::kError);
    result::Failure f;
    f.harness_error = true;
    f.reason = result::Reason::kHarnessFault;
    f.check = "harness";
    f.message = std::string("internal error: ") + e.what();
    r.failures.push_back(std::move(f));
  }
  return r;
}

bool PluginLimits(const protocol::Profile& profile, const LimitFlags& flags, process::Limits* out,
                  std::string* error) {
  protocol::LimitsSpec limits;
  if (!protocol::ResolveLimits(profile.limits(), flags.cpu_seconds, flags.memory_mib, &limits,
                               error))
    return false;
  *out = {limits.cpu_seconds, limits.address_space_bytes};
  return true;
}

}  // namespace fakehost::run
