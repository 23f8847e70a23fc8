// The run the report tests draw: one of everything (passes, a failure, a warning, a skip, a
// harness error, a not-run), with fixed times and paths below a fixed root, and optionally
// hostile text in every field a plugin or a scenario can fill.
#pragma once

#include <string>

#include "harness/result/run_report.hpp"

namespace fakehost::testing {

constexpr const char* kGoldenRoot = "/golden-root";

/// `hostile` empty: ordinary text. Else that text is put into every plugin-controlled field and
/// one failure carries a 1 MiB message.
result::RunReport ReportFixture(const std::string& hostile = "");

/// Text that tries to break every format: closing tags, CDATA ends, comments, quotes, control
/// characters, invalid UTF-8, a lone surrogate, Markdown, workflow commands (`::` at a line's
/// start, after blanks; `##[` mid-line) and terminal escapes (OSC 52, BEL, CR).
std::string HostileText();

/// Durations, timestamps and the fixture root replaced by placeholders, for golden files.
std::string Masked(std::string text);

}  // namespace fakehost::testing
