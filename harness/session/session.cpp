#include "harness/session/session.hpp"

namespace fakehost::session {
namespace {

/// The sequence ended the plugin with its own signal step.
bool EndedBySignalStep(const process::StopResult& result,
                       const std::vector<protocol::StopStepSpec>& steps) {
  return result.exited && result.status.signal && result.stage < steps.size() &&
         steps[result.stage].kind == protocol::StopStepSpec::Kind::kSignal;
}

}  // namespace

Session::Session(const protocol::Profile& profile, const schema::FrameSchema* schema,
                 Options options)
    : conversation_(profile, schema, std::move(options)),
      inbox_({conversation_.options.inbox_documents_cap, conversation_.options.inbox_bytes_cap}),
      connection_(profile, conversation_.options.spawn),
      sender_(conversation_, connection_),
      pipeline_(conversation_, sender_, inbox_) {}

Session::~Session() {
  connection_.Close();  // kills and reaps the group before anything its events touch goes away
}

bool Session::Start(const process::SpawnSpec& spec, std::string* error) {
  conversation_.started = Clock::now();
  bool started = connection_.Start(spec, pipeline_, error);
  if (started) conversation_.started = connection_.child()->started_at();
  return started;
}

std::size_t Session::Send(rapidjson::Document message, bool deliberately_invalid,
                          const std::string& answers) {
  return sender_.Send(std::move(message), deliberately_invalid, answers);
}

std::size_t Session::SendRaw(std::string bytes, std::string note, Clock::time_point until) {
  return sender_.SendRaw(std::move(bytes), std::move(note), until);
}

std::size_t Session::SendRawChunked(std::string bytes, std::size_t chunk, Ms delay,
                                    std::string note, Clock::time_point until) {
  return sender_.SendRawChunked(std::move(bytes), chunk, delay, std::move(note), until);
}

std::size_t Session::SendRawRepeated(std::string chunk, std::uint64_t total, Ms delay,
                                     std::string note, Clock::time_point until) {
  return sender_.SendRawRepeated(std::move(chunk), total, delay, std::move(note), until);
}

void Session::TrackRawRequest(std::size_t index, const rapidjson::Value* doc) {
  sender_.TrackRawRequest(index, doc);
}

void Session::Reply(const Inbound& request, const rapidjson::Value& body) {
  sender_.Reply(request, body);
}

rapidjson::Value Session::NextId(const std::string& method) {
  return conversation_.correlator.NextId(method);
}

void Session::CloseStdin() { connection_.CloseStdin(); }

bool Session::SignalGroup(int signal) { return connection_.SignalGroup(signal); }

Session::WaitEnd Session::RunUntil(const std::function<bool()>& done, Clock::time_point deadline) {
  return connection_.RunUntil(done, deadline);
}

void Session::RunFor(Ms duration) { connection_.RunFor(duration); }

std::optional<Inbound> Session::Next(Cursor& cursor, Clock::time_point until) {
  // Messages that arrive while the step waits are kept even past the inbox's caps until it has
  // read them: one read may bring more frames than the caps hold.
  inbox_.HoldUnread(&cursor);
  connection_.RunUntil([&] { return inbox_.After(cursor) || gone() || interrupted(); }, until);
  inbox_.HoldUnread(nullptr);
  std::optional<Inbound> next = inbox_.After(cursor);
  if (next) cursor.from = next->frame + 1;
  return next;
}

std::optional<Inbound> Session::WaitFor(bool (*wanted)(const Inbound&), Clock::time_point until) {
  Cursor cursor;
  while (std::optional<Inbound> in = Next(cursor, until))
    if (wanted(*in) && Take(in->frame)) return in;
  return std::nullopt;
}

process::StopResult Session::Stop(const std::vector<protocol::StopStepSpec>& steps, bool graded) {
  Ms total{0};
  std::vector<process::StopStep> plan = sender_.StopPlan(steps, graded, &total);
  if (!connection_.child()) return {};
  pipeline_.StopBegins(graded);
  process::StopResult result = connection_.RunStop(std::move(plan), total);
  pipeline_.StopEnded(EndedBySignalStep(result, steps));
  return result;
}

const rapidjson::Value* Session::Announced() const { return conversation_.Announced(); }

const std::optional<process::ExitStatus>& Session::exit_status() const {
  return connection_.exit_status();
}

bool Session::gone() const { return connection_.gone(); }

std::optional<result::Reason> Session::GoneReason() const { return connection_.GoneReason(); }

Ms Session::RequestDeadline(const rapidjson::Value& frame, const std::string& method) const {
  return conversation_.RequestDeadline(frame, method);
}

std::string Session::Describe(result::Reason gone) const { return connection_.Describe(gone); }

std::string Session::StderrTail(std::size_t max_bytes, std::uint64_t* dropped) const {
  return connection_.StderrTail(max_bytes, dropped);
}

std::uint64_t Session::stderr_dropped() const { return connection_.stderr_dropped(); }

double Session::ElapsedMs(Clock::time_point at) const { return conversation_.ElapsedMs(at); }

const PendingRequest* Session::RequestByFrame(std::size_t frame) const {
  return conversation_.correlator.ByFrame(frame);
}

}  // namespace fakehost::session
