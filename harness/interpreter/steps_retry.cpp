// `send: {retry: CAPTURE}`: a request sent again with the input its answer asked the host for.
// The answer (captured by an expect) names requests for the host, by key; the fake host answers
// each as it answers the plugin's own requests (the profile's replies, the plugin's fakehost.yaml
// `host: replies:`), and the retry carries those answers and echoes the answer's state, under a
// new id (MCP 2026-07-28's multi round-trip requests, the profile's input_required).

#include "harness/interpreter/bindings.hpp"
#include "harness/interpreter/step_context.hpp"
#include "harness/interpreter/steps.hpp"
#include "harness/json/json.hpp"
#include "harness/protocol/profile.hpp"
#include "harness/session/session.hpp"

namespace fakehost::interpreter {

bool ResolveRetry(StepContext& ctx, const Send& send, Send* resolved) {
  const protocol::Profile::InputRequired* input = ctx.profile.input_required();
  if (!input)
    return ctx.ScenarioBug("retry: the " + ctx.profile.name() +
                           " profile has no input_required (how an answer asks for input)");
  const rapidjson::Document* capture = ctx.bindings.Captured(send.retry);
  if (!capture) return ctx.ScenarioBug("retry: no frame was captured as '" + send.retry + "'");
  const rapidjson::Document& answer = *capture;
  // The request it answered: the named send whose id the answer carries.
  const rapidjson::Value* id = json::Find(answer, "id");
  const Named* original = id ? ctx.bindings.NamedWithId(*id) : nullptr;
  if (!original)
    return ctx.ScenarioBug("retry: '" + send.retry +
                           "' answers no request this scenario sent and named with as:");
  *resolved = send;
  resolved->retry.clear();
  resolved->method = original->method;
  auto params = std::make_shared<rapidjson::Document>();
  auto& a = params->GetAllocator();
  params->SetObject();
  if (original->params.IsObject()) params->CopyFrom(original->params, a);
  params->RemoveMember(input->responses.c_str());
  if (!input->echo_state.empty()) params->RemoveMember(input->echo_state.c_str());
  const rapidjson::Value* asked = json::Resolve(answer, input->requests);
  if (send.answer_inputs && asked && asked->IsObject()) {
    rapidjson::Value responses(rapidjson::kObjectType);
    for (const auto& request : asked->GetObject()) {
      const rapidjson::Value* method = json::Find(request.value, "method");
      if (!method || !method->IsString()) continue;
      protocol::HostResponder::Answer reply = ctx.session.host().Decide(
          json::View(*method), json::Find(request.value, "params"), Clock::now());
      // An error or a held request leaves the key out: the plugin sees the input missing.
      const rapidjson::Value* result = reply.hold ? nullptr : json::Find(reply.body, "result");
      if (!result) continue;
      responses.AddMember(rapidjson::Value(request.name, a), rapidjson::Value(*result, a), a);
    }
    params->AddMember(rapidjson::Value(input->responses.c_str(), a), responses, a);
  }
  if (!input->state.empty() && !input->echo_state.empty())
    if (const rapidjson::Value* state = json::Resolve(answer, input->state))
      params->AddMember(rapidjson::Value(input->echo_state.c_str(), a), rapidjson::Value(*state, a),
                        a);
  if (send.params) json::MergeInto(*send.params, params.get(), a);
  resolved->params = params;
  return true;
}

}  // namespace fakehost::interpreter
