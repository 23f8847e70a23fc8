// What every report format says about a scenario, worded once: the section a scenario belongs
// to, a one-line description of each miss, the frames around the failures, the stderr tail.
//
// These return plain text that still carries plugin bytes as they are: each format makes it
// safe its own way (XmlText, MarkdownText, the HTML's JSON, TerminalSafe).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "harness/result/run_report.hpp"

namespace fakehost::report {

/// The first path segment of a scenario id ("handshake" for "handshake/accepts-offered-version");
/// the id itself when it has no '/'.
std::string SectionOf(std::string_view id);

/// "step 3 shutdown (file:9:5): message" or "schema: message".
std::string FailureLine(const result::Failure& f);
/// Where a miss is, without its message: "step 3 shutdown (file:9:5)", "schema (frame #2)".
std::string FailurePlace(const result::Failure& f);
/// "must", "should", "may", or "error" for a harness error.
const char* FailureMark(const result::Failure& f);

/// The miss a scenario is reported under: the first harness error of an error, the first miss
/// that made it fail (must, or should under `strict`), else the first one; or, when that miss is
/// the consequence of another (causes.hpp), that other one. nullptr if none.
const result::Failure* Headline(const result::ScenarioResult& r, bool strict);

/// The transcript entries the failures point at, in order, without duplicates.
std::vector<std::size_t> MarkedFrames(const result::ScenarioResult& r);

/// The status's word in headings and annotation titles: "PASS", "FAIL", "WARN", "SKIP", "ERROR",
/// "UNTESTED", "XFAIL", "STALE", "NOT RUN".
const char* StatusWord(result::Status s);

/// The status's mark in Markdown and matrices: ✅ pass, ❌ fail, ⚠️ warn, ⏭️ not
/// applicable, 💥 error, 🔶 untested, 🚧 xfail, 🧹 stale, ⏹️ not run.
const char* StatusIcon(result::Status s);

/// `s` with each line break (\n, \r) written as the two characters of its escape.
std::string OneLine(std::string_view s);

/// One transcript entry on one line, without the marker: "#3  12.0 ms  host → plugin  request
/// rim.handshake id 1  {...}", the payload cut at `payload_chars` bytes. Always one line (OneLine),
/// so no payload, method or id can forge a line of the report around it.
std::string FrameLine(const result::TranscriptEntry& e, std::size_t index,
                      std::size_t payload_chars = 160);

/// Up to `frames_shown` frames ending just after the last marked frame (or the last frame), one
/// line each ("▶ #3  12.0 ms  host → plugin  request rim.handshake id 1  {...}"), payloads cut at
/// `payload_chars` bytes. Empty when there is no transcript.
std::string FramesExcerpt(const result::ScenarioResult& r, std::size_t frames_shown = 6,
                          std::size_t payload_chars = 160);

/// The last `lines` non-empty lines of a stderr tail.
std::string StderrLastLines(std::string_view tail, std::size_t lines = 6);

/// "killed by SIGTERM (stop: SIGTERM, 1.00 s)" / "still running"; "" when nothing is known.
std::string ExitLine(const result::ExitInfo& exit);

/// Results that were not played (status skip or not-run), with "not run: " before the reason of
/// a not-run one.
std::string SkipReason(const result::ScenarioResult& r);

/// For `--repeat`: 1 for the first result with its id, 2 for the second, ...
std::vector<int> Occurrences(const result::RunReport& report);

/// `s` cut to at most `max` bytes at a UTF-8 boundary, with "…" when cut.
std::string Clip(std::string_view s, std::size_t max);

}  // namespace fakehost::report
