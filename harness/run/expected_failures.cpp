#include "harness/run/expected_failures.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <map>
#include <set>

#include "harness/json/json.hpp"
#include "harness/json/text_file.hpp"
#include "harness/scenario/yaml_json.hpp"

namespace fakehost::run {
namespace {

using result::ExpectedFailure;
using result::ScenarioResult;
using result::Status;
using scenario::LoadError;

bool Matches(const std::string& glob, const std::string& id) {
  return fnmatch(glob.c_str(), id.c_str(), 0) == 0;
}

bool IsGlob(std::string_view id) { return id.find_first_of("*?[") != std::string_view::npos; }

// YYYY-MM-DD naming a day of the Gregorian calendar.
bool IsDate(std::string_view s) {
  if (s.size() != 10 || s[4] != '-' || s[7] != '-') return false;
  for (std::size_t i : {0, 1, 2, 3, 5, 6, 8, 9})
    if (s[i] < '0' || s[i] > '9') return false;
  auto num = [&](std::size_t at, std::size_t n) {
    int v = 0;
    for (std::size_t i = at; i < at + n; ++i) v = v * 10 + (s[i] - '0');
    return v;
  };
  int year = num(0, 4), month = num(5, 2), day = num(8, 2);
  if (month < 1 || month > 12 || day < 1) return false;
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return day <= kDays[month - 1] + (month == 2 && leap ? 1 : 0);
}

class BaselineReader {
 public:
  BaselineReader(const scenario::YamlLocator& where, std::vector<LoadError>* errors)
      : where_(where), errors_(errors) {}

  void Read(const rapidjson::Value& doc, ExpectedFailures* out) {
    if (doc.IsNull()) return;  // an empty file lists nothing
    if (!doc.IsArray())
      return Error("", "an expected-failures file is a list of entries {id, reason, kind, until}");
    for (rapidjson::SizeType i = 0; i < doc.Size(); ++i) {
      std::string at = "/" + std::to_string(i);
      ExpectedFailure e;
      if (Entry(doc[i], at, &e)) out->entries.push_back(std::move(e));
    }
  }

 private:
  bool Entry(const rapidjson::Value& v, const std::string& at, ExpectedFailure* e) {
    e->loc = where_.At(at);
    if (!v.IsObject()) {
      Error(at, "an entry is a map {id: SCENARIO, reason: WHY, kind: CHECK, until: YYYY-MM-DD}");
      return false;
    }
    bool ok = true;
    for (const auto& m : v.GetObject()) {
      std::string key(m.name.GetString(), m.name.GetStringLength());
      std::string here = at + "/" + json::EscapePointerToken(key);
      std::string* field = key == "id"       ? &e->id
                           : key == "reason" ? &e->reason
                           : key == "kind"   ? &e->kind
                           : key == "until"  ? &e->until
                                             : nullptr;
      if (!field) {
        Error(here, "unknown key '" + key + "' (known: id, reason, kind, until)", true);
        ok = false;
      } else if (!m.value.IsString() || m.value.GetStringLength() == 0) {
        Error(here, key == "until" ? "until is a date YYYY-MM-DD" : key + " is a non-empty string");
        ok = false;
      } else {
        field->assign(m.value.GetString(), m.value.GetStringLength());
        if (key == "until" && !IsDate(*field)) {
          Error(here, "until is a date YYYY-MM-DD, got '" + *field + "'");
          ok = false;
        }
      }
    }
    if (!json::Find(v, "id")) {
      Error(at, "an entry needs id: the scenario id (or a glob) it is about");
      ok = false;
    }
    if (!json::Find(v, "reason")) {
      Error(at, "an entry needs reason: why the scenario fails and what will fix it");
      ok = false;
    }
    if (!ok) return false;
    std::string key = e->id + '\n' + e->kind;
    auto [first, fresh] = seen_.emplace(key, e->loc.line);
    if (!fresh) {
      Error(at + "/id", "'" + e->id + "' is listed twice (first at line " +
                            std::to_string(first->second) + ")");
      return false;
    }
    return true;
  }

  void Error(const std::string& pointer, std::string message, bool at_key = false) {
    errors_->push_back({where_.At(pointer, at_key), std::move(message)});
  }

  const scenario::YamlLocator& where_;
  std::vector<LoadError>* errors_;
  std::map<std::string, int> seen_;  // id + kind -> line
};

// The failures that make a result fail: as Grade counts them.
bool AllOfKind(const ScenarioResult& r, const std::string& kind, bool strict) {
  bool any = false, all = true;
  for (const auto& f : r.failures) {
    bool grading = f.level == result::Level::kMust || (strict && f.level == result::Level::kShould);
    if (!grading) continue;
    any = true;
    all = all && f.check == kind;
  }
  if (any) return all;
  return std::all_of(r.failures.begin(), r.failures.end(),
                     [&](const result::Failure& f) { return f.check == kind; });
}

result::Failure EntryFailure(const ExpectedFailure& e, std::string message) {
  result::Failure f;
  f.level = result::Level::kMust;
  f.check = kExpectedFailureCheck;
  f.loc = e.loc;
  f.message = std::move(message);
  return f;
}

std::string Where(const ExpectedFailure& e) {
  return e.loc.file + " (line " + std::to_string(e.loc.line) + ")";
}

}  // namespace

bool ParseExpectedFailures(std::string_view text, const std::string& file, ExpectedFailures* out,
                           std::vector<LoadError>* errors) {
  const std::size_t before = errors->size();
  out->file = file;
  rapidjson::Document doc;
  scenario::YamlLocator where;
  if (!scenario::ParseYamlToJson(text, file, &doc, &where, errors)) return false;
  BaselineReader(where, errors).Read(doc, out);
  return errors->size() == before;
}

bool ReadExpectedFailures(const std::string& path, ExpectedFailures* out,
                          std::vector<LoadError>* errors) {
  std::string text;
  return scenario::ReadInputFile(path, &text, errors) &&
         ParseExpectedFailures(text, path, out, errors);
}

bool CheckExpectedFailures(const ExpectedFailures& baseline,
                           const std::vector<std::string>& suite_ids,
                           std::vector<LoadError>* errors) {
  const std::size_t before = errors->size();
  for (const ExpectedFailure& e : baseline.entries) {
    bool any = std::any_of(suite_ids.begin(), suite_ids.end(),
                           [&](const std::string& id) { return Matches(e.id, id); });
    if (!any)
      errors->push_back({e.loc, "'" + e.id + "' matches no scenario of the suite (" +
                                    std::to_string(suite_ids.size()) +
                                    " scenarios): remove the entry or correct the id"});
  }
  return errors->size() == before;
}

bool LoadExpectedFailures(const std::string& path, const std::vector<scenario::Scenario>& suite,
                          ExpectedFailures* out, std::vector<LoadError>* errors) {
  std::vector<std::string> ids;
  for (const auto& s : suite) ids.push_back(s.id);
  return ReadExpectedFailures(path, out, errors) && CheckExpectedFailures(*out, ids, errors);
}

void ApplyExpectedFailures(const ExpectedFailures& baseline, const ApplyOptions& options,
                           ScenarioResult* r) {
  if (r->expected_failure) return;
  bool failing = r->status == Status::kFail || (options.strict && r->status == Status::kWarn);
  if (r->status != Status::kPass && !failing) return;
  for (const ExpectedFailure& e : baseline.entries) {
    if (!Matches(e.id, r->id)) continue;
    if (r->status == Status::kPass) {
      r->status = Status::kStale;
      r->expected_failure = e;
      r->failures.push_back(EntryFailure(
          e, IsGlob(e.id) ? "passes now, but " + Where(e) + " expects every scenario matching '" +
                                e.id + "' to fail: narrow or remove that entry"
                          : "passes now: remove it from " + Where(e)));
      return;
    }
    if (!e.kind.empty() && !AllOfKind(*r, e.kind, options.strict)) continue;
    r->expected_failure = e;
    if (!e.until.empty() && !options.today.empty() && options.today > e.until) {
      r->expected_failure->expired = true;
      r->status = Status::kFail;
      r->failures.insert(
          r->failures.begin(),
          EntryFailure(e, "expected failure expired on " + e.until + ": fix it or extend it (" +
                              Where(e) + ", reason: " + e.reason + ")"));
      return;
    }
    r->status = Status::kXfail;
    return;
  }
}

void ApplyExpectedFailures(const ExpectedFailures& baseline, const ApplyOptions& options,
                           std::vector<ScenarioResult>* results) {
  for (ScenarioResult& r : *results) ApplyExpectedFailures(baseline, options, &r);
}

std::string TodayUtc() {
  std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[16];
  std::strftime(buf, sizeof buf, "%Y-%m-%d", &tm);
  return buf;
}

}  // namespace fakehost::run
