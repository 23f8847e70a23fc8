// Test helpers for the wire decoders: feed a stream in chosen pieces and print events readably,
// so a test compares one string and a failure shows every field of every event.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "harness/wire/codec.hpp"

namespace fakehost::wire::testing {

/// Escapes control and non-ASCII bytes as \xNN so payloads print on one line.
inline std::string Printable(std::string_view bytes) {
  static const char kHex[] = "0123456789abcdef";
  std::string out;
  for (char c : bytes) {
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u < 0x7f && c != '\\') {
      out.push_back(c);
    } else {
      out += "\\x";
      out.push_back(kHex[u >> 4]);
      out.push_back(kHex[u & 0xF]);
    }
  }
  return out;
}

inline std::string Describe(const Event& event) {
  if (const auto* f = std::get_if<Frame>(&event)) {
    return "Frame@" + std::to_string(f->offset) + "[" + Printable(f->payload) + "]";
  }
  if (const auto* o = std::get_if<Oversized>(&event)) {
    return "Oversized@" + std::to_string(o->offset) + " announced=" + std::to_string(o->announced) +
           " header=[" + Printable(o->header) + "]";
  }
  if (const auto* b = std::get_if<BadHeader>(&event)) {
    return "BadHeader@" + std::to_string(b->offset) + " header=[" + Printable(b->header) +
           "] reason=[" + b->reason + "]";
  }
  const auto& t = std::get<TruncatedAtEof>(event);
  return "TruncatedAtEof@" + std::to_string(t.offset) + " expected=" + std::to_string(t.expected) +
         " received=" + std::to_string(t.received) + " bytes=[" + Printable(t.bytes) + "]";
}

inline std::string Describe(const std::vector<Event>& events) {
  std::string out;
  for (const Event& e : events) out += Describe(e) + "\n";
  return out;
}

/// Feeds `stream` cut at the given ascending positions, then Finish().
inline std::vector<Event> FeedCut(Decoder& decoder, std::string_view stream,
                                  const std::vector<std::size_t>& cuts) {
  std::vector<Event> events;
  std::size_t from = 0;
  for (std::size_t cut : cuts) {
    decoder.Feed(stream.substr(from, cut - from), &events);
    from = cut;
  }
  decoder.Feed(stream.substr(from), &events);
  decoder.Finish(&events);
  return events;
}

/// Feeds `stream` in pieces of `piece` bytes, then Finish().
inline std::vector<Event> FeedInPieces(Decoder& decoder, std::string_view stream,
                                       std::size_t piece) {
  std::vector<Event> events;
  for (std::size_t at = 0; at < stream.size(); at += piece) {
    decoder.Feed(stream.substr(at, piece), &events);
  }
  decoder.Finish(&events);
  return events;
}

}  // namespace fakehost::wire::testing
