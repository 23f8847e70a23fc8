#include "harness/protocol/host_frame.hpp"

#include "harness/json/json.hpp"

namespace fakehost::protocol {

rapidjson::Document HostFrame(const protocol::Profile& profile, rapidjson::Document message) {
  // The envelope members first, so transcripts read like the spec's examples. The message's
  // members move into the frame within the message's own allocator: a padded 10 MiB string is
  // held once, not copied.
  auto& a = message.GetAllocator();
  rapidjson::Value members(rapidjson::kObjectType);
  for (const auto& m : profile.host_members().GetObject())
    if (!json::Find(message, std::string_view(m.name.GetString(), m.name.GetStringLength())))
      members.AddMember(rapidjson::Value(m.name, a), rapidjson::Value(m.value, a), a);
  if (message.IsObject())
    for (auto& m : message.GetObject()) members.AddMember(m.name, m.value, a);
  rapidjson::Document frame(std::move(message));
  static_cast<rapidjson::Value&>(frame) = members;  // moves; the emptied object stays in the pool
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
