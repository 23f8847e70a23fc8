#include "harness/session/rules.hpp"

#include "harness/text/printable.hpp"

namespace fakehost::session {
namespace {

using protocol::MessageKind;

std::string IdText(const rapidjson::Value& id) { return Quote(json::ToCompact(id)); }

/// "frame #3 (request rim.log)": how the order checks name a frame.
std::string What(const FrameFacts& facts) {
  return "frame #" + std::to_string(facts.frame) + " (" +
         protocol::MessageKindName(facts.classified->kind) +
         (facts.method.empty() ? "" : " " + Quote(facts.method)) + ")";
}

/// A classified frame with a valid envelope: the order checks apply to it.
bool Enveloped(const FrameFacts& facts) {
  return facts.classified && facts.classified->kind != MessageKind::kInvalid;
}

}  // namespace

std::string Quote(std::string_view text) { return json::Abbreviate(text); }

std::vector<result::Finding> NotJsonRule(const protocol::Profile& profile,
                                         const FrameFacts& facts) {
  if (facts.parsed->ok) return {};
  std::string n = std::to_string(facts.frame);
  return {{result::Severity::kMust, "not-json",
           profile.CheckMessage("not-json", {{"frame", n}, {"error", Quote(facts.parsed->error)}},
                                facts.revision),
           facts.frame, result::Reason::kNotAMessage}};
}

std::vector<result::Finding> DuplicateKeyRule(const protocol::Profile& profile,
                                              const FrameFacts& facts) {
  std::vector<result::Finding> out;
  if (!facts.parsed->ok) return out;
  std::string n = std::to_string(facts.frame);
  for (const auto& key : facts.parsed->duplicate_keys)
    out.push_back(
        {result::Severity::kShould, "duplicate-key",
         profile.CheckMessage("duplicate-key", {{"frame", n}, {"key", Quote(key)}}, facts.revision),
         facts.frame});
  return out;
}

std::vector<result::Finding> InvalidEnvelopeRule(const protocol::Profile& profile,
                                                 const FrameFacts& facts) {
  if (!facts.classified || facts.classified->kind != MessageKind::kInvalid) return {};
  std::string n = std::to_string(facts.frame);
  return {{result::Severity::kMust, "invalid-envelope",
           profile.CheckMessage("invalid-envelope",
                                {{"frame", n}, {"reason", Quote(facts.classified->reason)}},
                                facts.revision),
           facts.frame, result::Reason::kNotAMessage}};
}

namespace {

// The host sent the invalid frame, and a real host drops this answer as one to an unknown id: a
// warning, where an id never sent in any form is a failure.
std::vector<result::Finding> NoiseAsIntegerRule(const protocol::Profile& profile,
                                                const FrameFacts& facts,
                                                const rapidjson::Value& id) {
  return {{result::Severity::kShould, "reply-to-invalid-request",
           profile.CheckMessage("reply-to-invalid-request",
                                {{"frame", std::to_string(facts.frame)},
                                 {"id", IdText(id)},
                                 {"request", std::to_string(facts.reply->noise_frame)},
                                 {"request_id", facts.reply->noise_id}},
                                facts.revision),
           facts.frame}};
}

}  // namespace

// One finding per way a reply's id can be wrong, each with the ids and methods it quotes.
std::vector<result::Finding> ReplyIdRule(const protocol::Profile& profile,
                                         const FrameFacts& facts) {
  if (!facts.reply || !facts.classified) return {};
  if (facts.reply->what == Correlator::Case::kNoId)
    return {{result::Severity::kMust, "error-without-id",
             profile.CheckMessage("error-without-id", {{"frame", std::to_string(facts.frame)}},
                                  facts.revision),
             facts.frame}};
  if (facts.reply->what == Correlator::Case::kAnswersUnreadable || !facts.classified->id)
    return {};  // JSON-RPC 2.0 §5 answers what it could not read with id null, MCP without one
  const rapidjson::Value& id = *facts.classified->id;
  const PendingRequest* req = facts.reply->request;
  std::string n = std::to_string(facts.frame);
  auto finding = [&](const char* check, std::string message) -> std::vector<result::Finding> {
    return {{result::Severity::kMust, check, std::move(message), facts.frame}};
  };
  switch (facts.reply->what) {
    case Correlator::Case::kNullId:
      return finding("null-reply-id",
                     profile.CheckMessage("null-reply-id", {{"frame", n}}, facts.revision));
    case Correlator::Case::kBadIdType:
      return finding(
          "bad-reply-id",
          profile.CheckMessage("bad-reply-id", {{"frame", n}, {"type", json::TypeName(id)}},
                               facts.revision));
    case Correlator::Case::kIdTypeChanged:
      return finding("reply-id-type", profile.CheckMessage("reply-id-type",
                                                           {{"frame", n},
                                                            {"request", std::to_string(req->frame)},
                                                            {"method", Quote(req->method)},
                                                            {"id", IdText(id)},
                                                            {"type", json::TypeName(id)},
                                                            {"request_id", req->id_text}},
                                                           facts.revision));
    case Correlator::Case::kUnknownId:
      return finding("unknown-reply-id",
                     profile.CheckMessage("unknown-reply-id", {{"frame", n}, {"id", IdText(id)}},
                                          facts.revision));
    case Correlator::Case::kAnsweredTwice:
      return finding("duplicate-reply",
                     profile.CheckMessage("duplicate-reply",
                                          {{"frame", n},
                                           {"request", std::to_string(req->frame)},
                                           {"method", Quote(req->method)},
                                           {"request_id", req->id_text},
                                           {"first", std::to_string(*req->answer_frame)}},
                                          facts.revision));
    case Correlator::Case::kAnswersNoiseAsInteger:
      return NoiseAsIntegerRule(profile, facts, id);
    case Correlator::Case::kAnswers:
    case Correlator::Case::kEchoesNoise:  // allowed, not judged
    case Correlator::Case::kAnswersUnreadable:
    case Correlator::Case::kNoId:
      return {};
  }
  return {};
}

std::vector<result::Finding> BeforeHandshakeRule(const protocol::Profile& profile,
                                                 const FrameFacts& facts) {
  if (!Enveloped(facts) || facts.handshake_answered) return {};
  MessageKind kind = facts.classified->kind;
  bool allowed = (kind == MessageKind::kRequest || kind == MessageKind::kNotification) &&
                 profile.AllowedBeforeHandshake(facts.method);
  // The first answer to a request the host sent is owed, whenever it comes: the host asked
  // first (a ping while the handshake is pending), and a protocol that fixes no order of
  // responses lets it come before the handshake's answer.
  bool owed = kind == MessageKind::kResponse && facts.reply &&
              (facts.reply->what == Correlator::Case::kAnswers ||
               facts.reply->what == Correlator::Case::kAnswersUnreadable);
  if (allowed || owed) return {};
  return {{result::Severity::kMust, "before-handshake",
           profile.CheckMessage("before-handshake", {{"what", What(facts)}}, facts.revision),
           facts.frame}};
}

std::vector<result::Finding> AfterShutdownRule(const protocol::Profile& profile,
                                               const FrameFacts& facts) {
  if (!Enveloped(facts) || !facts.shutdown_sent) return {};
  return {{result::Severity::kShould, "after-shutdown",
           profile.CheckMessage(
               "after-shutdown",
               {{"what", What(facts)}, {"notification", profile.shutdown_notification()}},
               facts.revision),
           facts.frame}};
}

std::vector<result::Finding> ReusedRequestIdRule(const protocol::Profile& profile,
                                                 const FrameFacts& facts) {
  if (facts.reuses_id_of == 0 || !facts.classified || !facts.classified->id) return {};
  return {{result::Severity::kMust, "reused-request-id",
           profile.CheckMessage("reused-request-id",
                                {{"frame", std::to_string(facts.frame)},
                                 {"id", IdText(*facts.classified->id)},
                                 {"first", std::to_string(facts.reuses_id_of)}},
                                facts.revision),
           facts.frame}};
}

std::vector<result::Finding> UnannouncedNotificationRule(const protocol::Profile& profile,
                                                         const FrameFacts& facts) {
  if (!facts.announced || !Enveloped(facts) || facts.classified->kind != MessageKind::kNotification)
    return {};
  const protocol::Profile::AnnouncedBefore* rule = profile.AnnouncedBeforeFor(facts.method);
  if (!rule) return {};
  const rapidjson::Value* has = json::Resolve(*facts.announced, rule->announced);
  if (has && !has->IsNull() && !(has->IsBool() && !has->GetBool())) return {};
  return {{result::Severity::kMust, "unannounced-notification",
           profile.CheckMessage("unannounced-notification",
                                {{"frame", std::to_string(facts.frame)},
                                 {"method", Quote(facts.method)},
                                 {"announced", rule->announced},
                                 {"sentence", rule->sentence},
                                 {"where", rule->section}},
                                facts.revision),
           facts.frame}};
}

std::vector<result::Finding> ProgressRule(const protocol::Profile& profile,
                                          const FrameFacts& facts) {
  using Kind = FrameFacts::Progress::Kind;
  const FrameFacts::Progress& p = facts.progress;
  const std::string n = std::to_string(facts.frame);
  auto finding = [&](const char* check,
                     std::initializer_list<std::pair<std::string_view, std::string_view>> vars) {
    return std::vector<result::Finding>{{result::Severity::kMust, check,
                                         profile.CheckMessage(check, vars, facts.revision),
                                         facts.frame}};
  };
  switch (p.kind) {
    case Kind::kFine:
      return {};
    case Kind::kUnknownToken:
      return finding("progress-unknown-token", {{"frame", n}, {"token", p.token}});
    case Kind::kAfterCompletion:
      return finding("progress-after-completion", {{"frame", n},
                                                   {"token", p.token},
                                                   {"request", std::to_string(p.request)},
                                                   {"answer", std::to_string(p.answer)}});
    case Kind::kNotIncreasing:
      return finding("progress-not-increasing", {{"frame", n},
                                                 {"token", p.token},
                                                 {"value", p.value},
                                                 {"last", p.last},
                                                 {"first", std::to_string(p.first)}});
  }
  return {};
}

const std::vector<Rule>& FrameRules() {
  static const std::vector<Rule> rules = {
      NotJsonRule,         DuplicateKeyRule,  InvalidEnvelopeRule, ReplyIdRule,
      BeforeHandshakeRule, AfterShutdownRule, ReusedRequestIdRule, UnannouncedNotificationRule,
      ProgressRule};
  return rules;
}

std::vector<result::Finding> RunFrameRules(const protocol::Profile& profile,
                                           const FrameFacts& facts) {
  std::vector<result::Finding> all;
  for (Rule rule : FrameRules())
    for (result::Finding& f : rule(profile, facts)) all.push_back(std::move(f));
  return all;
}

result::Finding OversizedFinding(const protocol::Profile& profile, const wire::Oversized& o,
                                 std::size_t frame, std::string_view revision) {
  std::string message = profile.CheckMessage("oversized",
                                             {{"frame", std::to_string(frame)},
                                              {"size", std::to_string(o.announced)},
                                              {"max", std::to_string(profile.max_payload())}},
                                             revision);
  // Why a header may be absurd: the diagnosis a plugin author needs, not the number.
  if (std::optional<wire::Wording> why = profile.framing().DiagnoseHeader(o, profile.max_payload()))
    message += profile.CheckMessage(why->check, why->vars, revision);
  return {result::Severity::kMust, "framing", std::move(message), frame};
}

result::Finding BadHeaderFinding(const protocol::Profile& profile, const wire::BadHeader& b,
                                 std::size_t frame, std::string_view revision) {
  return {result::Severity::kMust, "framing",
          profile.CheckMessage(wire::kBadHeaderCheck,
                               {{"frame", std::to_string(frame)},
                                {"header", text::Printable(b.header)},
                                {"reason", b.reason}},
                               revision),
          frame};
}

std::string TruncatedMessage(const protocol::Profile& profile, const wire::TruncatedAtEof& t,
                             std::size_t frame, bool hosts_cut, std::string_view revision) {
  std::string expected = profile.framing().ExpectedSize(t);
  return profile.CheckMessage(hosts_cut ? "truncated-by-teardown" : "truncated",
                              {{"frame", std::to_string(frame)},
                               {"received", std::to_string(t.received)},
                               {"expected", expected}},
                              revision);
}

}  // namespace fakehost::session
