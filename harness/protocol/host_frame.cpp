#include "harness/protocol/host_frame.hpp"

#include "harness/json/json.hpp"

namespace fakehost::protocol {

rapidjson::Document HostFrame(const protocol::Profile& profile, rapidjson::Document message) {
  // The envelope members first, so transcripts read like the spec's examples.
  rapidjson::Document frame;
  frame.SetObject();
  auto& a = frame.GetAllocator();
  for (const auto& m : profile.host_members().GetObject())
    if (!json::Find(message, std::string_view(m.name.GetString(), m.name.GetStringLength())))
      frame.AddMember(rapidjson::Value(m.name, a), rapidjson::Value(m.value, a), a);
  if (message.IsObject())
    for (auto& m : message.GetObject())
      frame.AddMember(rapidjson::Value(m.name, a), rapidjson::Value(m.value, a), a);
  Classified c = profile.Classify(frame);
  if (c.kind != MessageKind::kRequest) return frame;
  for (const RequestMember& m : profile.request_members()) {
    if (json::Find(frame, m.name)) continue;  // a scenario's own value wins
    rapidjson::Value v;
    if (m.value)
      v.CopyFrom(*m.value, a);
    else  // the member carries the deadline: the method's, when the message gives none
      v.SetInt64(static_cast<std::int64_t>(profile.DeadlineFor(c.method).count()));
    frame.AddMember(rapidjson::Value(m.name.c_str(), a), v, a);
  }
  return frame;
}

}  // namespace fakehost::protocol
