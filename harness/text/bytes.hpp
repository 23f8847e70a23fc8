// Bytes as text and back, one codec per encoding, shared by whoever writes and whoever reads:
// hex (a scenario's `send_raw: {hex: ...}`, which the fuzzer and `from-transcript` write and the
// loader reads; the framing check's quote of a header) and base64 (a transcript entry's
// `base64`, bytes that are not UTF-8, which the JSON report writes and its reader reads).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace fakehost::text {

/// Two lowercase hex digits per byte, with `separator` between bytes unless it is '\0'.
std::string Hex(std::string_view bytes, char separator = '\0');
/// Pairs of hex digits (either case), optionally separated by whitespace. False, with `*bad` the
/// offset of the offending character in `text`, when it is not that.
bool FromHex(std::string_view text, std::string* out, std::size_t* bad);

/// RFC 4648 base64, with padding.
std::string Base64(std::string_view bytes);
/// The bytes `text` encodes (RFC 4648; the padding may be left out). False when `text` holds a
/// character outside the alphabet, or padding before its end.
bool FromBase64(std::string_view text, std::string* out);

}  // namespace fakehost::text
