// Making plugin-controlled text safe to show. Everything a plugin sends (payloads, error
// messages, stderr) is hostile input to a report: invalid UTF-8 would break a JSON or XML file,
// and escape sequences would repaint a terminal.
#pragma once

#include <string>
#include <string_view>

#include "harness/text/printable.hpp"

namespace fakehost::report {

using text::ValidUtf8;
/// For a terminal and a CI log: text::Printable (no escape sequence, no workflow command).
inline std::string TerminalSafe(std::string_view text, bool keep_newlines = false) {
  return text::Printable(text, keep_newlines);
}
/// "12 ms", "5.01 s".
std::string Duration(double ms);

}  // namespace fakehost::report
