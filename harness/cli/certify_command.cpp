// `fakehost certify CORPUS...`: the suite against every plugin of a corpus, as a matrix; and
// `fakehost certify merge IN.json...`: shard matrices as one.
//
// Exit codes: 0 when every plugin passes (with --since: when nothing newly fails, so a known
// failure does not block a change), 1 otherwise or when the candidate schema (--schema) rejects
// any recorded frame, 2 for bad input (nothing run), 3 when the harness failed (a cell errored,
// a report could not be written, the run was interrupted).
#include <algorithm>
#include <filesystem>
#include <fstream>

#include "harness/certify/certify_run.hpp"
#include "harness/certify/corpus.hpp"
#include "harness/certify/writers.hpp"
#include "harness/cli/cli.hpp"
#include "harness/cli/command.hpp"
#include "harness/cli/flag_checks.hpp"
#include "harness/cli/manifest_command.hpp"
#include "harness/cli/play_flags.hpp"
#include "harness/json/text_file.hpp"
#include "harness/process/child.hpp"
#include "harness/protocol/profile.hpp"
#include "harness/report/destination.hpp"
#include "harness/run/plugin_config.hpp"
#include "harness/schema/schema.hpp"
#include "harness/session/interrupt.hpp"

#ifndef FAKEHOST_VERSION
#define FAKEHOST_VERSION "0.0.0"
#endif

namespace fakehost::cli {

void AddValidateCommand(CLI::App& app, Commands* commands);  // validate_command.cpp

namespace {

namespace fs = std::filesystem;

// The flags run shares (PlayFlags), then certify's own.
struct CertifyFlags : PlayFlags {
  std::vector<std::string> corpus;
  std::string suite, since, candidate;
};

struct MergeFlags {
  std::vector<std::string> inputs, reports;
  std::string since, out_dir = "reports/certify";
  bool allow_partial = false;
};

// The protocol of the first plugin the corpus names (a plugin directory, the first plugin
// directory below a directory, the first line of a list).
bool DetectCorpusProtocol(const std::string& data_dir, const std::vector<std::string>& corpus,
                          std::string* protocol, std::ostream& err) {
  std::vector<plugin::KnownProtocol> known = KnownProtocols(data_dir);
  std::string error;
  for (const std::string& arg : corpus) {
    std::vector<std::string> candidates;
    std::error_code ec;
    if (fs::is_directory(arg, ec)) {
      candidates.push_back(arg);
      std::vector<std::string> below;
      for (const auto& e : fs::directory_iterator(arg, ec))
        if (e.is_directory(ec)) below.push_back(e.path().string());
      std::sort(below.begin(), below.end());
      candidates.insert(candidates.end(), below.begin(), below.end());
    } else {
      // A list is read as the corpus reader reads it: a regular file, capped.
      std::string text, why;
      if (!json::ReadFileCapped(arg, json::kInputFileCap, &text, &why)) {
        err << "fakehost: " << why << "\n";
        return false;
      }
      candidates = certify::ParseCorpusList(text, fs::absolute(arg).parent_path().string());
    }
    for (const std::string& dir : candidates) {
      *protocol = DetectPluginProtocol(dir, known, &error);
      if (!protocol->empty()) return true;
    }
  }
  err << "fakehost: give --protocol (no plugin of the corpus names its protocol by its "
         "manifest or its fakehost.yaml)\n";
  return false;
}

// `--report`'s help: FORMAT=PATH and every format of certify::MatrixFormats.
std::string MatrixReportHelp() {
  std::string help = "FORMAT=PATH, repeatable:";
  for (const certify::MatrixFormat& f : certify::MatrixFormats())
    help += std::string(&f == &certify::MatrixFormats().front() ? " " : ", ") +
            std::string(f.name) + " (" + std::string(f.writes) + ")";
  return help;
}

// --out DIR and each --report FORMAT=PATH, checked before anything runs.
bool ParseReports(const std::string& out_dir, const std::vector<std::string>& specs,
                  std::vector<std::pair<std::string, std::string>>* out, std::ostream& err) {
  std::string error;
  if (!report::CheckDestinationDir(out_dir, &error) ||
      !report::CheckDestination(out_dir + "/certify.json", &error)) {
    err << "fakehost: --out " << out_dir << ": " << error << "\n";
    return false;
  }
  for (const std::string& spec : specs) {
    auto eq = spec.find('=');
    if (eq == std::string::npos || eq + 1 == spec.size()) {
      err << "fakehost: --report takes FORMAT=PATH, got '" << spec << "'\n";
      return false;
    }
    if (!certify::KnownFormat(spec.substr(0, eq))) {
      err << "fakehost: --report " << spec
          << ": unknown format (known: " << certify::MatrixFormatNames() << ")\n";
      return false;
    }
    if (!report::CheckDestination(spec.substr(eq + 1), &error)) {
      err << "fakehost: --report " << spec << ": " << error << "\n";
      return false;
    }
    out->push_back({spec.substr(0, eq), spec.substr(eq + 1)});
  }
  return true;
}

// The diff (when --since), the console summary and every file. False if a file failed.
bool Conclude(certify::Matrix* m, const certify::Matrix* previous, const std::string& since,
              const std::string& out_dir,
              const std::vector<std::pair<std::string, std::string>>& reports, const Context& ctx) {
  if (previous) {
    m->diff = certify::Compare(*previous, *m);
    m->diff.since = since;
  }
  ctx.out << certify::ConsoleSummary(*m);
  bool ok = true;
  std::string error;
  std::vector<std::pair<std::string, std::string>> all = {{"json", out_dir + "/certify.json"}};
  all.insert(all.end(), reports.begin(), reports.end());
  for (const auto& [format, path] : all) {
    if (!certify::WriteMatrix(format, path, *m, &error)) {
      ctx.err << "fakehost: " << error << "\n";
      ok = false;
    }
  }
  ctx.out << "matrix: " << out_dir << "/certify.json\n";
  return ok;
}

bool ReadSince(const std::string& path, const std::string& protocol, certify::Matrix* previous,
               std::ostream& err) {
  std::string error;
  if (!certify::ReadJsonMatrix(path, previous, &error)) {
    err << "fakehost: --since " << error << "\n";
    return false;
  }
  if (previous->protocol != protocol) {
    err << "fakehost: --since " << path << " is a " << previous->protocol << " matrix, not "
        << protocol << "\n";
    return false;
  }
  return true;
}

// The corpus's plugin directories, this shard's share of them. A plugin directory is marked by
// its manifest, or where the protocol has none by the fakehost.yaml that says how to start it.
bool ReadShardOfCorpus(const CertifyFlags& f, const protocol::Profile& profile, int shard_k,
                       int shard_n, std::vector<std::string>* dirs, std::ostream& err) {
  std::vector<std::string> errors;
  const std::string marker =
      profile.has_manifest() ? profile.manifest().file : std::string(run::kPluginConfigName);
  if (!certify::ReadCorpus(f.corpus, marker, dirs, &errors)) {
    for (const auto& e : errors) err << "fakehost: " << e << "\n";
    return false;
  }
  if (shard_n > 1) *dirs = certify::Shard(*dirs, shard_k, shard_n);
  return true;
}

// The run each plugin gets: the flags run shares, without plugins (Certify gives it the corpus).
run::RunRequest RunOfEachPlugin(const CertifyFlags& f, const Context& ctx,
                                const protocol::Profile& profile,
                                const schema::FrameSchema* frame_schema) {
  run::RunRequest q;
  q.profile = &profile;
  q.schema = frame_schema;
  // A --suite is the whole suite, its fragments its own.
  q.standard_suite = f.suite.empty() ? StandardSuite(ctx.data_dir, profile) : f.suite;
  q.selection = {f.only, f.skip, {}, {}};
  q.selection_flags = "--only/--skip";
  q.jobs = f.jobs;
  q.strict = f.strict;
  q.revision = f.revision;
  q.timeout = f.timeout;
  q.interrupted = &session::InterruptFlag();
  q.tool_version = FAKEHOST_VERSION;
  q.err = &ctx.err;
  return q;
}

// Each input has its own bad-input message, and all of them are checked before a single plugin
// is spawned (the suite, the selection and the limits by run::Execute).
int Certify(CertifyFlags f, const Context& ctx) {
  std::ostream& err = ctx.err;
  int shard_k = 1, shard_n = 1;
  std::string error;
  if (!f.shard.empty() && !certify::ParseShard(f.shard, &shard_k, &shard_n, &error)) {
    err << "fakehost: " << error << "\n";
    return kBadInput;
  }
  if (f.protocol.empty() && !DetectCorpusProtocol(ctx.data_dir, f.corpus, &f.protocol, err))
    return kBadInput;
  auto profile = LoadProfile(ctx.data_dir, f.protocol, err);
  if (!profile) return kBadInput;
  f.protocol = profile->name();  // a profile given by path is named by its name from here on
  auto frame_schema = LoadFrameSchema(*profile, err);
  if (!profile->schema_path().empty() && !frame_schema) return kBadInput;
  std::unique_ptr<schema::FrameSchema> candidate;
  if (!f.candidate.empty() && !(candidate = schema::FrameSchema::Load(f.candidate, &error))) {
    err << "fakehost: --schema " << error << "\n";
    return kBadInput;
  }
  certify::Matrix previous;
  if (!f.since.empty() && !ReadSince(f.since, f.protocol, &previous, err)) return kBadInput;
  std::vector<std::pair<std::string, std::string>> reports;
  if (!ParseReports(f.out_dir, f.reports, &reports, err)) return kBadInput;
  certify::CertifyRequest q;
  if (!ReadShardOfCorpus(f, *profile, shard_k, shard_n, &q.dirs, err)) return kBadInput;

  q.run = RunOfEachPlugin(f, ctx, *profile, frame_schema.get());
  q.candidate = candidate.get();
  q.on_start = [&](const certify::Matrix& m) {
    process::InitProcessEnvironment();
    session::InstallInterruptHandlers();
    ctx.out << "certifying " << q.dirs.size() << " plugins × " << m.columns.size() << " scenarios ("
            << f.protocol << ", " << m.jobs << " at a time)\n"
            << std::flush;
  };
  q.on_row = [&](const certify::Row& row) { ctx.out << certify::ConsoleRow(row) << std::flush; };
  certify::CertifyOutcome outcome = certify::Certify(q);
  if (outcome.exit_code == kBadInput) return kBadInput;
  if (const std::string note = session::IgnoredSignalsNote(); !note.empty())
    err << "fakehost: " << note << "\n";
  certify::Matrix& m = outcome.matrix;
  m.shard = shard_n > 1 ? f.shard : "";
  m.candidate = f.candidate;
  certify::Finish(&m);
  bool written =
      Conclude(&m, f.since.empty() ? nullptr : &previous, f.since, f.out_dir, reports, ctx);
  if (!written || outcome.exit_code == kHarnessError) return kHarnessError;
  return certify::ExitCode(m);
}

int Merge(const MergeFlags& f, const Context& ctx) {
  std::vector<std::pair<std::string, std::string>> reports;
  if (!ParseReports(f.out_dir, f.reports, &reports, ctx.err)) return kBadInput;
  std::vector<certify::Matrix> parts;
  std::string error;
  for (const std::string& path : f.inputs) {
    certify::Matrix m;
    if (!certify::ReadJsonMatrix(path, &m, &error)) {
      ctx.err << "fakehost: " << error << "\n";
      return kBadInput;
    }
    parts.push_back(std::move(m));
  }
  certify::Matrix merged;
  if (!certify::Merge(std::move(parts), f.inputs, f.allow_partial, &merged, &error)) {
    ctx.err << "fakehost: " << error << "\n";
    return kBadInput;
  }
  certify::Matrix previous;
  if (!f.since.empty() && !ReadSince(f.since, merged.protocol, &previous, ctx.err))
    return kBadInput;
  if (!Conclude(&merged, f.since.empty() ? nullptr : &previous, f.since, f.out_dir, reports, ctx))
    return kHarnessError;
  return certify::ExitCode(merged);
}

}  // namespace

bool IsCertifyMatrix(const std::string& path) {
  certify::Matrix m;
  std::string error;
  return certify::ReadJsonMatrix(path, &m, &error);
}

int CertifyMerge(const std::vector<std::string>& inputs, const std::vector<std::string>& reports,
                 const std::string& out_dir, bool allow_partial, const Context& ctx) {
  MergeFlags f;
  f.allow_partial = allow_partial;
  f.inputs = inputs;
  f.reports = reports;
  f.out_dir = out_dir;
  return Merge(f, ctx);
}

void AddCertifyCommands(CLI::App& app, Commands* commands) {
  auto cf = std::make_shared<CertifyFlags>();
  CLI::App* c = app.add_subcommand("certify", "play a suite against every plugin of a corpus");
  c->add_option("corpus", cf->corpus,
                "plugin directories, directories of them, or files listing them one a line");
  AddPlayFlags(
      c, cf.get(),
      {.protocol_default = "from the corpus",
       .jobs_over = "scenarios, over all plugins,",
       .report_help = MatrixReportHelp(),
       .out_file = "certify.json",
       .out_default = "reports/certify",
       .shard_help = "only the K-th of N shares of the (sorted) corpus",
       .revision_help = "R: offer protocol revision R, and judge only the plugins that speak it"});
  c->add_option("--suite", cf->suite, "scenario directory (default scenarios/<protocol>)");
  c->add_option("--since", cf->since,
                "PREVIOUS.json: what newly fails, passes, appeared, vanished");
  c->add_option("--schema", cf->candidate,
                "CANDIDATE schema: list every recorded frame it would reject");

  auto mf = std::make_shared<MergeFlags>();
  CLI::App* merge = c->add_subcommand("merge", "merge certify matrices (shards) into one");
  merge->add_option("inputs", mf->inputs, "certify.json files")->required();
  merge->add_option("--report", mf->reports, MatrixReportHelp());
  merge->add_option("--out", mf->out_dir, "directory for certify.json (default reports/certify)");
  merge->add_option("--since", mf->since, "PREVIOUS.json: what changed since");
  merge->add_flag("--allow-partial", mf->allow_partial,
                  "merge even when shards are missing; the result records them as missing");
  // merge first: when it was given, `certify` counts as parsed too.
  commands->push_back({merge, [mf](const Context& ctx) { return Merge(*mf, ctx); }});
  commands->push_back({c, [cf](const Context& ctx) {
                         if (cf->corpus.empty()) {
                           ctx.err << "fakehost: certify needs a corpus: plugin directories or "
                                      "files listing them\n";
                           return int{kBadInput};
                         }
                         return Certify(*cf, ctx);
                       }});
  AddValidateCommand(app, commands);
}

}  // namespace fakehost::cli
