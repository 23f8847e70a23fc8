#include "harness/wire/codec.hpp"

#include <limits>
#include <stdexcept>

#include "harness/wire/length_prefixed.hpp"
#include "harness/wire/ndjson.hpp"

namespace fakehost::wire {

bool ParseFraming(std::string_view name, Framing* out) {
  if (name == "length-prefixed") {
    *out = Framing::kLengthPrefixed;
    return true;
  }
  if (name == "ndjson") {
    *out = Framing::kNdjson;
    return true;
  }
  return false;
}

std::unique_ptr<Decoder> MakeDecoder(Framing framing, std::uint64_t max_payload) {
  if (framing == Framing::kLengthPrefixed) {
    return std::make_unique<LengthPrefixedDecoder>(max_payload);
  }
  return std::make_unique<NdjsonDecoder>(max_payload);
}

std::string LengthHeader(std::uint32_t length) {
  std::string header(4, '\0');
  for (std::size_t i = 0; i < 4; ++i) {
    header[i] = static_cast<char>((length >> (8 * i)) & 0xFFu);
  }
  return header;
}

std::string Encode(Framing framing, std::string_view payload) {
  std::string frame;
  if (framing == Framing::kLengthPrefixed) {
    if (payload.size() > std::numeric_limits<std::uint32_t>::max()) {
      // A u32 cannot say it; a truncated length would desynchronise the stream.
      throw std::length_error("payload too long for a u32 length prefix");
    }
    frame = LengthHeader(static_cast<std::uint32_t>(payload.size()));
    frame.reserve(4 + payload.size());
    frame.append(payload);
  } else {
    frame.reserve(payload.size() + 1);
    frame.append(payload);
    frame.push_back('\n');
  }
  return frame;
}

}  // namespace fakehost::wire
