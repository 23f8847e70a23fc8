// The session's pipeline per plugin frame (parse, classify, correlate, rules, validate, record,
// inbox), without a process: a FakeChild feeds 1000 frames per session.
#include <benchmark/benchmark.h>

#include "harness/schema/schema.hpp"
#include "harness/session/session.hpp"
#include "harness/session/test_support/fake_child.hpp"

namespace fakehost::session {
namespace {

constexpr int kFrames = 1000;

void PluginFrames(benchmark::State& state, const char* protocol, std::string payload) {
  std::string error;
  auto profile = protocol::Profile::Load(
      std::string(FAKEHOST_SOURCE_DIR) + "/schema/" + protocol + "/profile.json", &error);
  auto schema = profile ? schema::FrameSchema::Load(profile->schema_path(), &error) : nullptr;
  if (!schema) {
    state.SkipWithError(error.c_str());
    return;
  }
  std::string bytes;
  for (int i = 0; i < kFrames; ++i) bytes += profile->framing().Encode(payload);
  for (auto _ : state) {
    testing::FakeChild* child = nullptr;
    Session::Options options;
    options.spawn = testing::FakeChildFactory(&child);
    Session session(*profile, schema.get(), options);
    process::SpawnSpec spec;
    spec.argv = {"fake-plugin"};
    session.Start(spec, &error);
    child->PushStdout(bytes);
    child->CloseStdout();
    session.RunUntil([&] { return session.stdout_closed(); },
                     Clock::now() + std::chrono::seconds(60));
    benchmark::DoNotOptimize(session.findings().size());
  }
  state.SetItemsProcessed(state.iterations() * kFrames);
}

BENCHMARK_CAPTURE(PluginFrames, rim_log_notification, "rim-v1",
                  R"({"jsonrpc":"2.0","method":"rim.log","params":{"level":"info","message":"x"}})")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(PluginFrames, flash_log_notification, "flash-v1",
                  R"({"method":"log","params":{"level":"info","message":"x"}})")
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace fakehost::session

BENCHMARK_MAIN();
