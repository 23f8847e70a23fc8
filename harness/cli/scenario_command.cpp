// `fakehost scenario from-transcript T.jsonl`: a recorded session (from `run --transcripts` or
// `fuzz`) written back as a scenario file.
#include <filesystem>

#include "harness/cli/cli.hpp"
#include "harness/cli/command.hpp"
#include "harness/fuzz/from_transcript.hpp"
#include "harness/json/text_file.hpp"
#include "harness/protocol/profile.hpp"
#include "harness/protocol/registry.hpp"
#include "harness/report/destination.hpp"
#include "harness/scenario/loader.hpp"

namespace fakehost::cli {
namespace {

struct FromTranscriptFlags {
  std::string transcript;
  std::string out;
  std::string protocol;
};

// The protocol whose handshake the transcript opens with, or "" when none does.
std::string DetectProtocol(const std::string& data_dir, const std::string& method) {
  for (const std::string& name : protocol::ProtocolNames(data_dir)) {
    std::string error;
    auto p = protocol::Profile::Load(protocol::ProfilePath(data_dir, name), &error);
    if (p && p->handshake_method() == method) return name;
  }
  return {};
}

int FromTranscript(FromTranscriptFlags& f, const Context& ctx) {
  std::string text, error;
  if (!f.out.empty() && !report::CheckDestination(f.out, &error)) {
    ctx.err << "fakehost: --out " << f.out << ": " << error << "\n";
    return kBadInput;
  }
  if (!json::ReadFileCapped(f.transcript, json::kTranscriptFileCap, &text, &error)) {
    ctx.err << "fakehost: " << error << "\n";
    return kBadInput;
  }
  if (f.protocol.empty()) {
    f.protocol = DetectProtocol(ctx.data_dir, fuzz::FirstHostMethod(text));
    if (f.protocol.empty()) {
      ctx.err << "fakehost: " << f.transcript
              << ": cannot tell the protocol (no known handshake is sent); give --protocol\n";
      return kBadInput;
    }
  }
  auto profile = LoadProfile(ctx.data_dir, f.protocol, ctx.err);
  if (!profile) return kBadInput;
  std::string yaml;
  std::string source = std::filesystem::path(f.transcript).filename().string();
  if (!fuzz::ScenarioFromTranscript(text, source, *profile, &yaml, &error)) {
    ctx.err << "fakehost: " << error << "\n";
    return kBadInput;
  }
  // What we write must load: anything else is this converter's bug.
  scenario::Scenario sc;
  std::vector<scenario::LoadError> errors;
  if (!scenario::LoadScenarioText(yaml, source + ".yaml", "from-transcript", {}, &sc, &errors)) {
    ctx.err << "fakehost: internal error: the scenario made from " << f.transcript
            << " does not load: " << (errors.empty() ? "" : errors.front().ToString()) << "\n";
    return kHarnessError;
  }
  if (f.out.empty()) {
    ctx.out << yaml;
    return kOk;
  }
  if (!report::WriteFileAtomically(f.out, yaml, &error)) {
    ctx.err << "fakehost: " << error << "\n";
    return kHarnessError;
  }
  ctx.err << "wrote " << f.out << " (" << sc.steps.size() << " steps)\n";
  return kOk;
}

}  // namespace

void AddScenarioCommands(CLI::App& app, Commands* commands) {
  CLI::App* scenario = app.add_subcommand("scenario", "tools for scenario files");
  scenario->require_subcommand(1);
  auto f = std::make_shared<FromTranscriptFlags>();
  CLI::App* from = scenario->add_subcommand(
      "from-transcript", "turn a transcript (run --transcripts, fuzz) into a scenario");
  from->add_option("transcript", f->transcript, "T.jsonl")->required();
  from->add_option("--out,-o", f->out, "FILE (default: standard output)");
  from->add_option("--protocol,-p", f->protocol, "default: told by the handshake it opens with");
  commands->push_back({from, [f](const Context& ctx) { return FromTranscript(*f, ctx); }});
}

}  // namespace fakehost::cli
