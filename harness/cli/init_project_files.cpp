// init_project.hpp's readers of package.json and pyproject.toml: text in, facts out, no I/O.
#include <algorithm>
#include <cctype>
#include <filesystem>

#include "harness/cli/init_project.hpp"
#include "harness/json/json.hpp"

namespace fakehost::cli {
namespace {

namespace fs = std::filesystem;

// A path package.json gives, as the command's argument: "./dist/x.js" -> "dist/x.js". "" when
// it leaves the directory (absolute, or a ".." part).
std::string InsidePath(std::string path) {
  while (path.rfind("./", 0) == 0) path.erase(0, 2);
  if (path.empty() || path[0] == '/') return {};
  for (const auto& part : fs::path(path))
    if (part == "..") return {};
  return path;
}

bool NonEmptyObject(const rapidjson::Value* v) { return v && v->IsObject() && !v->ObjectEmpty(); }

// --- a TOML reader of just what ParsePyproject needs --------------------------------------------

// One `key = value` statement or `[table]` header of a TOML text, the value's raw text possibly
// spanning lines (arrays, inline tables, multi-line strings), comments outside strings removed.
struct Statement {
  int line = 0;
  bool header = false;
  std::string key, value;  // header: the table's name in `key`
};

class TomlStatements {
 public:
  explicit TomlStatements(std::string_view text) : text_(text) {}

  // The next statement; false at the end.
  bool Next(Statement* s) {
    SkipBlank();
    if (pos_ >= text_.size()) return false;
    *s = {};
    s->line = line_;
    if (text_[pos_] == '[') {
      s->header = true;
      std::string header = RestOfLine();
      std::size_t open = std::min(header.size(), header.find_first_not_of('['));
      std::size_t close = std::max(open, std::min(header.size(), header.find(']')));
      s->key = Trim(header.substr(open, close - open));
      return true;
    }
    std::size_t eq = text_.find('=', pos_), eol = text_.find('\n', pos_);
    if (eq == std::string_view::npos || (eol != std::string_view::npos && eq > eol)) {
      s->key = Trim(RestOfLine());
      return true;  // no '=': the caller refuses it where it matters
    }
    s->key = Trim(std::string(text_.substr(pos_, eq - pos_)));
    pos_ = eq + 1;
    s->value = Trim(Value());
    return true;
  }

  static std::string Trim(std::string s) {
    s.erase(0, s.find_first_not_of(" \t\r"));
    s.erase(s.find_last_not_of(" \t\r") + 1);
    return s;
  }

 private:
  void SkipBlank() {
    while (pos_ < text_.size()) {
      char c = text_[pos_];
      if (c == '#') {
        while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
      } else if (c == '\n') {
        ++line_, ++pos_;
      } else if (c == ' ' || c == '\t' || c == '\r') {
        ++pos_;
      } else {
        return;
      }
    }
  }

  std::string RestOfLine() {
    std::size_t eol = text_.find('\n', pos_);
    if (eol == std::string_view::npos) eol = text_.size();
    std::string out(text_.substr(pos_, eol - pos_));
    pos_ = eol;
    if (auto hash = out.find('#'); hash != std::string::npos) out.resize(hash);
    return out;
  }

  // A value up to the end of its line at depth 0, outside any string; comments dropped.
  std::string Value() {
    std::string out;
    int depth = 0;
    while (pos_ < text_.size()) {
      char c = text_[pos_];
      if (c == '"' || c == '\'') {
        std::string_view triple = c == '"' ? R"(""")" : "'''";
        bool multi = text_.substr(pos_, 3) == triple;
        std::size_t start = pos_;
        pos_ += multi ? 3 : 1;
        bool closed = false;
        while (pos_ < text_.size() && !closed) {
          if (multi ? text_.substr(pos_, 3) == triple : text_[pos_] == c) {
            pos_ += multi ? 3 : 1;
            closed = true;
          } else if (!multi && text_[pos_] == '\n') {
            break;  // unterminated: the line ends it
          } else {
            if (c == '"' && text_[pos_] == '\\' && pos_ + 1 < text_.size()) ++pos_;
            if (text_[pos_] == '\n') ++line_;
            ++pos_;
          }
        }
        pos_ = std::min(text_.size(), pos_);
        out.append(text_.substr(start, pos_ - start));
        continue;
      }
      if (c == '#') {
        while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
        continue;
      }
      if (c == '\n') {
        if (depth <= 0) break;
        ++line_;
      }
      if (c == '[' || c == '{') ++depth;
      if (c == ']' || c == '}') --depth;
      out += c;
      ++pos_;
    }
    return out;
  }

  std::string_view text_;
  std::size_t pos_ = 0;
  int line_ = 1;
};

// A one-line TOML string ("basic" without escapes, or 'literal') and nothing else.
bool TomlString(std::string_view v, std::string* out) {
  if (v.size() < 2 || (v[0] != '"' && v[0] != '\'') || v.back() != v[0]) return false;
  std::string_view inner = v.substr(1, v.size() - 2);
  if (inner.find(v[0]) != std::string_view::npos || inner.find('\n') != std::string_view::npos ||
      (v[0] == '"' && inner.find('\\') != std::string_view::npos))
    return false;
  *out = inner;
  return true;
}

// A TOML array of such strings, possibly over several lines.
bool TomlStringArray(std::string_view v, std::vector<std::string>* out) {
  if (v.size() < 2 || v.front() != '[' || v.back() != ']') return false;
  std::string_view rest = v.substr(1, v.size() - 2);
  while (true) {
    rest.remove_prefix(std::min(rest.size(), rest.find_first_not_of(" \t\r\n")));
    if (rest.empty()) return true;
    char q = rest[0];
    if (q != '"' && q != '\'') return false;
    std::size_t end = rest.find(q, 1);
    std::string item;
    if (end == std::string_view::npos || !TomlString(rest.substr(0, end + 1), &item)) return false;
    out->push_back(item);
    rest.remove_prefix(end + 1);
    rest.remove_prefix(std::min(rest.size(), rest.find_first_not_of(" \t\r\n")));
    if (rest.empty()) return true;
    if (rest[0] != ',') return false;
    rest.remove_prefix(1);
  }
}

// A key of [project] or [project.scripts]: bare (A-Za-z0-9_-) or one quoted string; else "".
std::string TomlKey(const std::string& key) {
  std::string quoted;
  if (TomlString(key, &quoted)) return quoted;
  bool bare = !key.empty() && std::all_of(key.begin(), key.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
  });
  return bare ? key : std::string();
}

}  // namespace

std::string PythonName(std::string_view spec) {
  std::string name;
  for (char c : spec) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.') break;
    name +=
        c == '_' || c == '.' ? '-' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return name;
}

bool ParsePackageJson(std::string_view text, PackageJson* out, std::string* error) {
  rapidjson::Document doc;
  json::ParseResult parsed = json::Parse(text, &doc);
  if (!parsed.ok || !doc.IsObject()) {
    *error = parsed.ok ? "not a JSON object" : parsed.error;
    return false;
  }
  out->name = json::StringMember(doc, "name");
  const std::string unscoped = out->name.substr(out->name.find('/') + 1);
  if (const rapidjson::Value* bin = json::Find(doc, "bin")) {
    if (bin->IsString()) {
      out->bin = bin->GetString();
    } else if (bin->IsObject() && !bin->ObjectEmpty()) {
      const rapidjson::Value* pick = &bin->MemberBegin()->value;
      if (const rapidjson::Value* own = json::Find(*bin, unscoped)) pick = own;
      if (pick->IsString()) out->bin = pick->GetString();
    }
    if (out->bin.empty() || InsidePath(out->bin).empty()) {
      *error = "bin is not the path of a file in the package";
      return false;
    }
    out->bin = InsidePath(out->bin);
  }
  if (const rapidjson::Value* main = json::Find(doc, "main"); main && main->IsString()) {
    out->main = InsidePath(main->GetString());
    if (out->main.empty()) {
      *error = "main is not the path of a file in the package";
      return false;
    }
  }
  if (const rapidjson::Value* scripts = json::Find(doc, "scripts");
      scripts && scripts->IsObject()) {
    out->start = json::Find(*scripts, "start") != nullptr;
    out->build = json::Find(*scripts, "build") != nullptr;
  }
  for (const char* key : {"dependencies", "devDependencies"}) {
    const rapidjson::Value* deps = json::Find(doc, key);
    out->dependencies |= NonEmptyObject(deps);
    if (NonEmptyObject(deps) && json::Find(*deps, "@modelcontextprotocol/sdk")) out->mcp_sdk = true;
  }
  return true;
}

bool ParsePyproject(std::string_view text, Pyproject* out, std::string* error) {
  TomlStatements statements(text);
  std::string table;
  Statement s;
  const auto refuse = [&](const std::string& what) {
    *error = "pyproject.toml:" + std::to_string(s.line) + ": " + what +
             " (fakehost init reads only plain `key = \"value\"` lines in [project] and "
             "[project.scripts]: give the server's command after --)";
    return false;
  };
  while (statements.Next(&s)) {
    if (s.header) {
      table = s.key;
      continue;
    }
    if (table != "project" && table != "project.scripts") continue;
    const std::string key = TomlKey(s.key);
    if (key.empty()) return refuse("the key " + s.key + " is not a plain name");
    if (table == "project.scripts") {
      std::string entry;
      if (!TomlString(s.value, &entry)) return refuse("the script " + key + " is not one string");
      if (entry.find('[') != std::string::npos || entry.find(' ') != std::string::npos)
        return refuse("the script " + key + " is not MODULE:FUNCTION");
      out->scripts.push_back({key, entry});
    } else if (key == "name") {
      if (!TomlString(s.value, &out->name)) return refuse("name is not one string");
    } else if (key == "dependencies") {
      if (!TomlStringArray(s.value, &out->dependencies))
        return refuse("dependencies is not a list of strings");
    } else if (key == "scripts") {
      return refuse("scripts is written inline; write it as a [project.scripts] table");
    }
  }
  for (const std::string& d : out->dependencies)
    if (PythonName(d) == "mcp" || PythonName(d) == "fastmcp") out->mcp_sdk = PythonName(d);
  return true;
}

}  // namespace fakehost::cli
