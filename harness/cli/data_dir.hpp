// Where fakehost's data (profiles and schemas under schema/, suites under scenarios/) lives. An
// installed fakehost (the .deb, `cmake --install`) finds it beside itself, a built one in the
// source tree it was built from, and $FAKEHOST_HOME overrides both.
#pragma once

#include <string>

namespace fakehost::cli {

/// The first of: `home` ($FAKEHOST_HOME) when set and not empty; `<dir of exe>/../share/fakehost`
/// when that is a directory (`exe` empty: skipped); `built_in` (the source tree).
std::string ResolveDataDir(const char* home, const std::string& exe, const std::string& built_in);

}  // namespace fakehost::cli
