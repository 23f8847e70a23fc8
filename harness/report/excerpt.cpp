#include "harness/report/excerpt.hpp"

#include <algorithm>
#include <cstdio>
#include <map>

#include "harness/report/causes.hpp"
#include "harness/report/text.hpp"

namespace fakehost::report {

using result::Failure;
using result::ScenarioResult;

std::string SectionOf(std::string_view id) {
  std::size_t slash = id.find('/');
  return std::string(slash == std::string_view::npos ? id : id.substr(0, slash));
}

const char* FailureMark(const Failure& f) {
  if (f.harness_error) return "error";
  return result::LevelName(f.level);
}

std::string FailureLine(const Failure& f) {
  std::string out;
  if (f.check == "step") {
    out = "step " + std::to_string(f.step) + " " + f.step_kind;
    if (f.loc.line > 0) out += " (" + f.loc.ToString() + ")";
  } else {
    out = f.check;
  }
  return out + ": " + f.message;
}

std::string FailurePlace(const Failure& f) {
  if (f.check != "step")
    return f.frame ? f.check + " (frame #" + std::to_string(*f.frame) + ")" : f.check;
  std::string out = "step " + std::to_string(f.step) + " " + f.step_kind;
  if (f.loc.line > 0) out += " (" + f.loc.ToString() + ")";
  return out;
}

const Failure* Headline(const ScenarioResult& r, bool strict) {
  if (r.failures.empty()) return nullptr;
  std::size_t head = 0;
  for (std::size_t i = 0; i < r.failures.size(); ++i) {
    const Failure& f = r.failures[i];
    if (r.status == result::Status::kError
            ? f.harness_error
            : !f.harness_error && (f.level == result::Level::kMust ||
                                   (strict && f.level == result::Level::kShould))) {
      head = i;
      break;
    }
  }
  // A consequence is reported under its cause.
  std::optional<std::size_t> root = CausedBy(r)[head];
  return &r.failures[root ? *root : head];
}

std::vector<std::size_t> MarkedFrames(const ScenarioResult& r) {
  std::vector<std::size_t> out;
  for (const Failure& f : r.failures)
    if (f.frame && *f.frame < r.transcript.size()) out.push_back(*f.frame);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::string Clip(std::string_view s, std::size_t max) {
  if (s.size() <= max) return std::string(s);
  std::size_t cut = max;
  // Back up to a UTF-8 lead byte so the cut never splits a character.
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
  return std::string(s.substr(0, cut)) + "…";
}

const char* StatusWord(result::Status s) {
  switch (s) {
    case result::Status::kPass:
      return "PASS";
    case result::Status::kFail:
      return "FAIL";
    case result::Status::kWarn:
      return "WARN";
    case result::Status::kSkip:
      return "SKIP";
    case result::Status::kError:
      return "ERROR";
    case result::Status::kUntested:
      return "UNTESTED";
    case result::Status::kXfail:
      return "XFAIL";
    case result::Status::kStale:
      return "STALE";
    case result::Status::kNotRun:
      break;
  }
  return "NOT RUN";
}

const char* StatusIcon(result::Status s) {
  switch (s) {
    case result::Status::kPass:
      return "✅";
    case result::Status::kFail:
      return "❌";
    case result::Status::kWarn:
      return "⚠️";
    case result::Status::kSkip:
      return "⏭️";
    case result::Status::kError:
      return "💥";
    case result::Status::kUntested:
      return "🔶";
    case result::Status::kXfail:
      return "🚧";
    case result::Status::kStale:
      return "🧹";
    case result::Status::kNotRun:
      break;
  }
  return "⏹️";
}

std::string OneLine(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    if (c == '\n')
      out += "\\n";
    else if (c == '\r')
      out += "\\r";
    else
      out += c;
  }
  return out;
}

std::string FrameLine(const result::TranscriptEntry& e, std::size_t index,
                      std::size_t payload_chars) {
  char t[48];
  std::snprintf(t, sizeof t, "#%zu %8.1f ms  ", index, e.t_ms);
  std::string out = t;
  out += result::DirectionArrow(e.direction);
  out += "  ";
  out += result::EntryKindName(e.kind);
  if (!e.method.empty()) out += " " + e.method;
  if (!e.id.empty()) out += " id " + e.id;
  if (e.kind == result::EntryKind::kRaw || e.kind == result::EntryKind::kOversized ||
      e.kind == result::EntryKind::kTruncated || e.kind == result::EntryKind::kBadHeader)
    out += "  (" + std::to_string(e.size) + " bytes)";
  else
    out += "  " + Clip(e.text, payload_chars);
  return OneLine(out);
}

std::string FramesExcerpt(const ScenarioResult& r, std::size_t frames_shown,
                          std::size_t payload_chars) {
  if (r.transcript.empty() || frames_shown == 0) return "";
  std::vector<std::size_t> marked = MarkedFrames(r);
  std::size_t last = r.transcript.size() - 1;
  std::size_t focus = marked.empty() ? last : marked.back();
  std::size_t end = std::min(last, focus + 1);
  std::size_t begin = end + 1 > frames_shown ? end + 1 - frames_shown : 0;
  std::string out;
  if (begin > 0)
    out += "(frames " + std::to_string(begin) + "–" + std::to_string(end) + " of " +
           std::to_string(r.transcript.size()) + ")\n";
  for (std::size_t i = begin; i <= end; ++i) {
    const auto& e = r.transcript[i];
    bool mark = std::binary_search(marked.begin(), marked.end(), i);
    out += mark ? "▶ " : "  ";
    out += FrameLine(e, i, payload_chars) + "\n";
    for (const auto& v : e.violations)
      out += OneLine("      schema: " + (v.pointer.empty() ? std::string("(frame)") : v.pointer) +
                     ": " + v.message) +
             "\n";
    for (const auto& n : e.notes) {
      // A note that is word for word a failure on this frame is already said above it.
      bool said = std::any_of(r.failures.begin(), r.failures.end(),
                              [&](const Failure& f) { return f.frame == i && f.message == n; });
      if (!said) out += OneLine("      note: " + n) + "\n";
    }
  }
  return out;
}

std::string StderrLastLines(std::string_view tail, std::size_t lines) {
  std::vector<std::string_view> kept;
  std::size_t end = tail.size();
  while (end > 0 && kept.size() < lines) {
    std::size_t nl = tail.rfind('\n', end - 1);
    std::size_t begin = nl == std::string_view::npos ? 0 : nl + 1;
    std::string_view line = tail.substr(begin, end - begin);
    if (!line.empty() && line != "\r") kept.push_back(line);
    if (nl == std::string_view::npos) break;
    end = nl;
  }
  std::string out;
  for (auto it = kept.rbegin(); it != kept.rend(); ++it) {
    out += *it;
    out += '\n';
  }
  return out;
}

std::string ExitLine(const result::ExitInfo& exit) {
  if (!exit.exited && exit.stop_stage.empty()) return "";
  std::string out = exit.exited ? exit.description : "still running";
  if (!exit.stop_stage.empty())
    out += " (stop: " + exit.stop_stage + ", " + Duration(exit.stop_ms) + ")";
  return out;
}

std::string SkipReason(const ScenarioResult& r) {
  if (r.status == result::Status::kNotRun)
    return "not run: " +
           (r.skip_reason.empty() ? std::string("the run ended first") : r.skip_reason);
  if (r.status == result::Status::kUntested) return "untested: " + r.skip_reason;
  return r.skip_reason.empty() ? std::string("skipped") : r.skip_reason;
}

std::vector<int> Occurrences(const result::RunReport& report) {
  std::map<std::string, int> seen;
  std::vector<int> out;
  out.reserve(report.scenarios.size());
  for (const auto& s : report.scenarios) out.push_back(++seen[s.id]);
  return out;
}

}  // namespace fakehost::report
