#include "harness/certify/revalidate.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "harness/json/json.hpp"
#include "harness/json/text_file.hpp"
#include "harness/report/json_report_read.hpp"
#include "harness/result/transcript.hpp"

namespace fakehost::certify {
namespace {

namespace fs = std::filesystem;

// A message the run's schema routes to an entry (an invalid envelope has none).
bool IsFrameKind(result::EntryKind kind) {
  return result::IsMessage(kind) && kind != result::EntryKind::kInvalid;
}

// One re-checkable entry, live or read back from a file: the same verdict for the same entry.
// The payload is parsed as the session parsed it (json::Parse, the bytes as received).
void CheckEntry(const schema::FrameSchema& candidate, const result::TranscriptEntry& e,
                std::size_t line_no, const OnRejected& on_rejected, RevalidationCounts* counts) {
  // Only what the run's schema checked: an entry without schema_def was sent deliberately
  // invalid or is not a message at all.
  if (!IsFrameKind(e.kind) || e.schema_def.empty()) return;
  rapidjson::Document frame;
  if (e.clipped || e.summarised || !json::Parse(e.text, &frame).ok) {
    ++counts->unchecked;  // only its start, or nothing, was kept
    return;
  }
  ++counts->checked;
  RejectedFrame r;
  r.violations = Revalidate(candidate, result::EntryKindName(e.kind), e.method, frame, &r.def);
  if (r.violations.empty()) return;
  ++counts->rejected;
  r.index = e.index;
  r.line = line_no;
  r.from_plugin = e.direction == result::Direction::kPluginToHost;
  on_rejected(r);
}

}  // namespace

std::vector<schema::Violation> Revalidate(const schema::FrameSchema& candidate,
                                          std::string_view kind, std::string_view method,
                                          const rapidjson::Value& frame, std::string* def) {
  *def = schema::RouteDef(candidate, kind, method);
  if (def->empty() || !candidate.Has(*def))
    return {{"", "the candidate schema has no entry for a " + std::string(kind) +
                     (method.empty() ? "" : " of " + std::string(method))}};
  return candidate.Validate(*def, frame);
}

void RevalidateTranscript(const schema::FrameSchema& candidate,
                          const std::vector<result::TranscriptEntry>& transcript,
                          const OnRejected& on_rejected, RevalidationCounts* counts) {
  for (const result::TranscriptEntry& e : transcript)
    CheckEntry(candidate, e, 0, on_rejected, counts);
}

bool RevalidateTranscriptFile(const schema::FrameSchema& candidate, const std::string& path,
                              const OnRejected& on_rejected, RevalidationCounts* counts,
                              std::string* error) {
  if (!json::CheckInputFile(path, json::kTranscriptFileCap, error)) return false;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *error = path + ": cannot be read";
    return false;
  }
  std::string line;
  std::size_t line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    if (line.empty()) continue;
    result::TranscriptEntry e;
    std::string why;
    if (!report::ParseTranscriptLine(line, &e, &why)) {
      *error = path + ":" + std::to_string(line_no) + ":" + why;
      return false;
    }
    CheckEntry(candidate, e, line_no, on_rejected, counts);
  }
  if (in.bad()) {
    *error = path + ": read error";
    return false;
  }
  return true;
}

bool FindTranscriptFiles(const std::vector<std::string>& paths, std::vector<std::string>* files,
                         std::string* error) {
  for (const std::string& p : paths) {
    std::error_code ec;
    if (fs::is_regular_file(p, ec)) {
      files->push_back(p);
      continue;
    }
    if (!fs::is_directory(p, ec)) {
      *error = p + ": no such transcript file or directory";
      return false;
    }
    std::size_t before = files->size();
    for (auto it = fs::recursive_directory_iterator(p, ec); !ec && it != fs::end(it);
         it.increment(ec))
      if (it->is_regular_file(ec) && it->path().extension() == ".jsonl")
        files->push_back(it->path().string());
    if (files->size() == before) {
      *error = p + ": holds no .jsonl transcript (written by run --transcripts DIR)";
      return false;
    }
  }
  std::sort(files->begin(), files->end());
  files->erase(std::unique(files->begin(), files->end()), files->end());
  return true;
}

}  // namespace fakehost::certify
