#include "harness/session/correlator.hpp"

#include "harness/json/json.hpp"

namespace fakehost::session {

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

bool Correlator::Open(const std::string& key) const {
  auto [first, last] = requests_.equal_range(key);
  for (auto r = first; r != last; ++r)
    if (!r->second.answer_frame) return true;
  return false;
}

Correlator::Reply Correlator::OnReply(const rapidjson::Value& id, std::size_t frame) {
  json::IdKind k = json::ClassifyId(&id);
  // An open request under this id takes the answer first; only then is it an echo of noise.
  if (k != json::IdKind::kNull && !Open(json::IdKey(id)))
    if (auto noise = noise_.find(json::IdKey(id)); noise != noise_.end()) {
      Reply r = Of(Case::kEchoesNoise, nullptr, {}, noise->second);
      noise_.erase(noise);
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
    if (!open->second.answer_frame) {
      open->second.answer_frame = frame;
      return Of(Case::kAnswers, &open->second, key);
    }
  return Of(Case::kAnsweredTwice, &first->second);
}

const PendingRequest* Correlator::ByFrame(std::size_t frame) const {
  for (const auto& [key, req] : requests_)
    if (req.frame == frame) return &req;
  return nullptr;
}

}  // namespace fakehost::session
