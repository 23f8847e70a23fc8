// CheckSchema: a schema's own examples are its regression suite.
#include <string>
#include <string_view>

#include "harness/json/json.hpp"
#include "harness/schema/schema.hpp"

namespace fakehost::schema {
namespace {

std::string Describe(const std::vector<Violation>& violations) {
  std::string out;
  for (const Violation& v : violations) {
    if (!out.empty()) out += " | ";
    out += (v.pointer.empty() ? std::string("(root)") : v.pointer) + ": " + v.message;
  }
  return out;
}

void CheckExamples(const FrameSchema& schema, const std::string& def, const rapidjson::Value& entry,
                   CheckRow* row) {
  const rapidjson::Value* examples = json::Find(entry, "examples");
  if (examples == nullptr || !examples->IsArray() || examples->Empty()) {
    row->problems.push_back("no \"examples\" (a non-empty array of frames that must validate)");
    return;
  }
  int index = 0;
  for (const rapidjson::Value& frame : examples->GetArray()) {
    ++row->examples;
    const std::vector<Violation> violations = schema.Validate(def, frame);
    if (violations.empty()) {
      ++row->passed;
    } else {
      row->problems.push_back("example #" + std::to_string(index) + " " +
                              json::Abbreviate(json::ToCompact(frame), 120) +
                              " fails: " + Describe(violations));
    }
    ++index;
  }
}

void CheckCounterexamples(const FrameSchema& schema, const std::string& def,
                          const rapidjson::Value& entry, CheckRow* row) {
  const rapidjson::Value* bad = json::Find(entry, "x-invalid-examples");
  if (bad == nullptr || !bad->IsArray() || bad->Empty()) {
    row->problems.push_back(
        "no \"x-invalid-examples\" (a non-empty array of {frame, pointer, why})");
    return;
  }
  int index = 0;
  for (const rapidjson::Value& item : bad->GetArray()) {
    ++row->counterexamples;
    const std::string label = "x-invalid-examples #" + std::to_string(index++);
    const rapidjson::Value* frame = item.IsObject() ? json::Find(item, "frame") : nullptr;
    const rapidjson::Value* pointer = item.IsObject() ? json::Find(item, "pointer") : nullptr;
    const rapidjson::Value* why = item.IsObject() ? json::Find(item, "why") : nullptr;
    if (frame == nullptr || pointer == nullptr || !pointer->IsString() || why == nullptr ||
        !why->IsString()) {
      row->problems.push_back(label + " is not {frame, pointer: string, why: string}");
      continue;
    }
    const std::string_view expected(pointer->GetString(), pointer->GetStringLength());
    const std::string reason(why->GetString(), why->GetStringLength());
    const std::vector<Violation> violations = schema.Validate(def, *frame);
    if (violations.empty()) {
      row->problems.push_back(label + " (" + reason + ") validates, but must fail at '" +
                              std::string(expected) + "'");
      continue;
    }
    bool hit = false;
    for (const Violation& v : violations) hit = hit || PointerAtOrBelow(v.pointer, expected);
    if (hit) {
      ++row->caught;
    } else {
      row->problems.push_back(label + " (" + reason + ") must fail at '" + std::string(expected) +
                              "' but fails at " + Describe(violations));
    }
  }
}

}  // namespace

std::vector<CheckRow> CheckSchema(const FrameSchema& schema) {
  std::vector<CheckRow> rows;
  for (const std::string& def : schema.DefNames()) {
    CheckRow row;
    row.def = def;
    const rapidjson::Value* entry = schema.Def(def);
    if (entry == nullptr || !entry->IsObject()) {
      row.problems.push_back("the entry is not an object");
    } else {
      CheckExamples(schema, def, *entry, &row);
      CheckCounterexamples(schema, def, *entry, &row);
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace fakehost::schema
