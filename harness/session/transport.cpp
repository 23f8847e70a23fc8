#include "harness/session/transport.hpp"

#include <boost/asio/post.hpp>

#include "harness/session/frames.hpp"

namespace fakehost::session {

Transport::Transport(boost::asio::io_context& io, const wire::Framing& framing,
                     std::uint64_t max_payload, ChildFactory factory)
    : io_(io),
      decoder_(framing.MakeDecoder(max_payload)),
      resync_(framing.resync()),
      factory_(factory ? std::move(factory) : ChildFactory(&process::Child::Spawn)) {}

Transport::~Transport() { Close(); }

void Transport::Close() {
  child_.reset();  // kills and reaps the group; no callback fires after this
}

bool Transport::Start(const process::SpawnSpec& spec, FramePipeline& sink, std::string* error) {
  sink_ = &sink;
  process::Callbacks cb;
  cb.on_stdout = [this](std::string_view bytes) { OnStdout(bytes); };
  cb.on_stdout_eof = [this] { OnStdoutEof(); };
  // Kept by the child; the read still wakes the session's wait, which rechecks its condition.
  cb.on_stderr = [](std::string_view) {};
  cb.on_exit = [this](const process::ExitStatus&) { OnExit(); };
  child_ = factory_(io_, spec, std::move(cb), error);
  return child_ != nullptr;
}

void Transport::OnStdout(std::string_view bytes) {
  decoder_->Feed(bytes, &decoded_);
  Deliver();
  if (exited_ && !drained_) PostDrainCheck();  // the rest of the last output may follow
}

void Transport::OnStdoutEof() {
  decoder_->Finish(&decoded_);
  Deliver();
  Event closed = StdoutClosed{};
  Emit(closed);
}

void Transport::OnExit() {
  Event exited = Exited{};
  Emit(exited);
  exited_ = true;
  // The exit may be seen before the last bytes on stdout are read. Everything the plugin wrote
  // is in the pipe by now: once no byte is left unread there (checked behind the reads already
  // queued), nothing more can arrive.
  PostDrainCheck();
}

void Transport::PostDrainCheck() {
  boost::asio::post(io_, [this] {
    if (drained_ || !child_ || child_->stdout_unread() > 0) return;  // a read will follow
    Event drained = Drained{};
    Emit(drained);
  });
}

void Transport::Deliver() {
  for (auto& decoded : decoded_) {
    Event event = std::visit([](auto& e) -> Event { return std::move(e); }, decoded);
    Emit(event);
  }
  decoded_.clear();
}

void Transport::Emit(Event& event) {
  if (std::holds_alternative<StdoutClosed>(event)) stdout_closed_ = true;
  if (std::holds_alternative<Drained>(event)) drained_ = true;
  // Length-prefixed: after a header it cannot read, nothing after it can be read. NDJSON reads
  // the next line as usual.
  const bool undecodable = std::holds_alternative<wire::Oversized>(event) ||
                           std::holds_alternative<wire::BadHeader>(event);
  if (undecodable && resync_ == wire::Resync::kStreamLost) framing_lost_ = true;
  sink_->OnEvent(event);
}

}  // namespace fakehost::session
