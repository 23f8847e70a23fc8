// Re-validating recorded traffic against a candidate frame schema: the evidence a maintainer
// needs before merging a schema change (which real frames would it reject?).
//
// Used live by `fakehost certify --schema` on each scenario's transcript before it is dropped,
// and offline by `fakehost validate` on the JSON-lines files `run --transcripts` writes. Both
// re-check exactly the frames the run's own schema checked (requests, notifications and
// responses that were not deliberately invalid), routed by the candidate's own $defs
// (schema::RouteDef), in both directions. A frame whose text the transcript clipped or
// summarised cannot be re-checked: it is counted as unchecked, never as valid.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "harness/json/rapidjson.hpp"
#include "harness/result/transcript.hpp"
#include "harness/schema/schema.hpp"

namespace fakehost::certify {

/// One frame the candidate rejects.
struct RejectedFrame {
  std::size_t index = 0;  ///< transcript index
  std::size_t line = 0;   ///< line of the .jsonl file (offline only; 0 otherwise)
  bool from_plugin = true;
  std::string def;  ///< the candidate entry it was routed to
  std::vector<schema::Violation> violations;
};

struct RevalidationCounts {
  std::size_t checked = 0, rejected = 0, unchecked = 0;
};

using OnRejected = std::function<void(const RejectedFrame&)>;

/// Routes `frame` (of `kind` "request", "notification" or "response"; for a response `method`
/// is the request's) to a candidate entry and validates it. Empty when valid; `*def` is set.
std::vector<schema::Violation> Revalidate(const schema::FrameSchema& candidate,
                                          std::string_view kind, std::string_view method,
                                          const rapidjson::Value& frame, std::string* def);

/// Every re-checkable entry of a live transcript.
void RevalidateTranscript(const schema::FrameSchema& candidate,
                          const std::vector<result::TranscriptEntry>& transcript,
                          const OnRejected& on_rejected, RevalidationCounts* counts);

/// Every line of a `--transcripts` file. False with "<path>:<line>:<col>: ..." for a file
/// that cannot be read or a line that is not a transcript entry (bad input); rejections are
/// results, reported through `on_rejected` with their line.
bool RevalidateTranscriptFile(const schema::FrameSchema& candidate, const std::string& path,
                              const OnRejected& on_rejected, RevalidationCounts* counts,
                              std::string* error);

/// The `.jsonl` files named: files as they are, directories searched recursively; sorted.
/// False with `*error` for a path that does not exist or a directory holding none.
bool FindTranscriptFiles(const std::vector<std::string>& paths, std::vector<std::string>* files,
                         std::string* error);

}  // namespace fakehost::certify
