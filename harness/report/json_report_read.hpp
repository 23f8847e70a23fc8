// Reading a JSON report (schema/report.schema.json) back into the run it describes: the inverse
// of JsonReport, so that shard reports can be merged and written again in every format.
//
// Every field JsonReport writes is read, failures and transcripts included. What the JSON report
// does not keep cannot come back: the transcripts of scenarios that passed (only their frame
// count, kept in ScenarioResult::transcript_elided) and the protocol's title (the caller knows
// the profile).
#pragma once

#include <string>
#include <string_view>

#include "harness/result/run_report.hpp"
#include "harness/result/transcript.hpp"

namespace fakehost::report {

/// Reads `text` as a JSON report into `*out`. False with `*error` naming the JSON pointer of the
/// first thing that is not as JsonReport writes it (a missing required member, a wrong type, an
/// unknown status or level).
bool ParseJsonReport(std::string_view text, result::RunReport* out, std::string* error);

/// The same for the file at `path` (errors start with the path).
bool ReadJsonReport(const std::string& path, result::RunReport* out, std::string* error);

/// The longest transcript line read: the longest a run writes is one payload at the frame limit
/// (10 MiB) as base64 (13.3 MiB) with its notes; reading a line takes about three times it.
inline constexpr std::size_t kTranscriptLineCap = 32 * 1024 * 1024;

/// Reads one line of a `run --transcripts` file (the report's entry, the same fields, walked by
/// the same field table) into `*out`: the one reader of transcript lines (`validate`, `scenario
/// from-transcript`). False with "COLUMN: why" for the caller to put after "FILE:LINE:": not
/// JSON, not an object with an index, a direction and a kind the report schema names, a line of
/// an older fakehost (`frame`, `raw_base64` or `validation`), a field not as it is written, or a
/// line over kTranscriptLineCap.
bool ParseTranscriptLine(std::string_view line, result::TranscriptEntry* out, std::string* error);

}  // namespace fakehost::report
