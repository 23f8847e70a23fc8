// `fakehost validate TRANSCRIPT... --schema S`: re-validates traffic recorded earlier by
// `fakehost run --transcripts DIR` against a (candidate) schema, offline. The same check as
// `certify --schema` (harness/certify/revalidate.hpp). Exit 0: every frame valid; 1: some
// rejected; 2: bad input (no such file, not a transcript, a schema that does not load).
#include "harness/certify/revalidate.hpp"
#include "harness/cli/cli.hpp"
#include "harness/cli/command.hpp"
#include "harness/protocol/profile.hpp"
#include "harness/report/text.hpp"
#include "harness/schema/schema.hpp"

namespace fakehost::cli {
namespace {

struct ValidateFlags {
  std::vector<std::string> paths;
  std::string schema, protocol;
};

int Validate(const ValidateFlags& f, const Context& ctx) {
  std::string error;
  std::unique_ptr<schema::FrameSchema> s;
  if (!f.protocol.empty()) {
    auto profile = LoadProfile(ctx.data_dir, f.protocol, ctx.err);
    if (!profile) return kBadInput;
    if (f.schema.empty() && !(s = LoadFrameSchema(*profile, ctx.err))) {
      if (profile->schema_path().empty())
        ctx.err << "fakehost: " << f.protocol << " has no frame schema; give --schema\n";
      return kBadInput;
    }
  } else if (f.schema.empty()) {
    ctx.err << "fakehost: give --schema FILE (or --protocol for that protocol's own schema)\n";
    return kBadInput;
  }
  if (!s && !(s = schema::FrameSchema::Load(f.schema, &error))) {
    ctx.err << "fakehost: --schema " << error << "\n";
    return kBadInput;
  }
  std::vector<std::string> files;
  if (!certify::FindTranscriptFiles(f.paths, &files, &error)) {
    ctx.err << "fakehost: " << error << "\n";
    return kBadInput;
  }
  certify::RevalidationCounts counts;
  std::size_t files_rejecting = 0;
  for (const std::string& file : files) {
    std::size_t before = counts.rejected;
    auto print = [&](const certify::RejectedFrame& r) {
      ctx.out << report::TerminalSafe(file) << ":" << r.line << ": frame #" << r.index << " "
              << (r.from_plugin ? "plugin → host" : "host → plugin") << " ("
              << report::TerminalSafe(r.def) << ") rejected\n";
      for (const auto& v : r.violations)
        ctx.out << "    " << report::TerminalSafe(v.pointer.empty() ? "(frame)" : v.pointer) << ": "
                << report::TerminalSafe(v.message) << "\n";
    };
    if (!certify::RevalidateTranscriptFile(*s, file, print, &counts, &error)) {
      ctx.err << "fakehost: " << error << "\n";
      return kBadInput;
    }
    files_rejecting += counts.rejected > before;
  }
  ctx.out << files.size() << " transcripts, " << counts.checked << " frames checked, "
          << counts.rejected << " rejected (in " << files_rejecting << " transcripts)";
  if (counts.unchecked > 0)
    ctx.out << ", " << counts.unchecked << " not re-checkable (clipped in the transcript)";
  ctx.out << "\n";
  return counts.rejected > 0 ? kFailures : kOk;
}

}  // namespace

void AddValidateCommand(CLI::App& app, Commands* commands) {
  auto vf = std::make_shared<ValidateFlags>();
  CLI::App* v = app.add_subcommand("validate", "re-validate recorded transcripts against a schema");
  v->add_option("transcripts", vf->paths, ".jsonl files or directories (run --transcripts DIR)")
      ->required();
  v->add_option("--schema", vf->schema, "the (candidate) frame schema to check against");
  v->add_option("--protocol,-p", vf->protocol, "without --schema: that protocol's own schema");
  commands->push_back({v, [vf](const Context& ctx) { return Validate(*vf, ctx); }});
}

}  // namespace fakehost::cli
