// `fakehost schema diff OLD NEW`: every difference between two versions of a protocol's frame
// schema and profile, judged by the protocol's versioning rules (harness/protocol/versioning.hpp),
// on the console, as JSON (schema/schema-diff.schema.json) or as Markdown for a pull request.
#include <filesystem>
#include <sstream>

#include "harness/cli/cli.hpp"
#include "harness/cli/command.hpp"
#include "harness/cli/schema_command.hpp"
#include "harness/json/json.hpp"
#include "harness/protocol/profile.hpp"
#include "harness/protocol/versioning.hpp"
#include "harness/schema/schema.hpp"

namespace fakehost::cli {
namespace {

namespace fs = std::filesystem;

// One version: its schema, and the profile that goes with it (and where that profile came from,
// which every output names: the profile's versioning rules judge the change).
struct Side {
  std::string schema_path, profile_path, profile_from;
  std::unique_ptr<schema::FrameSchema> schema;
  std::unique_ptr<protocol::Profile> profile;
};

// A directory or profile.json names the profile (whose "schema" is the schema); any other file
// is the schema, with the profile beside it, else `fallback` (--protocol, or for NEW the profile
// OLD was judged with: a candidate copied elsewhere is a new version of the same protocol).
bool LoadSide(const std::string& arg, const std::string& data_dir, const std::string& fallback,
              const std::string& fallback_from, Side* side, std::ostream& err) {
  std::error_code ec;
  if (!fs::exists(arg, ec)) {
    err << "fakehost: " << arg << ": no such file or directory\n";
    return false;
  }
  std::string error;
  const fs::path path(arg);
  if (fs::is_directory(path, ec) || path.filename() == "profile.json") {
    side->profile_path = fs::is_directory(path, ec) ? (path / "profile.json").string() : arg;
    side->profile_from = "named";
    side->profile = ResolveProfile(side->profile_path, data_dir, err);
    if (!side->profile) return false;
    side->schema_path = side->profile->schema_path();
    if (side->schema_path.empty()) {
      err << "fakehost: " << side->profile_path << ": the profile names no frame schema\n";
      return false;
    }
  } else {
    side->schema_path = arg;
    const fs::path beside = path.parent_path() / "profile.json";
    if (fs::exists(beside, ec)) {
      side->profile_path = beside.string();
      side->profile_from = "beside the schema";
    } else if (!fallback.empty()) {
      side->profile_path = fallback;
      side->profile_from = fallback_from;
    } else {
      err << "fakehost: " << arg
          << ": no profile.json beside it; say which protocol it is with --protocol NAME|PATH\n";
      return false;
    }
    side->profile = ResolveProfile(side->profile_path, data_dir, err);
    if (!side->profile) return false;
  }
  side->schema = schema::FrameSchema::Load(side->schema_path, &error);
  if (!side->schema) {
    err << "fakehost: " << error << "\n";
    return false;
  }
  return true;
}

const char* Level(const protocol::VersionChange& c, bool bump) {
  return c.rule.allowed ? "info" : bump ? "warn" : "error";
}

std::string Where(const protocol::VersionChange& c) {
  if (c.area == "profile") return "profile.json " + c.pointer;
  std::string out = c.locations.front().entry + " " +
                    (c.locations.front().pointer.empty() ? "(frame)" : c.locations.front().pointer);
  if (c.locations.size() > 1) out += " and " + std::to_string(c.locations.size() - 1) + " more";
  return out;
}

std::string Summary(const protocol::VersionDiff& d) {
  std::ostringstream s;
  const std::size_t breaking = d.breaking();
  s << d.changes.size() << " change" << (d.changes.size() == 1 ? "" : "s") << ", "
    << d.changes.size() - breaking << " allowed, " << breaking << " breaking; ";
  if (d.major_bump())
    s << "the protocol version goes from " << d.old_version << " to " << d.new_version
      << ", so breaking changes are expected";
  else if (breaking > 0)
    s << "the protocol version stays " << d.old_version << ": this change breaks v"
      << d.old_version;
  else
    s << "every change is allowed within v" << d.old_version;
  return s.str();
}

void Console(const protocol::VersionDiff& d, const Side& o, const Side& n, std::ostream& out) {
  out << "schema diff " << d.protocol << ": " << o.schema_path << " (v" << d.old_version << ") -> "
      << n.schema_path << " (v" << d.new_version << ")\n"
      << "judged by " << n.profile_path << " (" << n.profile_from << ")\n";
  for (const auto& c : d.changes) {
    out << (c.rule.allowed ? "allowed   " : "BREAKING  ") << c.kind << "  " << Where(c) << "  ("
        << c.direction << ")\n"
        << "          " << c.detail << "\n"
        << "          rule " << c.rule.id << " (" << c.rule.section << "): \"" << c.rule.text
        << "\"\n";
    if (!c.rule.note.empty()) out << "          " << c.rule.note << "\n";
  }
  out << Summary(d) << "\n";
}

std::string Cell(std::string s) {
  std::string out;
  for (char ch : s) {
    if (ch == '|')
      out += "\\|";
    else if (ch == '\n')
      out += ' ';
    else
      out += ch;
  }
  return out;
}

std::string Code(const std::string& s) { return s.empty() ? "" : "`" + Cell(s) + "`"; }

void Markdown(const protocol::VersionDiff& d, const Side& n, std::ostream& out) {
  const std::size_t breaking = d.breaking();
  out << "### fakehost schema diff: " << d.protocol << " (v" << d.old_version << " → v"
      << d.new_version << ")\n\n"
      << "**"
      << (breaking == 0    ? "Allowed"
          : d.major_bump() ? "Breaking, with a new major version"
                           : "Breaking")
      << "**: " << Summary(d) << ".\n\n"
      << "Judged by " << Code(n.profile_path) << " (" << n.profile_from << ").\n\n";
  if (d.changes.empty()) return;
  out << "| verdict | change | where | direction | rule |\n|---|---|---|---|---|\n";
  for (const auto& c : d.changes) {
    std::string where = c.area == "profile" ? "profile.json " + Code(c.pointer) : "";
    for (const auto& l : c.locations)
      where += (where.empty() ? "" : "<br>") + Code(l.entry) + " " + Code(l.pointer);
    out << "| " << (c.rule.allowed ? "allowed" : "**breaking**") << " | " << Cell(c.detail) << " ("
        << Code(c.kind) << ") | " << where << " | " << c.direction << " | **" << Cell(c.rule.id)
        << "** (" << Cell(c.rule.section) << "): “" << Cell(c.rule.text) << "”"
        << (c.rule.note.empty() ? "" : "<br>" + Cell(c.rule.note)) << " |\n";
  }
}

void Json(const protocol::VersionDiff& d, const Side& o, const Side& n, std::ostream& out) {
  rapidjson::Document doc(rapidjson::kObjectType);
  auto& a = doc.GetAllocator();
  auto str = [&](const std::string& s) { return rapidjson::Value(s.c_str(), a); };
  auto side = [&](const Side& s, std::int64_t version) {
    rapidjson::Value v(rapidjson::kObjectType);
    v.AddMember("schema", str(s.schema_path), a);
    v.AddMember("profile", str(s.profile_path), a);
    v.AddMember("profile_from", str(s.profile_from), a);
    v.AddMember("version", version, a);
    return v;
  };
  doc.AddMember("protocol", str(d.protocol), a);
  doc.AddMember("old", side(o, d.old_version), a);
  doc.AddMember("new", side(n, d.new_version), a);
  doc.AddMember("major_bump", d.major_bump(), a);
  rapidjson::Value summary(rapidjson::kObjectType);
  summary.AddMember("changes", static_cast<std::uint64_t>(d.changes.size()), a);
  summary.AddMember("allowed", static_cast<std::uint64_t>(d.changes.size() - d.breaking()), a);
  summary.AddMember("breaking", static_cast<std::uint64_t>(d.breaking()), a);
  summary.AddMember("text", str(Summary(d)), a);
  doc.AddMember("summary", summary, a);
  doc.AddMember("exit_code", d.ExitCode(), a);
  rapidjson::Value changes(rapidjson::kArrayType);
  for (const auto& c : d.changes) {
    rapidjson::Value v(rapidjson::kObjectType);
    v.AddMember("area", str(c.area), a);
    v.AddMember("kind", str(c.kind), a);
    v.AddMember("verdict", str(c.rule.allowed ? "allowed" : "breaking"), a);
    v.AddMember("level", str(Level(c, d.major_bump())), a);
    v.AddMember("direction", str(c.direction), a);
    v.AddMember("pointer", str(c.pointer), a);
    if (c.area == "schema") v.AddMember("schema_pointer", str(c.schema_pointer), a);
    if (!c.topic.empty()) v.AddMember("topic", str(c.topic), a);
    rapidjson::Value locations(rapidjson::kArrayType);
    for (const auto& l : c.locations) {
      rapidjson::Value loc(rapidjson::kObjectType);
      loc.AddMember("entry", str(l.entry), a);
      loc.AddMember("pointer", str(l.pointer), a);
      locations.PushBack(loc, a);
    }
    v.AddMember("locations", locations, a);
    v.AddMember("detail", str(c.detail), a);
    v.AddMember("old", str(c.old_value), a);
    v.AddMember("new", str(c.new_value), a);
    v.AddMember("frozen", c.frozen, a);
    v.AddMember("closed_set", c.closed_set, a);
    v.AddMember("error_code", c.error_code, a);
    v.AddMember("compatible", c.compatible, a);
    rapidjson::Value rule(rapidjson::kObjectType);
    rule.AddMember("id", str(c.rule.id), a);
    rule.AddMember("section", str(c.rule.section), a);
    rule.AddMember("text", str(c.rule.text), a);
    if (!c.rule.note.empty()) rule.AddMember("note", str(c.rule.note), a);
    v.AddMember("rule", rule, a);
    changes.PushBack(v, a);
  }
  doc.AddMember("changes", changes, a);
  out << json::ToPretty(doc) << "\n";
}

}  // namespace

std::unique_ptr<protocol::Profile> ResolveProfile(const std::string& name_or_path,
                                                  const std::string& data_dir, std::ostream& err) {
  const bool is_path =
      name_or_path.find('/') != std::string::npos ||
      (name_or_path.size() > 5 && name_or_path.compare(name_or_path.size() - 5, 5, ".json") == 0);
  if (!is_path) return LoadProfile(data_dir, name_or_path, err);
  std::string path = name_or_path;
  std::error_code ec;
  if (fs::is_directory(path, ec)) path = (fs::path(path) / "profile.json").string();
  std::string error;
  auto profile = protocol::Profile::Load(path, &error);
  if (!profile) err << "fakehost: " << error << "\n";
  return profile;
}

int SchemaDiffCommand(const std::string& data_dir, const SchemaDiffOptions& options,
                      std::ostream& out, std::ostream& err) {
  if (options.format != "console" && options.format != "json" && options.format != "markdown") {
    err << "fakehost: --format takes console, json or markdown, not " << options.format << "\n";
    return kBadInput;
  }
  Side o, n;
  if (!LoadSide(options.old_path, data_dir, options.protocol, "--protocol", &o, err))
    return kBadInput;
  const bool named = !options.protocol.empty();
  if (!LoadSide(options.new_path, data_dir, named ? options.protocol : o.profile_path,
                named ? "--protocol" : "OLD's profile", &n, err))
    return kBadInput;
  protocol::VersionDiff diff;
  std::string error;
  if (!protocol::DiffVersions(*o.profile, o.schema->Document(), *n.profile, n.schema->Document(),
                              &diff, &error)) {
    err << "fakehost: " << error << "\n";
    return kBadInput;
  }
  if (options.format == "json")
    Json(diff, o, n, out);
  else if (options.format == "markdown")
    Markdown(diff, n, out);
  else
    Console(diff, o, n, out);
  return diff.ExitCode() == 0 ? kOk : kFailures;
}

}  // namespace fakehost::cli
