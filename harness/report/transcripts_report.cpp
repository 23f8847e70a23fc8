// `--transcripts DIR`: every frame of every scenario that ran, one JSON object a line, for tools
// (jq, a replay, a diff between two plugin versions) rather than people.
#include <filesystem>

#include "harness/report/excerpt.hpp"
#include "harness/report/reporter.hpp"
#include "harness/report/text.hpp"

namespace fakehost::report {
namespace {

class TranscriptsReporter : public Reporter {
 public:
  explicit TranscriptsReporter(std::string dir) : dir_(std::move(dir)) {}
  bool RunEnded(const result::RunReport& report, std::string* error) override {
    std::vector<int> occurrence = Occurrences(report);
    bool ok = true;
    for (std::size_t i = 0; i < report.scenarios.size(); ++i) {
      const auto& r = report.scenarios[i];
      if (r.status == result::Status::kSkip || r.status == result::Status::kNotRun ||
          r.status == result::Status::kUntested)
        continue;
      std::string path = dir_ + "/" + TranscriptFileName(r.id, occurrence[i]);
      std::string one_error;
      if (!WriteFileAtomically(path, TranscriptLines(r), &one_error)) {
        if (ok) *error = one_error;  // the first; the others are the same directory's fault
        ok = false;
      }
    }
    return ok;
  }

 private:
  std::string dir_;
};

}  // namespace

std::string TranscriptFileName(std::string_view id, int occurrence) {
  std::string out;
  for (char c : id) {
    if (c == '/')
      out += "__";
    else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
             c == '-' || c == '_' || c == '.')
      out += c;
    else
      out += '_';
  }
  if (out.empty() || out[0] == '.') out.insert(0, "_");
  if (occurrence > 1) out += "." + std::to_string(occurrence);
  return out + ".jsonl";
}

std::string TranscriptLines(const result::ScenarioResult& r) {
  std::string out;
  for (const auto& e : r.transcript) out += TranscriptLine(e) + "\n";
  return out;
}

std::unique_ptr<Reporter> MakeTranscriptsReporter(std::string dir) {
  return std::make_unique<TranscriptsReporter>(std::move(dir));
}

}  // namespace fakehost::report
