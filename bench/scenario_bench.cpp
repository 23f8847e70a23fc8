// Harness overhead per scenario: a handshake + heartbeat + shutdown scenario played against the
// C++ reference plugin, and, for comparison, the process start alone (spawn the same plugin and
// wait for its exit on stdin EOF). The difference is what the harness itself costs.
#include <benchmark/benchmark.h>

#include <boost/asio/io_context.hpp>
#include <cstdlib>
#include <string>

#include "harness/process/child.hpp"
#include "harness/protocol/profile.hpp"
#include "harness/run/runner.hpp"
#include "harness/scenario/loader.hpp"
#include "harness/schema/schema.hpp"

namespace {

using namespace fakehost;

constexpr const char* kScenario = R"(
title: handshake, heartbeat, shutdown
spec: "bench"
requirement: the cheapest complete conversation
steps:
  - use: handshake
  - send: {method: rim.heartbeat}
    as: hb
  - expect: {reply_to: hb, result: {$type: object}}
  - shutdown: {}
)";

struct World {
  std::unique_ptr<protocol::Profile> profile;
  std::unique_ptr<schema::FrameSchema> schema;
  scenario::Scenario scenario;
  interpreter::PluginTarget plugin;
  bool ok = false;

  World() {
    std::string error;
    std::string root = FAKEHOST_SOURCE_DIR;
    profile = protocol::Profile::Load(root + "/schema/rim-v1/profile.json", &error);
    if (!profile) return;
    schema = schema::FrameSchema::Load(profile->schema_path(), &error);
    scenario::LoadContext context{{root + "/scenarios/rim-v1/fragments"}, {}};
    std::vector<scenario::LoadError> errors;
    if (!scenario::LoadScenarioText(kScenario, "bench.yaml", "bench", context, &scenario, &errors))
      return;
    run::PluginSpec spec;
    spec.dir = std::string(FAKEHOST_FIXTURES) + "/rim-v1/reference";
    ok = schema && run::ResolvePlugin(*profile, spec, &plugin, &error);
  }
};

World& TheWorld() {
  static World world;
  return world;
}

void BM_HandshakeHeartbeatShutdown(benchmark::State& state) {
  World& w = TheWorld();
  if (!w.ok) {
    state.SkipWithError("profile, schema or reference plugin missing (build rim-fixtures)");
    return;
  }
  process::InitProcessEnvironment();
  for (auto _ : state) {
    result::ScenarioResult r = interpreter::Play(w.scenario, *w.profile, w.schema.get(), w.plugin,
                                                 interpreter::PlayOptions{});
    if (r.status != result::Status::kPass) state.SkipWithError("the scenario did not pass");
  }
}
BENCHMARK(BM_HandshakeHeartbeatShutdown)
    ->Unit(benchmark::kMillisecond)
    ->Repetitions(5)
    ->ReportAggregatesOnly(true)
    ->UseRealTime();

void BM_ProcessStartAndExitOnly(benchmark::State& state) {
  World& w = TheWorld();
  if (!w.ok) {
    state.SkipWithError("reference plugin missing");
    return;
  }
  process::InitProcessEnvironment();
  for (auto _ : state) {
    boost::asio::io_context io;
    bool exited = false;
    process::Callbacks cb;
    cb.on_stdout = [](std::string_view) {};
    cb.on_stdout_eof = [] {};
    cb.on_stderr = [](std::string_view) {};
    cb.on_exit = [&](const process::ExitStatus&) { exited = true; };
    std::string error;
    auto child = process::Child::Spawn(io, w.plugin.spawn, cb, &error);
    if (!child) {
      state.SkipWithError(error.c_str());
      return;
    }
    child->CloseStdin();
    while (!exited) io.run_one();
  }
}
BENCHMARK(BM_ProcessStartAndExitOnly)
    ->Unit(benchmark::kMillisecond)
    ->Repetitions(5)
    ->ReportAggregatesOnly(true)
    ->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
