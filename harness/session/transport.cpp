#include "harness/session/transport.hpp"

#include <boost/asio/post.hpp>

namespace fakehost::session {

Transport::Transport(boost::asio::io_context& io, const wire::Framing& framing,
                     std::uint64_t max_payload, ChildFactory factory)
    : io_(io),
      decoder_(framing.MakeDecoder(max_payload)),
      factory_(factory ? std::move(factory) : ChildFactory(&process::Child::Spawn)) {}

Transport::~Transport() { Close(); }

void Transport::Close() {
  child_.reset();  // kills and reaps the group; no callback fires after this
}

bool Transport::Start(const process::SpawnSpec& spec, Sink sink, std::string* error) {
  sink_ = std::move(sink);
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
  sink_(closed);
}

void Transport::OnExit() {
  Event exited = Exited{};
  sink_(exited);
  exited_ = true;
  // The exit may be seen before the last bytes on stdout are read. Everything the plugin wrote
  // is in the pipe by now: once no byte is left unread there (checked behind the reads already
  // queued), nothing more can arrive.
  PostDrainCheck();
}

void Transport::PostDrainCheck() {
  boost::asio::post(io_, [this] {
    if (drained_ || !child_ || child_->stdout_unread() > 0) return;  // a read will follow
    drained_ = true;
    Event drained = Drained{};
    sink_(drained);
  });
}

void Transport::Deliver() {
  for (auto& decoded : decoded_) {
    Event event = std::visit([](auto& e) -> Event { return std::move(e); }, decoded);
    sink_(event);
  }
  decoded_.clear();
}

}  // namespace fakehost::session
