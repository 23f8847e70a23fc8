#include "harness/scenario/loader.hpp"

#include <algorithm>
#include <filesystem>

#include "harness/json/text_file.hpp"
#include "harness/scenario/reader.hpp"
#include "harness/scenario/yaml_json.hpp"

namespace fakehost::scenario {
namespace fs = std::filesystem;

namespace {

// A fragment name is a relative path without "..": "handshake", "rim/handshake".
bool ValidFragmentName(std::string_view name) {
  if (name.empty() || name.front() == '/' || name.back() == '/') return false;
  for (char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '-' || c == '.' || c == '/';
    if (!ok) return false;
  }
  return ("/" + std::string(name) + "/").find("/../") == std::string::npos;
}

}  // namespace

namespace internal {

// Every top-level key of a scenario file, in the format's order: the header (ReadHeader), the
// variables and the host block (ReadHost), then the steps.
void Reader::ReadScenario(const YamlNode& root, const std::string& file, Scenario* out) {
  file_ = file;
  out->loc = {file, 1, 1};
  if (root.IsNull()) {
    Error(root.Mark(), "the scenario file is empty");
    return;
  }
  if (!root.IsMap()) {
    Error(root.Mark(), "a scenario is a map with title, spec, requirement and steps");
    return;
  }
  const std::vector<Entry> entries = Entries(root);
  OnlyKeys(entries,
           {"title", "cites", "judged_by", "triggers", "spec", "requirement", "level", "tags",
            "requires", "vars", "host", "config", "timeout", "steps"},
           "a scenario");
  ReadHeader(root, entries, out);
  if (const Entry* vars = Find(entries, "vars")) {
    if (!vars->value.IsMap()) Error(vars->value.Mark(), "vars must be a map of name: value");
    for (const Entry& var : Entries(vars->value)) {
      std::string name;
      if (!Identifier(var.key_node, "a variable", &name)) continue;
      if (JsonPtr value = Json(var.value)) out->vars[name] = value;
    }
  }
  vars_ = &out->vars;
  if (const Entry* host = Find(entries, "host")) ReadHost(*host, out);
  if (const Entry* config = Find(entries, "config")) {
    if (!config->value.IsMap())
      Error(config->value.Mark(), "config must be a map (the plugin's configuration object)");
    else
      out->config = Json(config->value);
  }
  if (const Entry* timeout = Find(entries, "timeout"))
    Duration(timeout->value, "timeout", &out->timeout);
  if (const Entry* steps = Find(entries, "steps")) {
    Scope scope;
    if (steps->value.IsSequence() && steps->value.size() == 0)
      Error(steps->value.Mark(), "steps must not be empty");
    Steps(steps->value, &scope, &out->steps);
  } else {
    Error(root.Mark(), "missing required key 'steps'");
  }
  ResolvePendingReplyTo();
}

// What the scenario is and when it applies: cites, judged_by, triggers, level, title, spec,
// requirement, tags and requires.
void Reader::ReadHeader(const YamlNode& root, const std::vector<Entry>& entries, Scenario* out) {
  const Entry* cites = Find(entries, "cites");
  if (cites) ReadCites(cites->value, out);
  if (const Entry* judged = Find(entries, "judged_by")) {
    std::string by;
    if (String(judged->value, "judged_by", &by) && by != "offered" && by != "negotiated")
      Error(judged->value.Mark(), "judged_by is offered or negotiated, not '" + by + "'");
    else if (!cites)
      Error(judged->key_node.Mark(), "judged_by needs cites (the revisions it judges by)");
    out->judged_by_offered = by == "offered";
  }
  if (const Entry* triggers = Find(entries, "triggers")) {
    std::string which;
    if (String(triggers->value, "triggers", &which) && which != "any" && which != "all")
      Error(triggers->value.Mark(), "triggers is any or all, not '" + which + "'");
    out->any_trigger = which == "any";
  }
  if (const Entry* level = Find(entries, "level")) {
    if (cites)
      Error(level->key_node.Mark(),
            "a scenario with cites takes its level from the keyword of the sentence it cites for "
            "the revision in play; it has no level of its own");
    else
      LevelOf(level->value, &out->level);
  }
  default_level_ = out->level;
  const std::pair<const char*, std::string*> required[] = {
      {"title", &out->title}, {"spec", &out->spec}, {"requirement", &out->requirement}};
  for (const auto& [key, target] : required) {
    if (const Entry* entry = Find(entries, key))
      String(entry->value, key, target);
    else if (!(cites && std::string_view(key) == "spec"))
      Error(root.Mark(), std::string("missing required key '") + key + "'");
  }
  if (const Entry* tags = Find(entries, "tags")) {
    if (!tags->value.IsSequence()) Error(tags->value.Mark(), "tags must be a list of strings");
    for (const YamlNode& tag : tags->value)
      if (std::string text; String(tag, "a tag", &text)) out->tags.push_back(text);
  }
  if (const Entry* requires_list = Find(entries, "requires")) {
    if (!requires_list->value.IsSequence())
      Error(requires_list->value.Mark(),
            "requires must be a list of JSON pointers into the manifest, {announced: POINTER} "
            "and {not_announced: POINTER}");
    for (const YamlNode& item : requires_list->value) {
      Requirement requirement;
      if (ReadRequirement(item, &requirement)) out->requires_.push_back(std::move(requirement));
    }
  }
}

// `host:` {after_handshake: hold, replies: {METHOD: {result}|{error}|hold}}.
void Reader::ReadHost(const Entry& host, Scenario* out) {
  if (!host.value.IsMap())
    Error(host.value.Mark(), "host must be a map with replies: or after_handshake:");
  const std::vector<Entry> host_entries = Entries(host.value);
  OnlyKeys(host_entries, {"replies", "after_handshake"}, "host");
  if (const Entry* after = Find(host_entries, "after_handshake")) {
    std::string what;
    if (String(after->value, "after_handshake", &what) && what != "hold")
      Error(after->value.Mark(),
            "after_handshake is hold (the scenario sends what the profile "
            "sends after the handshake itself), not '" +
                what + "'");
    out->hold_after_handshake = what == "hold";
  }
  const Entry* replies = Find(host_entries, "replies");
  if (!replies) return;
  if (!replies->value.IsMap()) Error(replies->value.Mark(), "replies must be a map");
  for (const Entry& reply : Entries(replies->value)) {
    HostReply host_reply;
    const std::vector<Entry> parts = Entries(reply.value);
    if (reply.value.IsScalar() && reply.value.Scalar() == "hold") {
      host_reply.kind = HostReply::Kind::kHold;
    } else if (parts.size() == 1 && (parts[0].key == "result" || parts[0].key == "error")) {
      if ((host_reply.reply = Json(reply.value)) == nullptr) continue;
    } else {
      Error(reply.value.Mark(), "a host reply is {result: ...}, {error: ...} or hold");
      continue;
    }
    out->host_replies[reply.key] = host_reply;
  }
}

// A sentence is a requirement only with a keyword, and its level is that keyword's: `level:`
// only picks one where the sentence has keywords of two levels.
void Reader::ReadCites(const YamlNode& node, Scenario* out) {
  if (!node.IsSequence() || node.size() == 0) {
    Error(node.Mark(), "cites must be a non-empty list of {revisions, section, sentence}");
    return;
  }
  for (const YamlNode& item : node) {
    Cite cite;
    cite.loc = Loc(item.Mark());
    const std::vector<Entry> entries = Entries(item);
    if (!item.IsMap() ||
        !OnlyKeys(entries, {"revisions", "section", "sentence", "level"}, "a cite"))
      continue;
    const Entry* revisions = Find(entries, "revisions");
    const Entry* section = Find(entries, "section");
    const Entry* sentence = Find(entries, "sentence");
    if (!revisions || !section || !sentence) {
      Error(item.Mark(), "a cite needs revisions, section and sentence");
      continue;
    }
    if (!revisions->value.IsSequence() || revisions->value.size() == 0)
      Error(revisions->value.Mark(), "revisions must be a non-empty list of revision names");
    for (const YamlNode& r : revisions->value)
      if (std::string name; String(r, "a revision", &name)) cite.revisions.push_back(name);
    if (!String(section->value, "section", &cite.section) ||
        !String(sentence->value, "sentence", &cite.sentence))
      continue;
    const std::vector<result::Level> levels = KeywordLevels(cite.sentence);
    if (levels.empty()) {
      Error(sentence->value.Mark(),
            "the sentence has no keyword (MUST, SHOULD, MAY, ...): a sentence without one states "
            "no requirement, so no verdict can cite it");
      continue;
    }
    cite.level = levels.front();
    if (const Entry* level = Find(entries, "level")) {
      if (LevelOf(level->value, &cite.level) &&
          std::find(levels.begin(), levels.end(), cite.level) == levels.end())
        Error(level->value.Mark(), std::string("the sentence has no ") +
                                       result::LevelName(cite.level) +
                                       "-level keyword: a cite's level is its sentence's keyword");
    } else if (levels.size() > 1) {
      Error(sentence->value.Mark(),
            "the sentence has keywords of more than one level: say which one the scenario checks "
            "with level:");
    }
    out->cites.push_back(std::move(cite));
  }
  if (!out->cites.empty()) out->level = out->cites.front().level;
}

bool Reader::ReadRequirement(const YamlNode& node, Requirement* out) {
  out->loc = Loc(node.Mark());
  if (!node.IsMap()) return Pointer(node, "requires", &out->pointer);
  const std::vector<Entry> entries = Entries(node);
  if (entries.size() != 1 || (entries[0].key != "announced" && entries[0].key != "not_announced")) {
    Error(node.Mark(),
          "a requirement is a JSON pointer into the manifest, {announced: POINTER} or "
          "{not_announced: POINTER} (a pointer into what the plugin announces in its handshake "
          "answer)");
    return false;
  }
  out->source = entries[0].key == "announced" ? Requirement::Source::kAnnounced
                                              : Requirement::Source::kNotAnnounced;
  return Pointer(entries[0].value, entries[0].key, &out->pointer);
}

void Reader::ExpandUse(const Entry& body, Scope* scope, std::vector<Step>* out) {
  std::string name;
  if (!String(body.value, "use", &name)) return;
  const YamlMark mark = body.value.Mark();
  if (!ValidFragmentName(name)) {
    Error(mark, "bad fragment name '" + name + "' (a relative path without '..' or '.yaml')");
    return;
  }
  if (std::find(fragment_stack_.begin(), fragment_stack_.end(), name) != fragment_stack_.end()) {
    std::string chain;
    for (const std::string& f : fragment_stack_) chain += f + " -> ";
    Error(mark, "fragment '" + name + "' uses itself: " + chain + name);
    return;
  }
  std::string text, file, error;
  if (auto it = context_.fragments.find(name); it != context_.fragments.end()) {
    text = it->second;
    file = name + ".yaml";
  } else {
    for (const std::string& dir : context_.fragment_dirs) {
      const fs::path candidate = fs::path(dir) / (name + ".yaml");
      std::error_code ec;
      if (!fs::is_regular_file(candidate, ec)) continue;
      file = candidate.string();
      if (!json::ReadFileCapped(file, json::kInputFileCap, &text, &error)) {
        Error(mark, "fragment '" + name + "': " + error);
        return;
      }
      break;
    }
  }
  if (file.empty()) {
    std::string dirs;
    for (const std::string& dir : context_.fragment_dirs) dirs += (dirs.empty() ? "" : ", ") + dir;
    Error(mark, "fragment '" + name + "' not found (looked for " + name + ".yaml in " +
                    (dirs.empty() ? "no fragment directories" : dirs) + ")");
    return;
  }
  const std::string saved_file = file_;
  used_from_.insert(used_from_.begin(), Loc(mark));
  fragment_stack_.push_back(name);
  file_ = file;
  const std::size_t before = errors_->size();
  YamlTree tree;
  if (ParseYaml(text, file_, &tree, errors_)) {
    AddSuffix(before);
    const YamlNode root = tree.root();
    if (root.IsSequence()) {
      Steps(root, scope, out);
    } else {
      Error(root.Mark(), "a fragment is a list of steps");
    }
  } else {
    AddSuffix(before);
  }
  file_ = saved_file;
  fragment_stack_.pop_back();
  used_from_.erase(used_from_.begin());
}

}  // namespace internal

bool LoadScenarioText(std::string_view yaml, const std::string& file, const std::string& id,
                      const LoadContext& context, Scenario* out, std::vector<LoadError>* errors) {
  const std::size_t before = errors->size();
  *out = Scenario();
  out->id = id;
  YamlTree tree;
  if (!ParseYaml(yaml, file, &tree, errors)) return false;
  internal::Reader reader(context, errors);
  reader.ReadScenario(tree.root(), file, out);
  if (const std::size_t found = errors->size() - before; found > kMaxLoadErrorsPerFile) {
    // A 1 MiB file of unknown keys gives ~90,000 errors: nobody reads past the first screen.
    errors->resize(before + kMaxLoadErrorsPerFile);
    LoadError more;
    more.loc.file = file;
    more.message =
        "and " + std::to_string(found - kMaxLoadErrorsPerFile) + " more errors not shown";
    errors->push_back(std::move(more));
  }
  return errors->size() == before;
}

bool LoadScenarioFile(const std::string& path, const std::string& id, const LoadContext& context,
                      Scenario* out, std::vector<LoadError>* errors) {
  std::string text;
  if (!ReadInputFile(path, &text, errors)) return false;
  return LoadScenarioText(text, path, id, context, out, errors);
}

std::vector<std::string> FindScenarioFiles(const std::string& suite_root) {
  std::vector<std::string> files;
  std::error_code ec;
  fs::recursive_directory_iterator it(suite_root, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    const fs::directory_entry& entry = *it;
    std::error_code type_ec;
    if (entry.is_directory(type_ec)) {
      if (entry.path().filename() == "fragments") it.disable_recursion_pending();
      continue;
    }
    if (entry.path().extension() == ".yaml" && entry.is_regular_file(type_ec)) {
      files.push_back(entry.path().string());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::string ScenarioIdFor(const std::string& suite_root, const std::string& path) {
  fs::path root = fs::path(suite_root).lexically_normal();
  if (!root.empty() && !root.has_filename()) root = root.parent_path();
  fs::path relative = fs::path(path).lexically_normal().lexically_relative(root);
  if (relative.empty() || *relative.begin() == "..") relative = fs::path(path).filename();
  if (relative.extension() == ".yaml") relative.replace_extension();
  return relative.generic_string();
}

}  // namespace fakehost::scenario
