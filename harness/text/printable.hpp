// Untrusted text made safe to print. What a plugin sends (stderr, frames, ids, method names) and
// what an input file holds (a shard report, a transcript, a manifest) reaches a terminal and a
// CI job log. Two kinds of bytes there act instead of being shown:
//  - terminal controls: C0 and C1 controls and DEL start escape sequences (ESC, OSC 52, BEL)
//    or move the cursor (CR);
//  - CI workflow commands: GitHub's runner acts on `::name ...::` at the start of a line (after
//    any whitespace it trims) and on the legacy `##[name]` anywhere in a line.
// Printable shows every such byte visibly as \xNN, so the text reads the same and does nothing.
#pragma once

#include <string>
#include <string_view>

namespace fakehost::text {

/// Valid UTF-8: every invalid sequence becomes U+FFFD.
std::string ValidUtf8(std::string_view text);
/// Whether `text` is UTF-8 as RFC 3629 has it (no overlong forms, no surrogates, nothing past
/// U+10FFFF): the rules JSON parsing applies, so such bytes written as a JSON string read back.
bool IsValidUtf8(std::string_view text);

/// The one neutraliser every printer uses for text it did not write. Valid UTF-8, with:
///  - control characters (C0 but '\n' when `keep_newlines`, DEL, C1) as \xNN;
///  - the '[' of "##[" as \x5b, and a '#' ending the text as \x23 (so text printed before
///    "#[" or "[" cannot complete one either);
///  - a ':' that is the first non-blank character of a line of the text as \x3a (so no line,
///    even one the text starts after our indentation, begins with "::").
/// Callers keep their own text from gluing onto it: no "##" right before it, no line that
/// starts with a ':' of ours.
std::string Printable(std::string_view text, bool keep_newlines = false);

/// Compact JSON text (where every non-ASCII character is inside a string) made a valid line of
/// YAML: valid UTF-8, with each character YAML does not allow in a document (DEL, the C1
/// controls but U+0085, U+FEFF, U+FFFE, U+FFFF) and any C0 control as a JSON \uXXXX escape,
/// which reads back as the same character.
std::string YamlSafeJson(std::string_view json);

}  // namespace fakehost::text
