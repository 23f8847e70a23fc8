// Making plugin-controlled text safe to show. Everything a plugin sends (payloads, error
// messages, stderr) is hostile input to a report: invalid UTF-8 would break a JSON or XML file,
// and escape sequences would repaint a terminal.
#pragma once

#include <string>
#include <string_view>

namespace fakehost::report {

/// Valid UTF-8: every invalid sequence becomes U+FFFD.
std::string ValidUtf8(std::string_view text);
/// For a terminal: valid UTF-8 with control characters (except '\n' when `keep_newlines`) shown
/// as \xNN, so no escape sequence reaches the screen.
std::string TerminalSafe(std::string_view text, bool keep_newlines = false);
/// "12 ms", "5.01 s".
std::string Duration(double ms);

}  // namespace fakehost::report
