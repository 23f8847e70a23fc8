// The always-on checks on the plugin's frames, as a list of small rules.
//
// A rule looks at the facts of one plugin frame (how it parsed, how the profile classified it,
// which case the correlator found for a reply, what the session had seen until then) and returns
// the findings it raises, none for most frames. Rules do nothing else: they neither record,
// answer nor change state, so each is tested on facts alone. Their words come from the
// profile's `checks` table (Profile::CheckMessage), so a Flash run never quotes RIM. The schema
// check is not here: it is the session's validate step, which also fills the transcript entry.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "harness/json/json.hpp"
#include "harness/protocol/profile.hpp"
#include "harness/result/transcript.hpp"
#include "harness/session/correlator.hpp"
#include "harness/wire/framing.hpp"

namespace fakehost::session {

/// What the rules know of one plugin frame.
struct FrameFacts {
  std::size_t frame = 0;                      ///< its frame number
  const json::ParseResult* parsed = nullptr;  ///< never null
  /// How the profile classified it; null when it is not JSON.
  const protocol::Classified* classified = nullptr;
  /// Requests and notifications: their method; responses: the answered request's method.
  std::string method;
  /// Responses: the correlator's verdict on the reply's id; null otherwise.
  const Correlator::Reply* reply = nullptr;
  bool handshake_answered = false;  ///< by an earlier frame or by this one
  bool shutdown_sent = false;       ///< the host's graded shutdown notification went out
  std::string_view revision;        ///< the revision in play, whose text words the findings
  /// A plugin request whose id an earlier plugin request of the session had (the profile's
  /// ids.plugin_unique): that request's frame number; 0 otherwise.
  std::size_t reuses_id_of = 0;
  /// What the plugin announced (the profile's handshake.announcements in its handshake answer,
  /// or in its probe answer under a revision without a handshake); null until known.
  const rapidjson::Value* announced = nullptr;
  /// A progress notification (the profile's progress): what is wrong with it, if anything.
  struct Progress {
    enum class Kind { kFine, kUnknownToken, kAfterCompletion, kNotIncreasing } kind = Kind::kFine;
    std::string token, value, last;                  ///< compact JSON, abbreviated
    std::size_t request = 0, answer = 0, first = 0;  ///< frames: the request, its answer, the
                                                     ///< notification with the last value
  };
  Progress progress;
};

using Rule = std::vector<result::Finding> (*)(const protocol::Profile& profile,
                                              const FrameFacts& facts);

/// The rules run on every plugin frame, in the order their findings are listed.
const std::vector<Rule>& FrameRules();
/// Every rule's findings on `facts`, in FrameRules() order.
std::vector<result::Finding> RunFrameRules(const protocol::Profile& profile,
                                           const FrameFacts& facts);

// Each rule, by the check it raises (exposed for tests).
std::vector<result::Finding> NotJsonRule(const protocol::Profile& profile, const FrameFacts& facts);
std::vector<result::Finding> DuplicateKeyRule(const protocol::Profile& profile,
                                              const FrameFacts& facts);
std::vector<result::Finding> InvalidEnvelopeRule(const protocol::Profile& profile,
                                                 const FrameFacts& facts);
std::vector<result::Finding> ReplyIdRule(const protocol::Profile& profile, const FrameFacts& facts);
std::vector<result::Finding> BeforeHandshakeRule(const protocol::Profile& profile,
                                                 const FrameFacts& facts);
std::vector<result::Finding> AfterShutdownRule(const protocol::Profile& profile,
                                               const FrameFacts& facts);
std::vector<result::Finding> ReusedRequestIdRule(const protocol::Profile& profile,
                                                 const FrameFacts& facts);
std::vector<result::Finding> UnannouncedNotificationRule(const protocol::Profile& profile,
                                                         const FrameFacts& facts);
std::vector<result::Finding> ProgressRule(const protocol::Profile& profile,
                                          const FrameFacts& facts);

/// The framing finding for a frame over the size limit, with the framing's diagnosis of its
/// header (length-prefixed: text, or a big-endian length; wire::Framing::DiagnoseHeader).
result::Finding OversizedFinding(const protocol::Profile& profile, const wire::Oversized& o,
                                 std::size_t frame, std::string_view revision);
/// The framing finding for a header the framing could not read (wire::kBadHeaderCheck).
result::Finding BadHeaderFinding(const protocol::Profile& profile, const wire::BadHeader& b,
                                 std::size_t frame, std::string_view revision);
/// The words for an EOF inside frame `frame`: the plugin's violation ("truncated"), or the cut
/// of the host's own stop ("truncated-by-teardown").
std::string TruncatedMessage(const protocol::Profile& profile, const wire::TruncatedAtEof& t,
                             std::size_t frame, bool hosts_cut, std::string_view revision);

/// Plugin text quoted in a message (ids, method names, keys): enough to recognise it.
std::string Quote(std::string_view text);

}  // namespace fakehost::session
