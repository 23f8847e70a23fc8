// Making plugin-controlled text safe to show. Everything a plugin sends (payloads, error
// messages, stderr) is hostile input to a report: invalid UTF-8 would break a JSON or XML file,
// and escape sequences would repaint a terminal.
#pragma once

#include <string>
#include <string_view>

#include <vector>

#include "harness/result/result.hpp"
#include "harness/text/printable.hpp"

namespace fakehost::report {

using text::ValidUtf8;
/// For a terminal and a CI log: text::Printable (no escape sequence, no workflow command).
inline std::string TerminalSafe(std::string_view text, bool keep_newlines = false) {
  return text::Printable(text, keep_newlines);
}
/// "12 ms", "5.01 s".
std::string Duration(double ms);
/// The revisions a run's scenarios were judged under, with their counts, most first: "revision
/// 2024-11-05 (40 scenarios)", "" for a protocol without revisions. Only scenarios that were
/// judged count (not the not applicable, untested or not run); one that ended before the plugin
/// named its revision counts under the one offered.
std::string JudgedUnder(const std::vector<result::ScenarioResult>& results);
/// What a scenario holds the plugin to: the sentence it cites, quoted, then its requirement in
/// the suite's words; only the requirement for a scenario that cites none.
inline std::string RequirementText(std::string_view sentence, std::string_view requirement) {
  if (sentence.empty()) return std::string(requirement);
  return "\"" + std::string(sentence) + "\" " + std::string(requirement);
}

}  // namespace fakehost::report
