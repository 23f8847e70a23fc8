// Reporters turn results into output. The console reporter streams (a line per scenario as it
// finishes, details at the end); file reporters are cumulative and write once the run is over.
// Several run at once; each sees only result structs.
#pragma once

#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "harness/report/destination.hpp"
#include "harness/result/run_report.hpp"

namespace fakehost::report {

class Reporter {
 public:
  virtual ~Reporter() = default;
  virtual void RunStarting(const result::RunReport& report) { (void)report; }
  virtual void ScenarioEnded(const result::ScenarioResult& result) { (void)result; }
  /// Writes the report. False with a message if it could not be written.
  virtual bool RunEnded(const result::RunReport& report, std::string* error) = 0;
};

struct ConsoleOptions {
  bool color = false;
  std::size_t frames_shown = 6;  ///< frames quoted around a failure
};
std::unique_ptr<Reporter> MakeConsoleReporter(std::ostream& out, ConsoleOptions options);

/// A format `--report FORMAT=PATH` takes: the one table of them (file_reporter.cpp), from which
/// the help texts, the parser and its message come.
struct FileFormat {
  std::string_view name;    ///< FORMAT
  std::string_view alias;   ///< another name it is known by ("md"), or ""
  std::string_view writes;  ///< what the file holds, for help texts
  std::unique_ptr<Reporter> (*make)(std::string path);
};
/// Every format, in the order help texts list them: json, junit, markdown, html.
const std::vector<FileFormat>& FileFormats();
/// Their names, "json, junit, markdown, html".
std::string FileFormatNames();

/// A file reporter for `--report FORMAT=PATH` (a FileFormats name or alias); nullptr with
/// `*error` naming the known formats when FORMAT is not one of them. The markdown reporter also
/// prints GitHub workflow annotations to std::cout when GITHUB_ACTIONS is set.
std::unique_ptr<Reporter> MakeFileReporter(const std::string& format, const std::string& path,
                                           std::string* error);

/// The JSON report (schema/report.schema.json) written to `path`.
std::unique_ptr<Reporter> MakeJsonReporter(std::string path);
/// Which scenarios' transcripts a JSON report holds: those that failed, warned, errored, xfailed
/// or went stale (report.json), or every one (the data the HTML report draws).
enum class Transcripts { kOfFailures, kAll };
/// The JSON report as text. It is the one serializer of results: report.json, the HTML report's
/// embedded data and (by TranscriptLine) the transcript files share its code and its key names.
std::string JsonReport(const result::RunReport& report,
                       Transcripts transcripts = Transcripts::kOfFailures);
/// One transcript entry as a line of a transcript file: the report's entry, the same form
/// (the payload's bytes as received in `text`, or in `base64` when they are not valid UTF-8).
std::string TranscriptLine(const result::TranscriptEntry& entry);

/// JUnit XML in the Surefire dialect that Jenkins, GitLab and GitHub's test-report actions read:
/// a <testsuite> per section (first segment of the id), a <testcase> per scenario; a failed
/// scenario has <failure>, a harness error <error>, skipped and not-run ones <skipped>.
std::unique_ptr<Reporter> MakeJUnitReporter(std::string path);
std::string JUnitReport(const result::RunReport& report);

/// GitHub refuses a job summary above 1 MiB (1,048,576 bytes): the whole Markdown document stays
/// at or under this many bytes, whatever the run and however many shards were merged.
inline constexpr std::size_t kMarkdownBudget = 1000 * 1024;
/// A Markdown summary for $GITHUB_STEP_SUMMARY: counts, then the causes shared by several
/// scenarios, then failures, then passes folded.
/// With `annotations`, also writes GithubAnnotations there when the run ends.
std::unique_ptr<Reporter> MakeMarkdownReporter(std::string path, std::ostream* annotations);
/// At most `budget` bytes (for any budget above a few KiB): when the whole does not fit,
/// scenario entries are kept in the document's order (failures first, passes last) while they
/// fit and the rest left out whole; each section keeps its heading and count and says how many
/// entries it does not show.
std::string MarkdownReport(const result::RunReport& report, std::size_t budget = kMarkdownBudget);
/// `::error file=…,line=…,title=…::message` (and ::warning) lines, one per cause: first one per
/// cause that failed several scenarios (shared_causes.hpp), then for each failed, errored or
/// warned scenario one per cause of its own (at most 5), pointing at the step that missed. Paths
/// are made relative to $GITHUB_WORKSPACE (else the working directory) when they lie below it.
std::string GithubAnnotations(const result::RunReport& report);
/// Plugin text as inline Markdown: a code span (none when empty), so no HTML, emphasis, link,
/// autolink, @mention, heading or line break comes of it.
std::string MarkdownText(std::string_view text);
/// A code span that no backtick in `text` can end.
std::string CodeSpan(std::string_view text);

/// One self-contained HTML file (inline CSS and script, nothing fetched).
std::unique_ptr<Reporter> MakeHtmlReporter(std::string path);
std::string HtmlReport(const result::RunReport& report);
/// JSON made safe inside a <script> element: every '<' as \u003c.
std::string ScriptSafeJson(std::string_view json);

/// `--transcripts DIR`: DIR/<id, '/' as "__">.jsonl for every scenario that ran (".2" before
/// ".jsonl" for a second run of the same id under --repeat), one TranscriptLine per entry.
std::unique_ptr<Reporter> MakeTranscriptsReporter(std::string dir);
std::string TranscriptLines(const result::ScenarioResult& result);
std::string TranscriptFileName(std::string_view id, int occurrence);

}  // namespace fakehost::report
