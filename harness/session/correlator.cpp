#include "harness/session/correlator.hpp"

#include <cmath>

#include "harness/json/json.hpp"

namespace fakehost::session {
namespace {

// The integer a number that is not an integer denotes (3.0, 3e0, 30e-1 -> 3), as an SDK that
// reads every number as a double answers it; nothing for any other value (3.5, true, "3").
std::optional<std::int64_t> IntegerValueOf(const rapidjson::Value& id) {
  if (!id.IsDouble()) return std::nullopt;
  double v = id.GetDouble();
  // 2^63 is the first double past INT64_MAX.
  if (!std::isfinite(v) || std::trunc(v) != v || v < -9223372036854775808.0 ||
      v >= 9223372036854775808.0)
    return std::nullopt;
  return static_cast<std::int64_t>(v);
}

}  // namespace

rapidjson::Value Correlator::NextId(const std::string& method) {
  protocol::IdSequence seq = profile_.IdsFor(method);
  std::string key = std::to_string(seq.start) + "/" + std::to_string(seq.step);
  auto [it, fresh] = next_ids_.try_emplace(key, seq.start);
  std::int64_t id = it->second;
  it->second += seq.step;
  return rapidjson::Value(static_cast<std::int64_t>(id));
}

bool Correlator::Owe(const rapidjson::Value& id, PendingRequest request, std::string* key) {
  json::IdKind k = json::ClassifyId(&id);
  if (k != json::IdKind::kInteger && k != json::IdKind::kString) return false;
  std::string id_key = json::IdKey(id);
  requests_.emplace(id_key, std::move(request));
  if (key) *key = std::move(id_key);
  return true;
}

void Correlator::Noise(const rapidjson::Value& id, std::size_t frame) {
  noise_.emplace(json::IdKey(id), frame);
  if (std::optional<std::int64_t> n = IntegerValueOf(id))
    noise_as_integer_.emplace(json::IdKey(rapidjson::Value(*n)),
                              NoiseRequest{frame, json::Abbreviate(json::ToCompact(id))});
}

namespace {
Correlator::Reply Of(Correlator::Case what, const PendingRequest* request = nullptr,
                     std::string key = {}, std::size_t noise_frame = 0) {
  Correlator::Reply r;
  r.what = what;
  r.request = request;
  r.key = std::move(key);
  r.noise_frame = noise_frame;
  return r;
}
}  // namespace

bool Correlator::Cancel(const rapidjson::Value& id, std::size_t frame) {
  auto [first, last] = requests_.equal_range(json::IdKey(id));
  for (auto r = first; r != last; ++r)
    if (!r->second.answer_frame && !r->second.cancelled_by) {
      r->second.cancelled_by = frame;
      return true;
    }
  return false;
}

bool Correlator::Open(const std::string& key) const {
  auto [first, last] = requests_.equal_range(key);
  for (auto r = first; r != last; ++r)
    if (!r->second.answer_frame) return true;
  return false;
}

Correlator::Reply Correlator::Classify(const rapidjson::Value& id) const {
  json::IdKind k = json::ClassifyId(&id);
  // An open request under this id takes the answer first; only then is it an echo of noise.
  if (k != json::IdKind::kNull && !Open(json::IdKey(id)))
    if (auto noise = noise_.find(json::IdKey(id)); noise != noise_.end())
      return Of(Case::kEchoesNoise, nullptr, noise->first, noise->second);
  // Likewise an answer under the integer an invalid request's id denotes (3 for 3.0).
  if (k == json::IdKind::kInteger && !Open(json::IdKey(id)))
    if (auto noise = noise_as_integer_.find(json::IdKey(id)); noise != noise_as_integer_.end()) {
      Reply r = Of(Case::kAnswersNoiseAsInteger, nullptr, noise->first, noise->second.frame);
      r.noise_id = noise->second.id_text;
      return r;
    }
  if (k == json::IdKind::kNull) return Of(Case::kNullId);
  if (k != json::IdKind::kInteger && k != json::IdKind::kString) return Of(Case::kBadIdType);
  std::string key = json::IdKey(id);
  auto [first, last] = requests_.equal_range(key);
  if (first == last) {
    // Same digits under the other JSON type: the plugin did not echo the id unchanged.
    std::string other = key[0] == 'i' ? "s:" + key.substr(2) : "i:" + key.substr(2);
    if (auto o = requests_.find(other); o != requests_.end())
      return Of(Case::kIdTypeChanged, &o->second);
    return Of(Case::kUnknownId);
  }
  // Several requests may be in flight under one id (Flash allows a repeated id): each answer
  // takes the oldest one still open.
  for (auto open = first; open != last; ++open)
    if (!open->second.answer_frame) return Of(Case::kAnswers, &open->second, key);
  return Of(Case::kAnsweredTwice, &first->second);
}

Correlator::Reply Correlator::ClassifyIdlessError(const rapidjson::Value* id) const {
  if (!unreadable_.empty()) return Of(Case::kAnswersUnreadable, nullptr, {}, unreadable_.front());
  return id ? Classify(*id) : Of(Case::kNoId);
}

void Correlator::Settle(const Reply& reply, std::size_t frame,
                        std::chrono::steady_clock::time_point at) {
  switch (reply.what) {
    case Case::kAnswers: {
      auto [first, last] = requests_.equal_range(reply.key);
      for (auto r = first; r != last; ++r)
        if (&r->second == reply.request) {
          r->second.answer_frame = frame;
          r->second.answered = at;
        }
      return;
    }
    case Case::kEchoesNoise:
      if (auto noise = noise_.find(reply.key); noise != noise_.end()) noise_.erase(noise);
      return;
    case Case::kAnswersNoiseAsInteger:
      if (auto noise = noise_as_integer_.find(reply.key); noise != noise_as_integer_.end())
        noise_as_integer_.erase(noise);
      return;
    case Case::kAnswersUnreadable:
      if (!unreadable_.empty()) unreadable_.pop_front();
      return;
    case Case::kNoId:
    case Case::kNullId:
    case Case::kBadIdType:
    case Case::kIdTypeChanged:
    case Case::kUnknownId:
    case Case::kAnsweredTwice:
      return;  // nothing to settle
  }
}

Correlator::Reply Correlator::OnReply(const rapidjson::Value& id, std::size_t frame,
                                      std::chrono::steady_clock::time_point at) {
  Reply reply = Classify(id);
  Settle(reply, frame, at);
  return reply;
}

const PendingRequest* Correlator::ByFrame(std::size_t frame, const rapidjson::Value& id) const {
  auto [first, last] = requests_.equal_range(json::IdKey(id));
  for (auto r = first; r != last; ++r)
    if (r->second.frame == frame) return &r->second;
  return nullptr;
}

const PendingRequest* Correlator::ByFrame(std::size_t frame) const {
  for (const auto& [key, req] : requests_)
    if (req.frame == frame) return &req;
  return nullptr;
}

}  // namespace fakehost::session
