#include "harness/plugin/manifest.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "harness/json/json.hpp"
#include "harness/json/text_file.hpp"
#include "harness/plugin/cross_rules.hpp"
#include "harness/plugin/json_locate.hpp"
#include "harness/plugin/shape.hpp"

namespace fakehost::plugin {
namespace {

namespace fs = std::filesystem;

// The rules every protocol shares, reported by the parser and by the shape check itself.
const std::vector<RuleInfo>& StructuralRules() {
  static const std::vector<RuleInfo> rules = {
      {"json-syntax", "the manifest is a JSON document (RFC 8259)"},
      {"duplicate-key",
       "chosen: a key given twice in one object is refused (the author meant one of them)"},
      {"unknown-field", "the loader refuses any key it does not know, at every level"},
      {"missing-field", "a required key is absent"},
      {"type", "a value has the wrong JSON type"},
  };
  return rules;
}

// "invalid value at byte 12" -> "invalid value": line:column replaces the byte offset.
std::string WithoutOffset(std::string message) {
  if (auto at = message.rfind(" at byte "); at != std::string::npos) message.resize(at);
  if (auto at = message.rfind(" ending at byte "); at != std::string::npos) message.resize(at);
  return message;
}

ManifestProblem Render(const Finding& f, const rapidjson::Value& doc, std::string_view text,
                       const std::string& shown_file) {
  ManifestProblem p;
  p.rule = f.rule;
  p.pointer = f.pointer;
  std::string path = PointerToPath(doc, f.pointer);
  p.message = shown_file + (path.empty() ? "" : " " + path) + " " + f.text;
  if (auto offset = LocatePointer(text, f.locate, f.at_key)) {
    json::LineCol lc = json::LocateOffset(text, *offset);
    p.line = lc.line;
    p.column = lc.column;
  }
  return p;
}

}  // namespace

ManifestCheck CheckManifestText(const protocol::Profile& profile, std::string_view text,
                                const std::string& file, const std::string& plugin_dir) {
  ManifestCheck check;
  check.file = file;
  if (!profile.has_manifest()) {
    check.error = profile.name() + " plugins have no manifest (a plugin is its command line)";
    return check;
  }
  const std::string shown_file = profile.manifest().file;
  std::unique_ptr<ManifestShape> shape;
  if (!profile.manifest().schema.empty()) {
    shape = ManifestShape::Load(profile.manifest().schema, &check.error);
    if (!shape) return check;
  }
  const rapidjson::Value* rules = profile.manifest_rules();
  if (rules && !CheckRuleData(*rules, &check.error)) {
    check.error = profile.dir() + "/profile.json: " + check.error;
    return check;
  }
  check.readable = true;
  auto doc = std::make_shared<rapidjson::Document>();
  json::ParseResult parsed = json::Parse(text, doc.get());
  if (!parsed.ok) {
    ManifestProblem p;
    p.rule = "json-syntax";
    p.message = shown_file + " is not valid JSON: " + WithoutOffset(parsed.error);
    json::LineCol lc = json::LocateOffset(text, parsed.error_offset);
    p.line = lc.line;
    p.column = lc.column;
    check.problems.push_back(std::move(p));
    return check;
  }
  check.manifest = doc;
  std::vector<Finding> findings;
  for (const std::string& dup : parsed.duplicate_keys)
    findings.push_back({"duplicate-key", dup, "is given more than once", dup, true});
  if (shape) shape->Check(*doc, &findings);
  if (rules) ApplyRules(*rules, *doc, plugin_dir, &findings);
  for (const Finding& f : findings) check.problems.push_back(Render(f, *doc, text, shown_file));
  // In file order, so that the list reads top to bottom; problems without a place come last.
  std::stable_sort(check.problems.begin(), check.problems.end(),
                   [](const ManifestProblem& a, const ManifestProblem& b) {
                     auto key = [](const ManifestProblem& p) {
                       return std::make_pair(p.line == 0 ? 1 << 30 : p.line, p.column);
                     };
                     return key(a) < key(b);
                   });
  check.loads = check.problems.empty();
  return check;
}

ManifestCheck CheckManifest(const protocol::Profile& profile, const std::string& plugin_dir) {
  if (!profile.has_manifest()) return CheckManifestText(profile, "", plugin_dir, plugin_dir);
  const std::string file = (fs::path(plugin_dir) / profile.manifest().file).string();
  std::error_code ec;
  if (!fs::is_directory(plugin_dir, ec)) {
    ManifestCheck check;
    check.file = file;
    check.error = "plugin directory " + plugin_dir + " does not exist";
    return check;
  }
  struct stat st {};
  if (::lstat(file.c_str(), &st) != 0) {
    ManifestCheck check;
    check.file = file;
    check.error = "plugin directory " + plugin_dir + " has no " + profile.manifest().file;
    return check;
  }
  std::string text, error;
  if (!json::ReadFileCapped(file, json::kInputFileCap, &text, &error)) {
    ManifestCheck check;
    check.file = file;
    check.error = error;
    return check;
  }
  return CheckManifestText(profile, text, file, plugin_dir);
}

bool KnownRules(const protocol::Profile& profile, std::vector<RuleInfo>* out, std::string* error) {
  std::set<std::string> seen;
  auto add = [&](const std::string& id, const std::string& source) {
    if (seen.insert(id).second) out->push_back({id, source});
  };
  if (!profile.has_manifest()) return true;  // nothing to check, so no rule
  for (const RuleInfo& r : StructuralRules()) add(r.id, r.source);
  if (!profile.manifest().schema.empty()) {
    auto shape = ManifestShape::Load(profile.manifest().schema, error);
    if (!shape) return false;
    for (const auto& [id, source] : shape->Rules()) add(id, source);
  }
  if (const rapidjson::Value* rules = profile.manifest_rules()) {
    if (!CheckRuleData(*rules, error)) return false;
    for (const auto& r : rules->GetArray())
      add(json::Find(r, "rule")->GetString(), json::Find(r, "source")->GetString());
  }
  return true;
}

std::string DetectProtocol(const std::string& plugin_dir, const std::vector<KnownProtocol>& known,
                           std::string* error) {
  std::vector<const KnownProtocol*> found;
  std::string files;
  for (const KnownProtocol& k : known) {
    if (k.manifest_file.empty()) continue;  // its plugins have no manifest to be found by
    files += (files.empty() ? "" : " or ") + k.manifest_file;
    struct stat st {};
    if (::lstat((fs::path(plugin_dir) / k.manifest_file).c_str(), &st) == 0) found.push_back(&k);
  }
  std::error_code ec;
  if (!fs::is_directory(plugin_dir, ec)) {
    *error = "plugin directory " + plugin_dir + " does not exist";
    return "";
  }
  if (found.size() == 1) return found[0]->name;
  if (found.empty()) {
    *error = "plugin directory " + plugin_dir + " has no manifest (" + files +
             "): cannot tell its protocol";
    return "";
  }
  *error = "plugin directory " + plugin_dir + " holds " + found[0]->manifest_file + " and " +
           found[1]->manifest_file + ": give --protocol";
  return "";
}

}  // namespace fakehost::plugin
