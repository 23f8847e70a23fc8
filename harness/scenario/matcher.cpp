#include "harness/scenario/matcher.hpp"

#include <algorithm>
#include <cstring>
#include <functional>
#include <string_view>
#include <unordered_map>

#include "harness/json/json.hpp"
#include "harness/scenario/matcher_internal.hpp"
#include "harness/scenario/regex.hpp"
#include "harness/schema/supplied.hpp"

namespace fakehost::scenario {
namespace {

// The deadline of the MatchDeadline in scope on this thread (none: max), how many values were
// visited since it was last looked at, and whether it stopped a match.
thread_local std::chrono::steady_clock::time_point match_deadline =
    std::chrono::steady_clock::time_point::max();
thread_local unsigned match_visits = 0;
thread_local bool match_cut = false;

// True once the deadline has passed; the clock is read every 1,024 values.
bool PastDeadline() {
  if (match_cut) return true;
  if (match_deadline == std::chrono::steady_clock::time_point::max() || ++match_visits < 1024)
    return false;
  match_visits = 0;
  match_cut = std::chrono::steady_clock::now() >= match_deadline;
  return match_cut;
}

// A hash that agrees with json::StrictEqual (equal values hash alike): the type, and a string's
// bytes, a number's value, a container's size. Deeper differences are left to StrictEqual.
std::size_t StrictHash(const rapidjson::Value& v) {
  const std::size_t type = static_cast<std::size_t>(v.GetType());
  std::size_t h = 0;
  if (v.IsString()) h = std::hash<std::string_view>{}({v.GetString(), v.GetStringLength()});
  if (v.IsNumber()) h = std::hash<double>{}(v.GetDouble()) ^ (v.IsDouble() ? 0x9e3779b9u : 0u);
  if (v.IsArray()) h = v.Size();
  if (v.IsObject()) h = v.MemberCount();
  return h * 31 + type;
}

using internal::Op;
using internal::View;

// The path to the value being matched, kept on the stack and turned into a JSON pointer only
// when there is a mismatch to report.
struct Path {
  const Path* parent = nullptr;
  std::string_view key;
  std::size_t index = 0;
  bool is_index = false;
};

void AppendPointer(const Path* path, std::string* out) {
  if (path == nullptr) return;
  AppendPointer(path->parent, out);
  *out += '/';
  if (path->is_index) {
    *out += std::to_string(path->index);
    return;
  }
  for (char c : path->key) {
    if (c == '~') {
      *out += "~0";
    } else if (c == '/') {
      *out += "~1";
    } else {
      *out += c;
    }
  }
}

bool ScalarEqual(const rapidjson::Value& pattern, const rapidjson::Value& actual) {
  if (pattern.IsNull()) return actual.IsNull();
  if (pattern.IsBool()) return actual.IsBool() && pattern.GetBool() == actual.GetBool();
  if (pattern.IsString()) {
    return actual.IsString() && pattern.GetStringLength() == actual.GetStringLength() &&
           std::memcmp(pattern.GetString(), actual.GetString(), pattern.GetStringLength()) == 0;
  }
  if (internal::IsIntegral(pattern)) {
    if (!internal::IsIntegral(actual)) return false;
    if (pattern.IsInt64() && actual.IsInt64()) return pattern.GetInt64() == actual.GetInt64();
    return pattern.IsUint64() && actual.IsUint64() && pattern.GetUint64() == actual.GetUint64();
  }
  if (pattern.IsDouble()) return actual.IsDouble() && pattern.GetDouble() == actual.GetDouble();
  return false;
}

// <0, 0, >0 like strcmp; both must be numbers.
int CompareNumbers(const rapidjson::Value& a, const rapidjson::Value& b) {
  if (a.IsInt64() && b.IsInt64()) {
    return a.GetInt64() < b.GetInt64() ? -1 : a.GetInt64() > b.GetInt64() ? 1 : 0;
  }
  const double x = a.GetDouble(), y = b.GetDouble();
  return x < y ? -1 : x > y ? 1 : 0;
}

bool Size(const rapidjson::Value& v, std::uint64_t* size) {
  if (v.IsString()) return *size = v.GetStringLength(), true;
  if (v.IsArray()) return *size = v.Size(), true;
  if (v.IsObject()) return *size = v.MemberCount(), true;
  return false;
}

// The schema $conforms names: {schema: S}, or the value at `at` in the first item of
// `schema_in` that matches `where`. nullptr with `*why` when there is none to check against.
const rapidjson::Value* ConformsSchema(const rapidjson::Value& arg, std::string* why) {
  if (!arg.IsObject()) return *why = "$conforms has no schema (a malformed argument)", nullptr;
  if (const rapidjson::Value* schema = json::Find(arg, "schema")) return schema;
  const rapidjson::Value* list = json::Find(arg, "schema_in");
  const rapidjson::Value* where = json::Find(arg, "where");
  const rapidjson::Value* at = json::Find(arg, "at");
  const std::string_view pointer = at && at->IsString() ? View(*at) : std::string_view();
  if (list == nullptr || !list->IsArray())
    return *why = "$conforms: schema_in is " + DescribeValue(list) + ", not a list", nullptr;
  for (const rapidjson::Value& item : list->GetArray()) {
    if (where && !Match(*where, &item, nullptr)) continue;
    const rapidjson::Value* schema = json::Resolve(item, pointer);
    if (schema == nullptr)
      *why = "the item of the list that matches " +
             (where ? internal::Compact(*where) : std::string("(any)")) + " has nothing at " +
             std::string(pointer) + ", so there is no schema to check against";
    return schema;
  }
  *why = "no item of the list matches " +
         (where ? internal::Compact(*where) : std::string("(any)")) +
         ", so there is no schema to check against";
  return nullptr;
}

// $type: one name or a list of names, any of which the value has.
bool HasAnyType(const rapidjson::Value& arg, const rapidjson::Value& actual) {
  if (arg.IsString()) return internal::HasType(View(arg), actual);
  if (arg.IsArray()) {
    return std::any_of(arg.Begin(), arg.End(), [&](const rapidjson::Value& t) {
      return t.IsString() && internal::HasType(View(t), actual);
    });
  }
  return false;
}

// $min_length, $max_length and $len against the size of a string, array or object.
bool LengthHolds(Op op, const rapidjson::Value& arg, const rapidjson::Value& actual) {
  std::uint64_t size = 0;
  if (!arg.IsUint64() || !Size(actual, &size)) return false;
  if (op == Op::kMinLength) return size >= arg.GetUint64();
  if (op == Op::kMaxLength) return size <= arg.GetUint64();
  return size == arg.GetUint64();
}

// $unique: the values at the pointer (elements without one are not compared), each against the
// earlier ones of its hash only: linear in the elements, not pairwise (100,000 tools).
bool AllDiffer(const rapidjson::Value& actual, std::string_view pointer) {
  std::unordered_multimap<std::size_t, const rapidjson::Value*> seen;
  seen.reserve(actual.Size());
  for (const rapidjson::Value& item : actual.GetArray()) {
    const rapidjson::Value* v = json::Resolve(item, pointer);
    if (v == nullptr) continue;
    const std::size_t h = StrictHash(*v);
    for (auto [it, end] = seen.equal_range(h); it != end; ++it)
      if (json::StrictEqual(*it->second, *v)) return false;
    seen.emplace(h, v);
  }
  return true;
}

class Engine {
 public:
  Engine(std::vector<Mismatch>* out, std::string_view base, std::vector<std::string>* untested)
      : out_(out), base_(base), untested_(untested) {}

  bool Run(const rapidjson::Value& pattern, const rapidjson::Value* actual, const Path* path) {
    if (PastDeadline()) return false;
    if (IsOperatorNode(pattern)) return Operators(pattern, actual, path);
    if (pattern.IsObject()) return Object(pattern, actual, path);
    if (pattern.IsArray()) return Array(pattern, actual, path);
    if (actual != nullptr && ScalarEqual(pattern, *actual)) return true;
    if (!Full()) {
      const bool same_type = actual != nullptr &&
                             std::strcmp(internal::TypeOf(pattern), internal::TypeOf(*actual)) == 0;
      Report(path, same_type ? internal::Compact(pattern) : DescribeValue(&pattern),
             same_type ? internal::Compact(*actual) : DescribeValue(actual));
    }
    return false;
  }

 private:
  bool Full() const { return out_ == nullptr || out_->size() >= kMaxMismatches; }

  void Report(const Path* path, std::string expected, std::string actual) {
    if (Full()) return;
    Mismatch m;
    m.pointer = base_;
    AppendPointer(path, &m.pointer);
    m.expected = std::move(expected);
    m.actual = std::move(actual);
    out_->push_back(std::move(m));
  }

  bool Object(const rapidjson::Value& pattern, const rapidjson::Value* actual, const Path* path) {
    if (actual == nullptr || !actual->IsObject()) {
      if (!Full()) Report(path, "an object", DescribeValue(actual));
      return false;
    }
    bool ok = true;
    for (const auto& m : pattern.GetObject()) {
      auto found = actual->FindMember(m.name);
      const Path child{path, View(m.name), 0, false};
      if (!Run(m.value, found == actual->MemberEnd() ? nullptr : &found->value, &child)) {
        ok = false;
        if (Full()) return false;
      }
    }
    return ok;
  }

  bool Array(const rapidjson::Value& pattern, const rapidjson::Value* actual, const Path* path) {
    if (actual == nullptr || !actual->IsArray() || actual->Size() != pattern.Size()) {
      if (!Full()) {
        const std::string want = "an array of " + std::to_string(pattern.Size()) +
                                 (pattern.Size() == 1 ? " element" : " elements");
        std::string got = DescribeValue(actual);
        if (actual != nullptr && actual->IsArray()) {
          got = "an array of " + std::to_string(actual->Size()) +
                (actual->Size() == 1 ? " element " : " elements ") + internal::Compact(*actual);
        }
        Report(path, want, got);
      }
      return false;
    }
    bool ok = true;
    for (rapidjson::SizeType i = 0; i < pattern.Size(); ++i) {
      const Path child{path, {}, i, true};
      if (!Run(pattern[i], &(*actual)[i], &child)) {
        ok = false;
        if (Full()) return false;
      }
    }
    return ok;
  }

  // Quietly: does `pattern` match? (for $one_of, $not, $contains). kUnknown: it matches only
  // if what an operator could not judge holds; `*notes` says what that was.
  enum class Tri { kNo, kYes, kUnknown };
  static Tri Test(const rapidjson::Value& pattern, const rapidjson::Value* actual,
                  std::vector<std::string>* notes) {
    std::vector<std::string> local;
    Engine quiet(nullptr, {}, &local);
    if (!quiet.Run(pattern, actual, nullptr)) return Tri::kNo;
    if (local.empty()) return Tri::kYes;
    *notes = std::move(local);
    return Tri::kUnknown;
  }
  // Some of the patterns (or elements) matches: a certain match wins, else an unknown one
  // counts as a match whose notes are kept.
  template <typename Each>
  bool AnyOf(const Each& range,
             const std::function<Tri(const rapidjson::Value&, std::vector<std::string>*)>& test) {
    std::vector<std::string> first_unknown;
    bool unknown = false;
    for (const auto& candidate : range) {
      std::vector<std::string> notes;
      const Tri r = test(candidate, &notes);
      if (r == Tri::kYes) return true;
      if (r == Tri::kUnknown && !unknown) unknown = true, first_unknown = std::move(notes);
    }
    if (unknown) Note(std::move(first_unknown));
    return unknown;
  }
  void Note(std::vector<std::string> notes) {
    if (untested_ == nullptr) return;
    for (std::string& n : notes) untested_->push_back(std::move(n));
  }

  bool Holds(Op op, const rapidjson::Value& arg, const rapidjson::Value* actual) {
    switch (op) {
      case Op::kType:
        return actual != nullptr && HasAnyType(arg, *actual);
      case Op::kOneOf:
        return arg.IsArray() &&
               AnyOf(arg.GetArray(), [&](const rapidjson::Value& alt, auto* notes) {
                 return Test(alt, actual, notes);
               });
      case Op::kAbsent:
        return arg.IsBool() && (arg.GetBool() ? actual == nullptr : actual != nullptr);
      case Op::kAny:
        return arg.IsTrue() && actual != nullptr;
      case Op::kRegex:
        return arg.IsString() && actual != nullptr && actual->IsString() &&
               RegexSearch(View(arg), View(*actual)) == RegexResult::kMatch;
      case Op::kMin:
        return arg.IsNumber() && actual != nullptr && actual->IsNumber() &&
               CompareNumbers(*actual, arg) >= 0;
      case Op::kMax:
        return arg.IsNumber() && actual != nullptr && actual->IsNumber() &&
               CompareNumbers(*actual, arg) <= 0;
      case Op::kMinLength:
      case Op::kMaxLength:
      case Op::kLen:
        return actual != nullptr && LengthHolds(op, arg, *actual);
      case Op::kContains:
        return actual != nullptr && Contains(arg, *actual);
      case Op::kNot: {
        std::vector<std::string> notes;
        const Tri r = Test(arg, actual, &notes);
        if (r == Tri::kUnknown) Note(std::move(notes));
        return r != Tri::kYes;
      }
      case Op::kEach:  // checked element by element by the caller
        return actual != nullptr && actual->IsArray();
      case Op::kEquals:
        return actual != nullptr && json::StrictEqual(*actual, arg);
      case Op::kUnique:
        return actual != nullptr && actual->IsArray() && arg.IsString() &&
               AllDiffer(*actual, View(arg));
      case Op::kJsonSchema:  // judged by Supplied
      case Op::kConforms:
      case Op::kUnknown:
        return false;
    }
    return false;
  }

  // $contains: a substring of a string, or an element of an array that matches the pattern.
  bool Contains(const rapidjson::Value& arg, const rapidjson::Value& actual) {
    if (actual.IsString()) {
      return arg.IsString() && View(actual).find(View(arg)) != std::string_view::npos;
    }
    return actual.IsArray() &&
           AnyOf(actual.GetArray(), [&](const rapidjson::Value& item, auto* notes) {
             return Test(arg, &item, notes);
           });
  }

  // $json_schema and $conforms: the schema layer's verdict. Untested holds, with a note.
  bool Supplied(Op op, const rapidjson::Value& arg, const rapidjson::Value* actual,
                const Path* path) {
    std::string where(base_);
    AppendPointer(path, &where);
    if (actual == nullptr) {
      if (!Full())
        Report(path, op == Op::kJsonSchema ? "a valid JSON Schema" : "a value", "nothing (absent)");
      return false;
    }
    schema::SuppliedVerdict verdict;
    if (op == Op::kJsonSchema) {
      if (!arg.IsTrue()) return false;
      verdict = schema::CheckSuppliedSchema(*actual);
    } else {
      std::string why;
      const rapidjson::Value* schema = ConformsSchema(arg, &why);
      if (schema == nullptr) {
        Note({(where.empty() ? "" : where + ": ") + why});
        return true;
      }
      verdict = schema::CheckConformance(*schema, *actual);
    }
    if (verdict.judgement == schema::Judgement::kHolds) return true;
    if (verdict.judgement == schema::Judgement::kUntested) {
      Note({(where.empty() ? "" : where + ": ") + verdict.untested});
      return true;
    }
    if (!Full()) {
      std::string problems;
      for (const schema::Violation& v : verdict.problems) {
        if (!problems.empty()) problems += "; ";
        if (op == Op::kJsonSchema)
          problems += "at " + (v.pointer.empty() ? std::string("(root)") : v.pointer) + ": ";
        else if (!v.pointer.empty())
          problems += "at " + v.pointer + ": ";
        problems += v.message;
      }
      Report(path,
             op == Op::kJsonSchema ? "a valid JSON Schema" : "a value that conforms to the schema",
             (op == Op::kJsonSchema ? "a schema that is wrong " : "") + problems);
    }
    return false;
  }

  bool Operators(const rapidjson::Value& node, const rapidjson::Value* actual, const Path* path) {
    const rapidjson::Value* each = nullptr;
    for (const auto& m : node.GetObject()) {
      const Op op = internal::OpOf(View(m.name));
      if (op == Op::kEach) each = &m.value;
      if (op == Op::kJsonSchema || op == Op::kConforms) {
        if (!Supplied(op, m.value, actual, path)) return false;
        continue;
      }
      if (!Holds(op, m.value, actual)) {
        if (!Full()) Report(path, internal::DescribeNode(node), DescribeValue(actual));
        return false;
      }
    }
    if (each == nullptr) return true;
    bool ok = true;
    for (rapidjson::SizeType i = 0; i < actual->Size(); ++i) {
      const Path child{path, {}, i, true};
      if (!Run(*each, &(*actual)[i], &child)) {
        ok = false;
        if (Full()) return false;
      }
    }
    return ok;
  }

  std::vector<Mismatch>* out_;
  std::string_view base_;
  std::vector<std::string>* untested_;
};

}  // namespace

bool Match(const rapidjson::Value& pattern, const rapidjson::Value* actual,
           std::vector<Mismatch>* out) {
  return Match(pattern, actual, out, {});
}

bool Match(const rapidjson::Value& pattern, const rapidjson::Value* actual,
           std::vector<Mismatch>* out, std::string_view base) {
  return Match(pattern, actual, out, base, nullptr);
}

bool Match(const rapidjson::Value& pattern, const rapidjson::Value* actual,
           std::vector<Mismatch>* out, std::string_view base, std::vector<std::string>* untested) {
  Engine engine(out, base, untested);
  const bool ok = engine.Run(pattern, actual, nullptr);
  if (match_cut && out)
    out->push_back({std::string(base), "the match done within the scenario's hard limit",
                    "the hard limit passed while the frame was being matched"});
  return ok && !match_cut;
}

MatchDeadline::MatchDeadline(std::chrono::steady_clock::time_point deadline)
    : previous_(match_deadline) {
  match_deadline = deadline;
  match_visits = 0;
  match_cut = false;
}

MatchDeadline::~MatchDeadline() {
  match_deadline = previous_;
  match_cut = false;
}

bool MatchDeadline::Passed() { return match_cut; }

}  // namespace fakehost::scenario
