// What the session does with the plugin's output: one pipeline per frame.
//
// The transport hands every event to FramePipeline::OnEvent, one concrete call. A frame goes
// parse -> classify -> correlate -> validate -> record -> (on the number Record gave the frame)
// settle the reply, rules, schema finding -> answer as the fake host -> deliver into the inbox,
// where the steps pull it (Session::Next). Framing faults are recorded and judged; an EOF inside
// a frame during the host's own stop waits for the stop to end to be judged (StopBegins,
// StopEnded). Every rule runs on every frame; what is kept of a frame is bounded (see
// SessionOptions): plugin text in messages is abbreviated with its full size stated, the
// transcript keeps text up to a budget and then summaries, the inbox releases documents no step
// can still want, and findings past a number per check are counted rather than listed.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <utility>

#include "harness/json/rapidjson.hpp"
#include "harness/session/conversation.hpp"
#include "harness/session/inbox.hpp"
#include "harness/session/rules.hpp"
#include "harness/session/transport.hpp"
#include "harness/wire/codec.hpp"

namespace fakehost::session {

class Sender;

class FramePipeline final {
 public:
  /// All three must outlive the pipeline. The sender answers as the fake host; the inbox keeps
  /// what the pipeline delivers.
  FramePipeline(Conversation& conversation, Sender& sender, Inbox& inbox)
      : c_(conversation), sender_(sender), inbox_(inbox) {}

  /// One event from the transport, in stream order.
  void OnEvent(Event& event);
  /// The host's stop sequence begins: an EOF inside a frame from now on is the host's cut when
  /// the stop is ungraded; a graded one is judged when it ends (StopEnded).
  void StopBegins(bool graded);
  /// The stop sequence ended; `by_its_signal`: it ended the plugin with its own signal step, so
  /// a frame cut short is the host's cut.
  void StopEnded(bool by_its_signal);

 private:
  struct PluginFrame;  // one plugin frame on its way through the pipeline

  void OnFrame(wire::Frame& frame);
  /// Everything after Parse for one message: the frame's own, or each element of a batch.
  void Process(PluginFrame& f);
  /// Parse: the frame's entry, its document and how it parsed.
  PluginFrame Parse(wire::Frame& frame);
  /// Correlate: for a response, which request it answers (the correlator settles it once the
  /// frame has its number); notes it on the entry and marks the handshake answered.
  void Correlate(PluginFrame& f);
  /// The notes of a reply that answers or echoes a frame the host wrote invalid or unreadable.
  void NoteNoise(PluginFrame& f);
  /// Rules: the always-on rules and the schema finding, on the number Record gave the frame.
  void Judge(PluginFrame& f, std::size_t number, const std::optional<SchemaVerdict>& verdict);
  /// What is wrong with progress notification `doc` (frame `number`), as the rules read it; the
  /// token's last value moves on.
  FrameFacts::Progress JudgeProgress(const rapidjson::Value& doc, std::size_t number);
  /// Answer: the fake host's reply to a plugin->host request, unless held; true if it replied.
  bool Answer(const Inbound& request);
  /// Deliver: into the inbox, releasing what no step can still want.
  void Deliver(Inbound message);
  void OnOversized(const wire::Oversized& o);
  void OnBadHeader(const wire::BadHeader& b);
  /// After an Oversized or a BadHeader: the stream is over when the framing cannot resync.
  result::Reason Undecodable() const;
  void OnTruncated(const wire::TruncatedAtEof& t);
  /// An EOF inside a frame: the plugin's violation, or the cut of the host's own stop.
  void JudgeTruncation(std::size_t frame, const wire::TruncatedAtEof& t, bool hosts_cut);

  Conversation& c_;
  Sender& sender_;
  Inbox& inbox_;
  /// The ids of the plugin's own requests (IdKey) and the frame that first used each.
  std::map<std::string, std::size_t> plugin_request_ids_;
  bool hosts_cut_ = false;  // the host's own stop ended the plugin: an EOF mid-frame is its cut
  bool graded_stop_running_ = false;  // a graded stop is running: judge cuts when it ends
  std::optional<std::pair<std::size_t, wire::TruncatedAtEof>> pending_cut_;
};

}  // namespace fakehost::session
