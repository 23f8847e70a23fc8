#include "harness/cli/flag_checks.hpp"

#include <algorithm>
#include <vector>

#include "harness/plugin/shape.hpp"
#include "harness/protocol/profile.hpp"
#include "harness/run/execute.hpp"

namespace fakehost::cli {
namespace {

void RequireValuesOf(CLI::App* app) {
  static const CLI::Validator kNotEmpty(
      [](std::string& value) {
        return value.empty() ? std::string("an empty value (give one, or leave the option out)")
                             : std::string();
      },
      "", "not empty");  // no description: --help shows the type alone
  for (CLI::Option* o : app->get_options()) {
    if (o->get_expected_max() == 0) continue;  // a flag: it takes no value
    if (o->get_name() == "argv") continue;     // the plugin's own arguments may be empty
    o->check(kNotEmpty);
  }
  for (CLI::App* sub : app->get_subcommands({})) RequireValuesOf(sub);
}

void OneValuePerOccurrenceOf(CLI::App* app) {
  for (CLI::Option* o : app->get_options()) {
    if (o->get_positional()) continue;  // `run`'s ARGV takes every word after --
    if (o->get_expected_max() > 1) o->allow_extra_args(false);
  }
  for (CLI::App* sub : app->get_subcommands({})) OneValuePerOccurrenceOf(sub);
}

}  // namespace

int MaxJobs() { return kJobsPerCore * run::DefaultJobs(); }

CLI::Validator JobsRange() {
  int max = MaxJobs();
  return CLI::Validator(
      [max](std::string& value) {
        int n = 0;
        if (!CLI::detail::lexical_cast(value, n) || n < 1 || n > max)
          return "'" + value + "' is not 1 to " + std::to_string(max) + " (" +
                 std::to_string(kJobsPerCore) + " per core, " + std::to_string(run::DefaultJobs()) +
                 " cores)";
        return std::string();
      },
      "1.." + std::to_string(max), "jobs");
}

std::string JobsHelp(const std::string& what) {
  return what + " in parallel: 1 to " + std::to_string(kJobsPerCore) + " per core, " +
         std::to_string(MaxJobs()) + " here (default: one per core)";
}

void RequireValues(CLI::App& app) { RequireValuesOf(&app); }

void OneValuePerOccurrence(CLI::App& app) { OneValuePerOccurrenceOf(&app); }

CLI::Option* AddPluginCommandLine(CLI::App* app, std::vector<std::string>* argv) {
  return app->add_option("argv", *argv,
                         "after --: the plugin's command line, every word passed verbatim");
}

bool OnePlugin(const std::string& plugin_dir, const std::vector<std::string>& argv,
               std::ostream& err) {
  if (plugin_dir.empty() != argv.empty()) return true;
  err << "fakehost: give exactly one of --plugin DIR and -- ARGV...\n";
  return false;
}

bool CheckPluginId(const protocol::Profile& profile, const std::string& id, std::string* error) {
  const protocol::ManifestSpec& spec = profile.manifest();
  // Without a manifest no schema says what an id is: any id names the plugin in reports.
  if (!profile.has_manifest() || spec.schema.empty() || spec.id.size() < 2) return true;
  // The protocols with a manifest keep the id at its top ("/plugin_id", "/id").
  std::string key = spec.id.substr(1);
  if (key.find_first_of("/~") != std::string::npos) return true;
  std::unique_ptr<plugin::ManifestShape> shape = plugin::ManifestShape::Load(spec.schema, error);
  if (!shape) return false;
  // A manifest holding only the id: every finding at the id's own pointer is about its value.
  rapidjson::Document manifest(rapidjson::kObjectType);
  auto& a = manifest.GetAllocator();
  manifest.AddMember(rapidjson::Value(key.c_str(), a), rapidjson::Value(id.c_str(), a), a);
  std::vector<plugin::Finding> findings;
  shape->Check(manifest, &findings);
  for (const plugin::Finding& f : findings) {
    if (f.pointer != spec.id) continue;
    *error = "--plugin-id '" + id + "': " + f.text + " (" + f.rule + ", " + profile.name() +
             " manifest " + spec.id + ")";
    return false;
  }
  return true;
}

}  // namespace fakehost::cli
