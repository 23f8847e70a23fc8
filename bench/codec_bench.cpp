// Throughput of the framing decoders and of json::Parse on ~100-byte JSON frames, the size of
// a typical log notification or small reply. Decoders are fed 64 KiB reads, as from a pipe.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>
#include <vector>

#include "harness/json/json.hpp"
#include "harness/wire/framing.hpp"

namespace {

using fakehost::wire::Framing;

const Framing& Named(const char* name) { return *fakehost::wire::FindFraming(name); }

constexpr std::size_t kFrames = 10'000;
constexpr std::size_t kReadSize = 64 * 1024;

const std::vector<std::string>& Payloads() {
  static const std::vector<std::string> payloads = [] {
    std::vector<std::string> out;
    out.reserve(kFrames);
    for (std::size_t i = 0; i < kFrames; ++i) {
      out.push_back(
          R"({"jsonrpc":"2.0","method":"rim.log","params":{"level":"info","message":"step )" +
          std::to_string(i) + R"( done, took 12 ms"}})");
    }
    return out;
  }();
  return payloads;
}

std::string Stream(const Framing& framing) {
  std::string stream;
  for (const std::string& payload : Payloads()) stream += framing.Encode(payload);
  return stream;
}

void Decode(benchmark::State& state, const Framing& framing) {
  const std::string stream = Stream(framing);
  std::vector<fakehost::wire::Event> events;
  std::uint64_t frames = 0;
  for (auto _ : state) {
    auto decoder = framing.MakeDecoder(10'485'760);
    for (std::size_t at = 0; at < stream.size(); at += kReadSize) {
      decoder->Feed(std::string_view(stream).substr(at, kReadSize), &events);
      frames += events.size();
      benchmark::DoNotOptimize(events.data());
      events.clear();  // a session hands events on after each read
    }
    decoder->Finish(&events);
  }
  if (frames != state.iterations() * kFrames) state.SkipWithError("lost frames");
  state.SetItemsProcessed(static_cast<std::int64_t>(frames));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * stream.size()));
  state.counters["frame_bytes"] = static_cast<double>(stream.size()) / kFrames;
}

void BM_DecodeLengthPrefixed(benchmark::State& state) { Decode(state, Named("length-prefixed")); }
void BM_DecodeNdjson(benchmark::State& state) { Decode(state, Named("ndjson")); }

std::int64_t PayloadBytes() {
  std::int64_t bytes = 0;
  for (const std::string& payload : Payloads()) bytes += static_cast<std::int64_t>(payload.size());
  return bytes;
}

void BM_JsonParse(benchmark::State& state) {
  for (auto _ : state) {
    for (const std::string& payload : Payloads()) {
      rapidjson::Document doc;
      const fakehost::json::ParseResult result = fakehost::json::Parse(payload, &doc);
      if (!result.ok) state.SkipWithError(result.error.c_str());
      benchmark::DoNotOptimize(doc.MemberCount());
    }
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kFrames));
  state.SetBytesProcessed(state.iterations() * PayloadBytes());
}

// Plain RapidJSON with its default flags: what the policy in json::Parse costs.
void BM_RapidJsonDefaultParseBaseline(benchmark::State& state) {
  for (auto _ : state) {
    for (const std::string& payload : Payloads()) {
      rapidjson::Document doc;
      doc.Parse(payload.data(), payload.size());
      benchmark::DoNotOptimize(doc.MemberCount());
    }
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kFrames));
  state.SetBytesProcessed(state.iterations() * PayloadBytes());
}

// RapidJSON with json::Parse's flags but no handler of ours: what the depth and duplicate-key
// bookkeeping costs on top.
void BM_RapidJsonPolicyFlagsBaseline(benchmark::State& state) {
  constexpr unsigned kFlags = rapidjson::kParseValidateEncodingFlag |
                              rapidjson::kParseIterativeFlag | rapidjson::kParseStopWhenDoneFlag |
                              rapidjson::kParseFullPrecisionFlag;
  for (auto _ : state) {
    for (const std::string& payload : Payloads()) {
      rapidjson::Document doc;
      doc.Parse<kFlags>(payload.data(), payload.size());
      benchmark::DoNotOptimize(doc.MemberCount());
    }
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kFrames));
  state.SetBytesProcessed(state.iterations() * PayloadBytes());
}

// Decoding then parsing each frame: the receive path of a session, less schema validation.
void BM_DecodeLengthPrefixedAndParse(benchmark::State& state) {
  const std::string stream = Stream(Named("length-prefixed"));
  std::vector<fakehost::wire::Event> events;
  for (auto _ : state) {
    auto decoder = Named("length-prefixed").MakeDecoder(4'194'304);
    for (std::size_t at = 0; at < stream.size(); at += kReadSize) {
      decoder->Feed(std::string_view(stream).substr(at, kReadSize), &events);
      for (const auto& event : events) {
        rapidjson::Document doc;
        fakehost::json::Parse(std::get<fakehost::wire::Frame>(event).payload, &doc);
        benchmark::DoNotOptimize(doc.MemberCount());
      }
      events.clear();
    }
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kFrames));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * stream.size()));
}

BENCHMARK(BM_DecodeLengthPrefixed);
BENCHMARK(BM_DecodeNdjson);
BENCHMARK(BM_JsonParse);
BENCHMARK(BM_RapidJsonDefaultParseBaseline);
BENCHMARK(BM_RapidJsonPolicyFlagsBaseline);
BENCHMARK(BM_DecodeLengthPrefixedAndParse);

}  // namespace

BENCHMARK_MAIN();
