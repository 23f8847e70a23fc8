// The compact text of a value, for writing it out, with its long strings left where they are.
//
// A 10 MiB frame is mostly one string (a padded ping). Serialising it copies that string into
// the frame's bytes while the document still holds it, so it is held twice. As pieces, the
// frame's bytes are the text JSON adds around such strings plus views of the strings in the
// document's own memory: the string is held once, by the document, which the writer of the
// pieces keeps alive until they are written (session/send.cpp, process::SharedBytes).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "harness/json/rapidjson.hpp"

namespace fakehost::json {

struct CompactPieces {
  /// A string left in the value: its bytes go after the first `at` bytes of `text`.
  struct Shared {
    std::size_t at = 0;
    std::string_view bytes;
  };

  std::string text;            ///< every byte but the shared strings', in order
  std::vector<Shared> shared;  ///< by `at`, ascending

  std::uint64_t size() const;             ///< of the whole text
  std::string Head(std::size_t n) const;  ///< its first `n` bytes (all if fewer)
};

/// ToCompact's text of `value` as pieces: a string of `shared_from` bytes or more that JSON
/// writes as it is (nothing in it to escape) is shared, not copied. `text` is measured first and
/// written once, with `spare` bytes of capacity more (room for a framing's header). False for
/// NaN or Inf. The views stay valid while `value` lives unchanged.
bool ToCompactPieces(const rapidjson::Value& value, std::size_t shared_from, std::size_t spare,
                     CompactPieces* out);

}  // namespace fakehost::json
