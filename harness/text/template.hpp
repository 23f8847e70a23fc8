// "${name}" placeholders in text: the one template syntax fakehost reads, wherever a text is
// filled in (scenario variables, a profile's check wording and host replies, manifest rules).
//
// A placeholder is "${" up to the next "}"; what is between is its name, passed as written (so a
// name may be a dotted path, "plugin.id", or a JSON pointer, "/plugin_id": each caller says
// which names it knows). "$${" stands for a literal "${"; a "$" anywhere else is itself. An
// unterminated "${" is an error. A name the caller does not know is an error too: a misspelt
// placeholder fails where it is written rather than reaching a report as "${nmae}". A caller
// that must pass unknown names through (a text it does not own) returns Placeholder(name) for
// them, which puts them back as they were written.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fakehost::text {

/// One piece of a template: literal text, or a placeholder's name. Views into the template (for
/// the escape "$${", a view of its "${").
struct Piece {
  std::string_view text;
  bool placeholder = false;
};

/// Splits `text` into pieces in order, adjacent literals not merged. False with `*error`
/// ("unterminated '${' in \"...\"") if a "${" is never closed.
bool Split(std::string_view text, std::vector<Piece>* pieces, std::string* error);

/// The value of a placeholder's name; nullopt if the name is not known.
using Lookup = std::function<std::optional<std::string>(std::string_view name)>;

/// `text` with every placeholder replaced by its value, written to `*out`. Values are inserted
/// as they are, never scanned for placeholders. False with `*error` on an unterminated "${" or
/// a name `lookup` does not know ("unknown placeholder ${name}"); `*out` is unspecified then.
bool Fill(std::string_view text, const Lookup& lookup, std::string* out, std::string* error);

/// "${name}": for a lookup that leaves names it does not know as they were written.
std::string Placeholder(std::string_view name);

/// True if `text` holds "${" (a placeholder, or the escape "$${"): Fill may change it.
bool HasPlaceholders(std::string_view text);

}  // namespace fakehost::text
