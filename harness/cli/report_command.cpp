// `fakehost report merge`: the JSON reports of a run's shards (`run --shard K/N`) back into the
// report of one run, written in every format a run writes, and judged as that run would be.
#include <unistd.h>

#include <algorithm>
#include <sstream>

#include "harness/cli/cli.hpp"
#include "harness/cli/command.hpp"
#include "harness/cli/reporters.hpp"
#include "harness/protocol/profile.hpp"
#include "harness/report/json_report_read.hpp"
#include "harness/report/reporter.hpp"
#include "harness/run/merge.hpp"
#include "harness/run/verdict.hpp"

namespace fakehost::cli {
namespace {

struct MergeFlags {
  std::vector<std::string> inputs;  ///< the shards' report.json files
  std::vector<std::string> reports;
  std::string out_dir = "reports/latest";
  bool fail_untested = false;
  bool no_color = false;
  bool out_dir_given = false;
  bool allow_partial = false;
};

int Merge(const MergeFlags& f, const Context& ctx) {
  std::ostream& err = ctx.err;
  // Certification matrices (`certify --shard K/N`) merge as matrices: one command joins both.
  if (!f.inputs.empty() && IsCertifyMatrix(f.inputs.front()))
    return CertifyMerge(f.inputs, f.reports, f.out_dir_given ? f.out_dir : "reports/certify",
                        f.allow_partial, ctx);
  std::vector<run::ShardReport> shards;
  for (const std::string& path : f.inputs) {
    run::ShardReport shard{path, {}};
    std::string error;
    if (!report::ReadJsonReport(path, &shard.report, &error)) {
      err << "fakehost: " << error << "\n";
      return kBadInput;
    }
    shards.push_back(std::move(shard));
  }
  result::RunReport merged;
  std::string error;
  if (!run::MergeReports(shards, f.allow_partial, &merged, &error)) {
    err << "fakehost: " << error << "\n";
    return kBadInput;
  }
  // The JSON report does not keep the protocol's title; its profile does.
  std::ostringstream ignored;
  auto profile = LoadProfile(ctx.data_dir, merged.protocol, ignored);
  merged.protocol_title = profile ? profile->title() : merged.protocol;

  std::vector<std::unique_ptr<report::Reporter>> files;
  if (!MakeReporters(f.out_dir, f.reports, "", &files, err)) return kBadInput;

  auto console = report::MakeConsoleReporter(
      ctx.out, report::ConsoleOptions{!f.no_color && isatty(STDOUT_FILENO) == 1, 6});
  console->RunStarting(merged);
  for (const auto& s : merged.scenarios) console->ScenarioEnded(s);
  console->RunEnded(merged, &error);
  if (!merged.missing_shards.empty()) {
    err << "fakehost: partial merge: shard";
    for (std::size_t i = 0; i < merged.missing_shards.size(); ++i)
      err << (i                                   ? ", "
              : merged.missing_shards.size() == 1 ? " "
                                                  : "s ")
          << merged.missing_shards[i];
    err << " missing (--allow-partial); the merged report records them in missing_shards\n";
  }
  bool written = WriteReports(files, merged, err);
  // As the unsharded run: a scenario error, or a shard that was interrupted, is exit 3.
  bool interrupted =
      std::any_of(merged.scenarios.begin(), merged.scenarios.end(), [](const auto& s) {
        return s.status == result::Status::kNotRun && s.skip_reason == "interrupted";
      });
  if (!written || merged.summary.errored > 0 || interrupted) return kHarnessError;
  return run::Verdict(merged, {f.fail_untested, false}, err);
}

}  // namespace

void AddReportCommands(CLI::App& app, Commands* commands) {
  CLI::App* report = app.add_subcommand("report", "work with reports");
  report->require_subcommand(1);
  auto mf = std::make_shared<MergeFlags>();
  CLI::App* merge = report->add_subcommand(
      "merge", "merge the report.json (or certify.json) of every shard into one run's reports");
  merge->add_option("reports", mf->inputs, "the shards' report.json files")->required();
  merge->add_option("--report", mf->reports, ReportHelp());
  merge
      ->add_option("--out", mf->out_dir,
                   "directory for the merged report.json (default reports/latest; "
                   "certify.json files: reports/certify)")
      ->each([mf](const std::string&) { mf->out_dir_given = true; });
  merge->add_flag("--fail-untested", mf->fail_untested,
                  "a scenario left untested (a trigger is missing) fails the run");
  merge->add_flag("--no-color", mf->no_color, "no ANSI colours on the console");
  merge->add_flag("--allow-partial", mf->allow_partial,
                  "merge even when shards are missing; the result records them as missing");
  commands->push_back({merge, [mf](const Context& ctx) { return Merge(*mf, ctx); }});
}

}  // namespace fakehost::cli
