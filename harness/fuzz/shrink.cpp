#include "harness/fuzz/shrink.hpp"

#include <vector>

namespace fakehost::fuzz {
namespace {

class Shrinker {
 public:
  Shrinker(const std::function<bool(const Plan&)>& fails,
           std::chrono::steady_clock::time_point deadline, ShrinkStats* stats)
      : fails_(fails), deadline_(deadline), stats_(stats) {}

  bool Expired() {
    if (std::chrono::steady_clock::now() < deadline_) return false;
    stats_->capped = true;
    return true;
  }
  // Keeps `candidate` as the current plan if it still fails.
  bool Try(Plan& current, Plan candidate) {
    if (Expired()) return false;
    ++stats_->candidates;
    if (!fails_(candidate)) return false;
    ++stats_->accepted;
    current = std::move(candidate);
    return true;
  }
  bool RemoveActions(Plan& plan);
  bool Simplify(Plan& plan);
  bool DropHandshakeEdits(Plan& plan);
  bool SimplifyEdits(Plan& plan, std::size_t k);
  bool SimplifyDelivery(Plan& plan, std::size_t k);

 private:
  const std::function<bool(const Plan&)>& fails_;
  std::chrono::steady_clock::time_point deadline_;
  ShrinkStats* stats_;
};

bool Shrinker::RemoveActions(Plan& plan) {
  bool changed = false;
  for (std::size_t chunk = std::max<std::size_t>(plan.actions.size() / 2, 1); chunk >= 1;
       chunk /= 2) {
    for (std::size_t at = 0; at < plan.actions.size() && !Expired();) {
      Plan c = plan;
      std::size_t end = std::min(at + chunk, c.actions.size());
      c.actions.erase(c.actions.begin() + static_cast<std::ptrdiff_t>(at),
                      c.actions.begin() + static_cast<std::ptrdiff_t>(end));
      if (Try(plan, std::move(c)))
        changed = true;  // the same position now holds the next actions
      else
        at += chunk;
    }
    if (chunk == 1) break;
  }
  return changed;
}

// A simpler value of the same kind: "" for a string, 0 for a number, an empty container.
Json Simpler(const Json& v) {
  if (!v) return nullptr;
  rapidjson::Document d;
  if (v->IsString() && v->GetStringLength() > 0)
    d.SetString("");
  else if (v->IsNumber() && !(v->IsInt64() && v->GetInt64() == 0))
    d.SetInt(0);
  else if (v->IsArray() && !v->Empty())
    d.SetArray();
  else if (v->IsObject() && v->MemberCount() > 0)
    d.SetObject();
  else
    return nullptr;
  return MakeJson(std::move(d));
}

// The handshake's edits, one by one.
bool Shrinker::DropHandshakeEdits(Plan& plan) {
  bool changed = false;
  for (std::size_t i = 0; i < plan.handshake_mutations.size() && !Expired(); ++i) {
    Plan c = plan;
    c.handshake_mutations.erase(c.handshake_mutations.begin() + static_cast<std::ptrdiff_t>(i));
    if (Try(plan, std::move(c))) changed = true, --i;
  }
  return changed;
}

// Action k's edits: each dropped, else its value made simpler.
bool Shrinker::SimplifyEdits(Plan& plan, std::size_t k) {
  bool changed = false;
  for (std::size_t i = 0; i < plan.actions[k].mutations.size() && !Expired(); ++i) {
    Plan c = plan;
    auto& m = c.actions[k].mutations;
    m.erase(m.begin() + static_cast<std::ptrdiff_t>(i));
    if (Try(plan, std::move(c))) {
      changed = true, --i;
      continue;
    }
    if (Json simpler = Simpler(plan.actions[k].mutations[i].value)) {
      Plan c2 = plan;
      c2.actions[k].mutations[i].value = simpler;
      changed |= Try(plan, std::move(c2));
    }
  }
  return changed;
}

// Action k sent as plainly as it can be: its own id, written whole, no pause.
bool Shrinker::SimplifyDelivery(Plan& plan, std::size_t k) {
  bool changed = false;
  if (plan.actions[k].id != Action::Id::kAuto) {
    Plan c = plan;
    c.actions[k].id = Action::Id::kAuto;
    c.actions[k].id_value = nullptr;
    changed |= Try(plan, std::move(c));
  }
  if (plan.actions[k].chunk > 0) {
    Plan c = plan;
    c.actions[k].chunk = 0;
    c.actions[k].delay_ms = 0;
    if (Try(plan, std::move(c))) {
      changed = true;
    } else if (plan.actions[k].delay_ms > 0) {
      Plan c2 = plan;
      c2.actions[k].delay_ms = 0;
      changed |= Try(plan, std::move(c2));
    }
  }
  if (plan.actions[k].sleep_ms > 0) {
    Plan c = plan;
    c.actions[k].sleep_ms = 0;
    changed |= Try(plan, std::move(c));
  }
  return changed;
}

bool Shrinker::Simplify(Plan& plan) {
  bool changed = DropHandshakeEdits(plan);
  for (std::size_t k = 0; k < plan.actions.size() && !Expired(); ++k) {
    changed |= SimplifyEdits(plan, k);
    changed |= SimplifyDelivery(plan, k);
  }
  if (plan.host_reply) {
    Plan c = plan;
    c.host_reply = nullptr;
    c.host_reply_method.clear();
    changed |= Try(plan, std::move(c));
  }
  if (plan.barrier) {
    Plan c = plan;
    c.barrier = false;
    changed |= Try(plan, std::move(c));
  }
  return changed;
}

}  // namespace

Plan Shrink(const Plan& plan, const std::function<bool(const Plan&)>& fails,
            std::chrono::steady_clock::time_point deadline, ShrinkStats* stats) {
  Shrinker s(fails, deadline, stats);
  Plan current = plan;
  while (!s.Expired()) {
    bool changed = s.RemoveActions(current);
    changed |= s.Simplify(current);
    if (!changed) break;
  }
  return current;
}

}  // namespace fakehost::fuzz
