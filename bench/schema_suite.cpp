// How well fakehost judges schemas a plugin supplies, measured on the official
// JSON-Schema-Test-Suite (github.com/json-schema-org/JSON-Schema-Test-Suite): for each keyword
// file of tests/draft2020-12 and tests/draft7, how many test cases valijson (draft-07 parser)
// gets right on its own, and what fakehost's dialect gate (harness/schema/supplied.hpp) makes of
// them: right, untested, wrong. The gate must never be wrong; its table of keywords comes from
// the valijson column.
//
//   schema_suite [SUITE_DIR]     (or FAKEHOST_SCHEMA_SUITE=SUITE_DIR; --verbose lists misses)
//
// The suite is not part of the repository and nothing downloads it: without a directory this
// prints why and exits 0, so CI needs none. Neither Debian's json-schema-test-suite (2.0.0) nor
// npm's (0.0.10) has draft2020-12; a checkout of the upstream repository does.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

#include "harness/json/json.hpp"
#include "harness/schema/supplied.hpp"
#include "harness/schema/valijson_rapidjson.hpp"

namespace {

namespace fs = std::filesystem;
using fakehost::schema::Judgement;

struct Row {
  std::string file;
  int total = 0, valijson_right = 0, gate_right = 0, gate_untested = 0, gate_wrong = 0;
};

bool ValijsonSays(const rapidjson::Value& schema, const rapidjson::Value& data, bool* valid) {
  try {
    valijson::Schema compiled;
    valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
    parser.populateSchema(valijson::adapters::RapidJsonAdapter(schema), compiled);
    valijson::Validator validator(valijson::Validator::kStrongTypes);
    *valid = validator.validate(compiled, valijson::adapters::RapidJsonAdapter(data), nullptr);
    return true;
  } catch (const std::exception&) {
    return false;  // refused the schema: counted wrong
  }
}

// In a child process: per test, valijson's verdict ('1' valid, '0' invalid, 'x' schema refused)
// or (`gate`) the gate's ('1', '0', 'u' untested); a crash leaves the rest unanswered.
std::string JudgeGroup(const rapidjson::Value& schema, const rapidjson::Value& tests, bool gate) {
  int fds[2];
  if (pipe(fds) != 0) return {};
  const pid_t child = fork();
  if (child == 0) {
    close(fds[0]);
    for (const auto& test : tests.GetArray()) {
      const rapidjson::Value* data = fakehost::json::Find(test, "data");
      const rapidjson::Value* valid = fakehost::json::Find(test, "valid");
      if (!data || !valid || !valid->IsBool()) continue;
      bool says = false;
      char out = 'x';
      if (!gate) {
        out = ValijsonSays(schema, *data, &says) ? (says ? '1' : '0') : 'x';
      } else {
        const auto verdict = fakehost::schema::CheckConformance(schema, *data);
        if (verdict.judgement == Judgement::kUntested && std::getenv("SCHEMA_SUITE_WHY"))
          std::cout << "  untested: " << verdict.untested << std::endl;
        out = verdict.judgement == Judgement::kUntested ? 'u'
              : verdict.judgement == Judgement::kHolds  ? '1'
                                                        : '0';
      }
      if (write(fds[1], &out, 1) != 1) break;
    }
    _exit(0);
  }
  close(fds[1]);
  std::string answers;
  char buffer[256];
  for (ssize_t n; (n = read(fds[0], buffer, sizeof buffer)) > 0;)
    answers.append(buffer, static_cast<std::size_t>(n));
  close(fds[0]);
  int status = 0;
  waitpid(child, &status, 0);
  return answers;
}

Row Measure(const fs::path& file, bool draft7, bool verbose) {
  Row row;
  row.file = file.stem().string();
  std::ifstream in(file, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  rapidjson::Document doc;
  if (!fakehost::json::Parse(text.str(), &doc).ok || !doc.IsArray()) {
    std::cerr << file << ": not a JSON array of test groups\n";
    return row;
  }
  for (const auto& group : doc.GetArray()) {
    const rapidjson::Value* schema = fakehost::json::Find(group, "schema");
    const rapidjson::Value* tests = fakehost::json::Find(group, "tests");
    if (!schema || !tests || !tests->IsArray()) continue;
    // The draft7 files leave $schema out; the gate reads a schema without one as 2020-12, so
    // they are measured as the draft-07 schemas they are.
    rapidjson::Document declared;
    declared.CopyFrom(*schema, declared.GetAllocator());
    if (draft7 && declared.IsObject() && !fakehost::json::Find(declared, "$schema"))
      declared.AddMember("$schema", "http://json-schema.org/draft-07/schema#",
                         declared.GetAllocator());
    // valijson recurses without end on some of the suite's schemas ($ref cycles): each group
    // is judged in a child process, for valijson and again for the gate.
    const std::string by_valijson = JudgeGroup(*schema, *tests, false);
    const std::string by_gate = JudgeGroup(declared, *tests, true);
    rapidjson::SizeType i = 0;
    for (const auto& test : tests->GetArray()) {
      const rapidjson::Value* valid = fakehost::json::Find(test, "valid");
      if (!fakehost::json::Find(test, "data") || !valid || !valid->IsBool()) continue;
      const std::string description = fakehost::json::StringMember(group, "description") + " / " +
                                      fakehost::json::StringMember(test, "description");
      const char v = i < by_valijson.size() ? by_valijson[i] : 'c';
      const char g = i < by_gate.size() ? by_gate[i] : 'c';
      ++i;
      ++row.total;
      const char want = valid->GetBool() ? '1' : '0';
      if (v == want) {
        ++row.valijson_right;
      } else if (verbose) {
        std::cout << "  valijson "
                  << (v == 'c'   ? "crashes"
                      : v == 'x' ? "refuses"
                                 : "misses")
                  << " " << row.file << ": " << description << "\n";
      }
      if (g == 'u') {
        ++row.gate_untested;
      } else if (g == want) {
        ++row.gate_right;
      } else {
        ++row.gate_wrong;
        if (verbose)
          std::cout << "  GATE " << (g == 'c' ? "CRASHES" : "WRONG") << " " << row.file << ": "
                    << description << "\n";
      }
    }
  }
  return row;
}

}  // namespace

int main(int argc, char** argv) {
  bool verbose = false;
  std::string dir;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--verbose")
      verbose = true;
    else
      dir = arg;
  }
  if (dir.empty() && std::getenv("FAKEHOST_SCHEMA_SUITE"))
    dir = std::getenv("FAKEHOST_SCHEMA_SUITE");
  if (dir.empty() || !fs::is_directory(fs::path(dir) / "tests")) {
    std::cout << "schema_suite: skipped: give a checkout of JSON-Schema-Test-Suite (its tests/ "
                 "folder) as the argument or in FAKEHOST_SCHEMA_SUITE\n";
    return 0;
  }
  int gate_wrong = 0;
  for (const char* draft : {"draft2020-12", "draft7"}) {
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(fs::path(dir) / "tests" / draft))
      if (entry.is_regular_file() && entry.path().extension() == ".json")
        files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    std::printf(
        "\n%s\n| keyword file | valijson right/total | gate right | gate untested | "
        "gate wrong |\n|---|---|---|---|---|\n",
        draft);
    Row sum;
    for (const fs::path& file : files) {
      Row r = Measure(file, std::string(draft) == "draft7", verbose);
      std::printf("| %s | %d/%d | %d | %d | %d |\n", r.file.c_str(), r.valijson_right, r.total,
                  r.gate_right, r.gate_untested, r.gate_wrong);
      sum.total += r.total;
      sum.valijson_right += r.valijson_right;
      sum.gate_right += r.gate_right;
      sum.gate_untested += r.gate_untested;
      sum.gate_wrong += r.gate_wrong;
    }
    std::printf("| **all** | %d/%d | %d | %d | %d |\n", sum.valijson_right, sum.total,
                sum.gate_right, sum.gate_untested, sum.gate_wrong);
    gate_wrong += sum.gate_wrong;
  }
  return gate_wrong == 0 ? 0 : 1;
}
