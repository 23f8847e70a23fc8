// Steps that send: send, send_raw, answer.
#include <cstring>

#include "harness/interpreter/bindings.hpp"
#include "harness/interpreter/outcome.hpp"
#include "harness/interpreter/step_context.hpp"
#include "harness/interpreter/steps.hpp"
#include "harness/json/json.hpp"
#include "harness/protocol/host_frame.hpp"
#include "harness/protocol/profile.hpp"
#include "harness/session/session.hpp"
#include "harness/wire/framing.hpp"

namespace fakehost::interpreter {
namespace {

// A `send: {trigger: NAME}` as the request it sends: the plugin's method and params, the step's
// params merged in. False, with the scenario's bug reported, for a trigger it lacks.
bool ResolveTrigger(StepContext& ctx, const Send& send, Send* resolved) {
  auto t = ctx.plugin.triggers.find(send.trigger);
  if (t == ctx.plugin.triggers.end() || !t->second)
    return ctx.ScenarioBug("the plugin gives no trigger '" + send.trigger + "'");
  *resolved = send;
  const rapidjson::Value* method = json::Find(*t->second, "method");
  resolved->method = method && method->IsString() ? method->GetString() : "";
  auto doc = std::make_shared<rapidjson::Document>();
  if (const rapidjson::Value* params = json::Find(*t->second, "params"))
    doc->CopyFrom(*params, doc->GetAllocator());
  if (send.params) {
    if (!doc->IsObject()) doc->SetObject();
    json::MergeInto(*send.params, doc.get(), doc->GetAllocator());
  }
  resolved->params = doc->IsNull() ? nullptr : doc;
  return true;
}

// The deadline a send step's request carries (its deadline_ms, else the manifest's), put in the
// profile's deadline member of `msg`. False, with the scenario's bug reported, for a bad
// deadline_ms.
bool SendDeadline(StepContext& ctx, const Send& send, rapidjson::Document* msg,
                  std::optional<Ms>* deadline) {
  if (send.deadline_ms) {
    rapidjson::Document d;
    if (!ctx.Instantiate(send.deadline_ms, &d)) return false;
    if (!d.IsInt64() || d.GetInt64() <= 0 || d.GetInt64() > 3600000)
      return ctx.ScenarioBug("deadline_ms is " + json::ToCompact(d) +
                             ", not a number of milliseconds from 1 to 3600000");
    *deadline = Ms(d.GetInt64());
  } else if (!send.invalid) {
    // What the real host waits for this request, as the manifest sets it (a Flash command's
    // timeout_ms), when the step does not say: a trigger's perform gets its entry's deadline.
    *deadline = ctx.profile.ManifestDeadlineFor(*msg, ctx.plugin.manifest.get());
  }
  // The request member that carries the deadline (Flash: deadline_ms) gets this one instead.
  if (const std::string& member = ctx.profile.deadline_member();
      *deadline && !member.empty() && !json::Find(*msg, member))
    msg->AddMember(rapidjson::Value(member.c_str(), msg->GetAllocator()),
                   rapidjson::Value(static_cast<std::int64_t>((*deadline)->count())),
                   msg->GetAllocator());
  return true;
}

// Grows one string so the frame is exactly pad_to bytes: each 'x' adds one byte.
bool PadFrame(StepContext& ctx, const Send& send, rapidjson::Document* msg) {
  auto& fa = msg->GetAllocator();
  rapidjson::Value* target = nullptr;
  std::string ptr = send.pad_pointer.empty() ? std::string("/params/data") : send.pad_pointer;
  auto cut = ptr.rfind('/');
  rapidjson::Value* parent = const_cast<rapidjson::Value*>(json::Resolve(*msg, ptr.substr(0, cut)));
  if (parent && parent->IsObject()) {
    std::string key(ptr.substr(cut + 1));
    if (!json::Find(*parent, key))
      parent->AddMember(rapidjson::Value(key.c_str(), fa), rapidjson::Value(""), fa);
    target = const_cast<rapidjson::Value*>(json::Resolve(*msg, ptr));
  }
  if (!target || !target->IsString())
    return ctx.ScenarioBug("pad_at " + ptr + " is not a string in an object");
  std::size_t size = json::ToCompact(*msg).size();
  if (size > send.pad_to)
    return ctx.ScenarioBug("the frame is already " + std::to_string(size) +
                           " bytes, more than pad_to " + std::to_string(send.pad_to));
  // Written straight into the frame's allocator (freed with it): a 10 MiB pad is held once.
  const std::size_t had = target->GetStringLength();
  const std::size_t padded = had + (send.pad_to - size);
  char* text = static_cast<char*>(fa.Malloc(padded + 1));
  std::memcpy(text, target->GetString(), had);
  std::memset(text + had, 'x', padded - had);
  text[padded] = '\0';
  target->SetString(rapidjson::StringRef(text, static_cast<rapidjson::SizeType>(padded)));
  return true;
}

// A send_raw step's bytes, framed as it asks (a claimed length noted in `note`); `honest`: framed
// with their true length, so the plugin reads the messages in them.
std::string RawBytes(const StepContext& ctx, const SendRaw& raw, std::string* note, bool* honest) {
  std::string body;
  body.reserve(raw.bytes.size() * raw.repeat + wire::kFrameHeadroom);
  for (std::uint64_t i = 0; i < raw.repeat; ++i) body += raw.bytes;
  const std::size_t size = body.size();
  *honest = raw.framed && (!raw.length || *raw.length == size);
  // A claimed length is written by a framing whose frames announce one; the others frame the
  // bytes honestly (an NDJSON line has no length to lie about).
  std::optional<std::string> claimed;
  if (raw.framed && raw.length)
    claimed = ctx.profile.framing().EncodeClaiming(std::move(body), *raw.length);
  if (claimed) {
    if (*raw.length != size)
      *note = "header announces " + std::to_string(*raw.length) + " bytes, " +
              std::to_string(size) + " follow";
    return std::move(*claimed);
  }
  if (raw.framed) return ctx.profile.framing().Encode(std::move(body));
  return body;
}

// The messages the profile's framing delimits in `bytes`, parsed (nullopt: not JSON).
std::vector<std::optional<rapidjson::Document>> MessagesIn(const StepContext& ctx,
                                                           const std::string& bytes) {
  std::vector<std::optional<rapidjson::Document>> messages;
  std::vector<wire::Event> events;
  ctx.profile.framing().MakeDecoder(ctx.profile.max_payload())->Feed(bytes, &events);
  for (wire::Event& event : events) {
    auto* frame = std::get_if<wire::Frame>(&event);
    if (!frame) continue;
    rapidjson::Document doc;
    const bool ok = json::Parse(frame->payload, &doc).ok;
    frame->payload = std::string();  // held once more only while it is parsed
    messages.emplace_back(ok ? std::optional<rapidjson::Document>(std::move(doc)) : std::nullopt);
  }
  return messages;
}

// Names the requests of a send_raw step's `as:`, one per message written as frame `index`.
bool NameRawRequests(StepContext& ctx, const SendRaw& raw, std::size_t index,
                     const std::vector<std::optional<rapidjson::Document>>& messages) {
  if (raw.as.empty()) return true;
  if (raw.as.size() != messages.size())
    return ctx.ScenarioBug("send_raw names " + std::to_string(raw.as.size()) +
                           " request(s) with as:, and its bytes carry " +
                           std::to_string(messages.size()) + " framed message(s)");
  for (std::size_t i = 0; i < raw.as.size(); ++i) {
    // A request the protocol does not accept as one (a 2026-07-28 MCP request without its _meta
    // fields, written so on purpose) is named all the same, as a deliberately invalid `send`
    // is: its answer may be expected, and is not owed.
    const rapidjson::Value* id = messages[i] ? json::Find(*messages[i], "id") : nullptr;
    const rapidjson::Value* method = messages[i] ? json::Find(*messages[i], "method") : nullptr;
    if (!id || !method || !method->IsString())
      return ctx.ScenarioBug("send_raw with as: " + raw.as[i] + ": message " +
                             std::to_string(i + 1) + " is no request (an id and a method)");
    const session::PendingRequest* req = ctx.session.RequestFor(index, *id);
    Named named;
    named.frame = index;
    named.method = req ? req->method : std::string(json::View(*method));
    named.id.CopyFrom(*id, named.id.GetAllocator());
    named.sent = req ? req->sent : Clock::now();
    ctx.bindings.Name(raw.as[i], std::move(named));
  }
  return true;
}

// Every chunk is the same bytes: one chunk is built and each write is a view of it, so a 40 MiB
// oversized line written in 64 KiB chunks costs 64 KiB (bench/run_cost measures the peak).
bool SendRawRepeated(StepContext& ctx, const SendRaw& raw) {
  const std::uint64_t total = raw.bytes.size() * raw.repeat;
  if (raw.framed || !raw.as.empty() || raw.bytes.empty() || raw.chunk == 0 || raw.chunk >= total ||
      raw.chunk % raw.bytes.size() != 0)
    return false;
  std::string chunk;
  chunk.reserve(raw.chunk);
  while (chunk.size() < raw.chunk) chunk += raw.bytes;
  const std::uint64_t chunks = (total + raw.chunk - 1) / raw.chunk;
  std::string note = "written in " + std::to_string(chunks) + " chunks of " +
                     std::to_string(raw.chunk) + " bytes, " + MsText(raw.delay) + " apart";
  ctx.session.SendRawRepeated(std::move(chunk), total, raw.delay, std::move(note),
                              ctx.limit.deadline);
  return true;
}

}  // namespace

// A trigger's request, the id, the deadline and the padding, applied in the order the frame needs
// them.
bool PlayStep(StepContext& ctx, const Send& send) {
  rapidjson::Document msg;
  std::string error;
  Send resolved;  // a trigger's request: the plugin's method and params in the step's place
  const Send* s = &send;
  if (!send.retry.empty()) {
    if (!ResolveRetry(ctx, send, &resolved)) return false;
    s = &resolved;
  } else if (!send.trigger.empty()) {
    if (!ResolveTrigger(ctx, send, &resolved)) return false;
    s = &resolved;
  }
  rapidjson::Value auto_id;
  if (s->id_mode == Send::IdMode::kAuto) auto_id = ctx.session.NextId(s->method);
  if (!BuildSendMessage(
          *s, [&ctx](std::string_view p) { return ctx.Lookup(p); }, auto_id, &msg, &error))
    return ctx.ScenarioBug((send.trigger.empty() ? "" : "trigger " + send.trigger + ": ") + error);
  if (!ctx.AddRevisionMembers(&msg)) return false;
  rapidjson::Document sent_params;  // kept for ${NAME.params...}, before any padding
  if (const rapidjson::Value* params = json::Find(msg, "params"); params && !send.as.empty())
    sent_params.CopyFrom(*params, sent_params.GetAllocator());
  std::optional<Ms> deadline;
  if (!SendDeadline(ctx, send, &msg, &deadline)) return false;
  msg = protocol::HostFrame(ctx.profile, std::move(msg));  // padding counts the whole frame
  if (send.pad_to && !PadFrame(ctx, send, &msg)) return false;
  Named named;
  named.method = s->method;
  named.deadline = deadline;
  if (const rapidjson::Value* id = json::Find(msg, "id"))
    named.id.CopyFrom(*id, named.id.GetAllocator());
  named.params.Swap(sent_params);
  named.sent = Clock::now();
  named.frame = ctx.session.Send(std::move(msg), send.invalid);
  if (!send.as.empty()) ctx.bindings.Name(send.as, std::move(named));
  return true;
}

// The bytes are built once, framed in their own buffer and handed to the session, so a 16 MiB
// frame is held once (bench/run_cost measures the peak).
bool PlayStep(StepContext& ctx, const SendRaw& raw) {
  if (SendRawRepeated(ctx, raw)) return true;
  std::string note;
  bool honest = false;
  std::string bytes = RawBytes(ctx, raw, &note, &honest);
  // Bytes framed honestly are read as the plugin will read them: each message the framing
  // delimits in them (two NDJSON lines in one write are two) is a request it may owe an answer.
  std::vector<std::optional<rapidjson::Document>> messages;  // nullopt: not JSON
  if (honest) messages = MessagesIn(ctx, bytes);
  std::size_t index;
  if (raw.chunk == 0 || raw.chunk >= bytes.size()) {
    index = ctx.session.SendRaw(std::move(bytes), std::move(note), ctx.limit.deadline);
  } else {
    std::size_t chunks = (bytes.size() + raw.chunk - 1) / raw.chunk;
    note += (note.empty() ? "" : "; ") + std::string("written in ") + std::to_string(chunks) +
            " chunks of " + std::to_string(raw.chunk) + " bytes, " + MsText(raw.delay) + " apart";
    index = ctx.session.SendRawChunked(std::move(bytes), raw.chunk, raw.delay, std::move(note),
                                       ctx.limit.deadline);
  }
  // A piece written unframed ends no frame: only a framed write can be one the plugin answers.
  if (raw.framed && messages.empty()) ctx.session.TrackRawRequest(index, nullptr);
  for (const auto& message : messages)
    ctx.session.TrackRawRequest(index, message ? &*message : nullptr);
  return NameRawRequests(ctx, raw, index, messages);
}

bool PlayStep(StepContext& ctx, const Answer& answer) {
  const Inbound* request = ctx.bindings.CapturedRequest(answer.to);
  if (!request)
    return ctx.ScenarioBug("answer to '" + answer.to +
                           "': no plugin request was captured by it (or it was answered)");
  if (request->answered_by_host) {
    // The host answered it itself (a log, storage): nothing is pending for the step to answer.
    ctx.outcome.Untested(WildcardUnused(ctx.plugin));
    return false;
  }
  rapidjson::Document reply;
  if (!ctx.Instantiate(answer.reply, &reply)) return false;
  ctx.session.Reply(*request, reply);
  ctx.bindings.Answered(answer.to);
  return true;
}

bool BuildSendMessage(const Send& send, const scenario::Lookup& lookup,
                      const rapidjson::Value& auto_id, rapidjson::Document* out,
                      std::string* error) {
  out->SetObject();
  auto& a = out->GetAllocator();
  switch (send.id_mode) {
    case Send::IdMode::kAuto:
      out->AddMember("id", rapidjson::Value(auto_id, a), a);
      break;
    case Send::IdMode::kNull:
      out->AddMember("id", rapidjson::Value(), a);
      break;
    case Send::IdMode::kExplicit: {
      rapidjson::Value id;
      if (send.id && !scenario::Substitute(*send.id, lookup, a, &id, error)) return false;
      out->AddMember("id", id, a);
      break;
    }
    case Send::IdMode::kNone:
      break;
  }
  out->AddMember("method", rapidjson::Value(send.method.c_str(), a), a);
  if (send.params) {
    rapidjson::Value params;
    if (!scenario::Substitute(*send.params, lookup, a, &params, error)) return false;
    out->AddMember("params", params, a);
  }
  if (send.members) {
    rapidjson::Value members;
    if (!scenario::Substitute(*send.members, lookup, a, &members, error)) return false;
    for (auto& m : members.GetObject())
      if (!json::Find(*out, std::string_view(m.name.GetString(), m.name.GetStringLength())))
        out->AddMember(rapidjson::Value(m.name, a), rapidjson::Value(m.value, a), a);
  }
  return true;
}

}  // namespace fakehost::interpreter
