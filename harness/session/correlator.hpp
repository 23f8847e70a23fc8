// Which host request a plugin's reply answers.
//
// Pure bookkeeping, apart from the process and the wording: the host's id sequences, the
// requests the plugin owes an answer (several may be in flight under one id: the oldest open one
// takes the next answer), and the requests the host sent deliberately invalid, whose echo is
// allowed and whose answer is not owed. An answer to such a request under the integer its id
// denotes (3 for a request sent with id 3.0, as some SDKs coerce it) is a case of its own: the
// host sent the invalid frame, and a real host drops the answer as one to an unknown id, so it
// is worth a warning, never the failure an id the host never sent in any form is. The session words
// what it finds from the profile's `checks` table; this only says which case a reply is.
#pragma once

#include <chrono>
#include <cstddef>
#include <deque>
#include <map>
#include <optional>
#include <string>

#include "harness/json/rapidjson.hpp"
#include "harness/protocol/profile.hpp"

namespace fakehost::session {

/// A host->plugin request the plugin has not answered yet, or has.
struct PendingRequest {
  std::size_t frame = 0;
  std::string method;
  std::string id_text;  ///< compact JSON of the id, abbreviated (json::Abbreviate) for messages
  std::chrono::steady_clock::time_point sent;
  std::optional<std::size_t> answer_frame;
  std::chrono::milliseconds deadline{0};             ///< how long the host waits for its answer
  std::chrono::steady_clock::time_point answered{};  ///< when the answer came (answer_frame set)
  /// The host's notification that cancelled it (the profile's cancellation): no answer is owed
  /// any more, and one that still comes answers it as usual.
  std::optional<std::size_t> cancelled_by{};
  /// Whether the plugin still owes it an answer.
  bool Owed() const { return !answer_frame && !cancelled_by; }
};

class Correlator {
 public:
  explicit Correlator(const protocol::Profile& profile) : profile_(profile) {}

  /// The next id the profile assigns to a host request of `method` (one sequence per distinct
  /// start and step, so RIM's heartbeats count down apart from its requests).
  rapidjson::Value NextId(const std::string& method);

  /// A request the plugin owes exactly one answer. False (nothing registered) unless `id` is an
  /// integer or a string: no other id can be echoed faithfully. Returns its key.
  bool Owe(const rapidjson::Value& id, PendingRequest request, std::string* key = nullptr);
  /// A request sent deliberately invalid, in a form the protocol does not accept as a request:
  /// an answer echoing its id is allowed (once), none is owed. When the id is a JSON number
  /// that is not an integer but has an integer's value (3.0, 3e0), an answer under that integer
  /// is kAnswersNoiseAsInteger (once, and only while no request is open under the integer).
  void Noise(const rapidjson::Value& id, std::size_t frame);
  /// A frame the host wrote that has no id to read (not JSON, not a message): an error response
  /// without an id, or with id null, may answer it, once.
  void Unreadable(std::size_t frame) { unreadable_.push_back(frame); }
  /// The host cancelled the oldest open request under `id` with frame `frame`; false when no
  /// request under it is open (answered already, or never sent).
  bool Cancel(const rapidjson::Value& id, std::size_t frame);

  enum class Case {
    kAnswers,      ///< the first answer to an open request
    kEchoesNoise,  ///< echoes a deliberately invalid request's id: allowed, not judged
    /// answers a deliberately invalid request under the integer its id denotes (3 for 3.0):
    /// the host's own invalid frame; should-level
    kAnswersNoiseAsInteger,
    kNullId,         ///< id null
    kBadIdType,      ///< id neither an integer, a string nor null
    kIdTypeChanged,  ///< the digits of a request's id under the other JSON type
    kUnknownId,      ///< no request was sent under this id
    kAnsweredTwice,  ///< every request under this id already has its answer
    /// an error without an id (or id null) answering an unreadable frame (noise_frame)
    kAnswersUnreadable,
    kNoId,  ///< an error without an id when no unreadable frame is left to answer
  };
  struct Reply {
    Case what = Case::kUnknownId;
    /// kAnswers, kAnsweredTwice: the request; kIdTypeChanged: the one under the other type.
    const PendingRequest* request = nullptr;
    /// kAnswers: the request's IdKey; kEchoesNoise, kAnswersNoiseAsInteger: the noise's
    std::string key;
    /// kEchoesNoise, kAnswersNoiseAsInteger: the deliberately invalid request
    std::size_t noise_frame = 0;
    /// kAnswersNoiseAsInteger: that request's id as the host sent it (abbreviated), "3.0"
    std::string noise_id;
  };
  /// Which case a reply with `id` is, changing nothing: the session words the frame's entry
  /// from it before the frame has a number. (An error without an id, or with id null, where
  /// the profile allows one, is ClassifyIdlessError's.)
  Reply Classify(const rapidjson::Value& id) const;
  /// Which case an error response with `id` absent (nullptr) or null is: the answer to the
  /// oldest unreadable frame still unanswered, else kNoId or kNullId.
  Reply ClassifyIdlessError(const rapidjson::Value* id) const;
  /// Settles `reply`, which Classify just returned, as frame `frame` arriving at `at`: a
  /// kAnswers marks its request answered, an echo of noise uses that noise up.
  void Settle(const Reply& reply, std::size_t frame,
              std::chrono::steady_clock::time_point at = std::chrono::steady_clock::now());
  /// Classify, then Settle.
  Reply OnReply(const rapidjson::Value& id, std::size_t frame,
                std::chrono::steady_clock::time_point at = std::chrono::steady_clock::now());

  /// Host requests by IdKey, in the order sent; one id may carry several.
  const std::multimap<std::string, PendingRequest>& requests() const { return requests_; }
  /// The request sent as frame `frame`, or nullptr.
  const PendingRequest* ByFrame(std::size_t frame) const;
  /// The request under `id` sent as frame `frame` (a write may carry several), or nullptr.
  const PendingRequest* ByFrame(std::size_t frame, const rapidjson::Value& id) const;

 private:
  bool Open(const std::string& key) const;

  const protocol::Profile& profile_;
  std::multimap<std::string, PendingRequest> requests_;  // by IdKey, in the order sent
  std::multimap<std::string, std::size_t> noise_;        // by IdKey: frame of the request
  struct NoiseRequest {
    std::size_t frame;
    std::string id_text;
  };
  std::multimap<std::string, NoiseRequest> noise_as_integer_;  // by the IdKey of its integer
  std::map<std::string, std::int64_t> next_ids_;               // by "start/step"
  std::deque<std::size_t> unreadable_;                         // frames, oldest first
};

}  // namespace fakehost::session
