// Which protocols there are: the folders of a data directory's schema/ that hold a profile.json.
//
// The one list of protocols. The help texts, `--protocol`'s detection from a manifest, and every
// test that covers each protocol (the reference and detection matrices, the schema and profile
// checks, the fuzz targets) read it from a data directory (the cli's DataDir(); tests, the source
// tree), so a protocol is added as its folders (schema/<p>/, scenarios/<p>/, fixtures/<p>/) and
// nothing that lists protocols is edited. Header-only, so that tests of the layers below this one
// and the end-to-end tests use it without linking it.
#pragma once

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

namespace fakehost::protocol {

/// `<data_dir>/schema/<name>/profile.json`: where the profile of protocol `name` is.
inline std::string ProfilePath(const std::string& data_dir, const std::string& name) {
  return data_dir + "/schema/" + name + "/profile.json";
}

/// The name of every folder under `<data_dir>/schema/` that holds a profile.json, sorted; empty
/// when there is none. Nothing is loaded: a profile that does not load is its loader's to report.
inline std::vector<std::string> ProtocolNames(const std::string& data_dir) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(data_dir + "/schema", ec)) {
    std::error_code is;
    if (entry.is_directory(is) &&
        std::filesystem::is_regular_file(entry.path() / "profile.json", is))
      names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace fakehost::protocol
