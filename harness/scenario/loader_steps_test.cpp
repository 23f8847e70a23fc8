// The loader: each step kind, its siblings and its errors.
#include <gtest/gtest.h>

#include "harness/json/json.hpp"
#include "harness/scenario/loader.hpp"
#include "harness/scenario/step_kinds.hpp"

namespace fakehost::scenario {
namespace {

bool StartsWith(const std::string& text, const std::string& prefix) {
  return text.rfind(prefix, 0) == 0;
}

// Scenario text with `steps` as its step list; the first step is on line 5.
std::string WithSteps(const std::string& steps) {
  return "title: T\nspec: S\nrequirement: R\nsteps:\n" + steps;
}

std::vector<Step> Steps(const std::string& steps) {
  Scenario scenario;
  std::vector<LoadError> errors;
  EXPECT_TRUE(LoadScenarioText(WithSteps(steps), "s.yaml", "s", {}, &scenario, &errors))
      << (errors.empty() ? "" : errors[0].ToString());
  return scenario.steps;
}

template <typename T>
T One(const std::string& steps) {
  const std::vector<Step> loaded = Steps(steps);
  EXPECT_EQ(loaded.size(), 1u);
  if (loaded.empty() || !std::holds_alternative<T>(loaded[0].body)) return T{};
  return std::get<T>(loaded[0].body);
}

std::string Error(const std::string& steps) {
  Scenario scenario;
  std::vector<LoadError> errors;
  EXPECT_FALSE(LoadScenarioText(WithSteps(steps), "s.yaml", "s", {}, &scenario, &errors));
  EXPECT_EQ(errors.size(), 1u) << (errors.size() > 1 ? errors[1].ToString() : "");
  return errors.empty() ? "" : errors[0].ToString();
}

std::string Compact(const rapidjson::Value& value) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  value.Accept(writer);
  return buffer.GetString();
}

// A retry resends the request an earlier expect's capture answered: it names that capture, brings
// its own method and id, and may leave the input answers out.
TEST(LoadSend, ReadsARetryOfAnEarlierCaptureAndRefusesAnythingElse) {
  const std::vector<Step> steps = Steps(
      "  - send: {method: tools/call}\n    as: call\n  - expect: {reply_to: call}\n"
      "    as: asked\n  - send: {retry: asked, answer_inputs: false}\n");
  ASSERT_EQ(steps.size(), 3u);
  const Send& retry = std::get<Send>(steps[2].body);
  EXPECT_EQ(retry.retry, "asked");
  EXPECT_FALSE(retry.answer_inputs);
  EXPECT_EQ(Error("  - send: {method: m}\n    as: call\n  - send: {retry: call}\n"),
            "s.yaml:7:11: retry 'call' names no earlier expect with 'as: call' (the answer that "
            "asked for input)");
  EXPECT_EQ(Error("  - send: {method: m, answer_inputs: false}\n"),
            "s.yaml:5:23: answer_inputs goes with retry");
  EXPECT_PRED2(StartsWith,
               Error("  - expect: {response: true}\n    as: asked\n"
                     "  - send: {retry: asked, method: m}\n"),
               "s.yaml:7:26: a retry brings its request's method and a new id: method");
}

TEST(LoadSend, KeepsTheJsonTypeOfAnExplicitId) {
  Send s = One<Send>("  - send: {method: m, id: 1}\n");
  EXPECT_EQ(s.id_mode, Send::IdMode::kExplicit);
  EXPECT_TRUE(s.id->IsInt64());
  s = One<Send>("  - send: {method: m, id: \"1\"}\n");
  EXPECT_TRUE(s.id->IsString());
  EXPECT_EQ(One<Send>("  - send: {method: m, id: null}\n").id_mode, Send::IdMode::kNull);
  EXPECT_EQ(One<Send>("  - send: {method: m, id: ~}\n").id_mode, Send::IdMode::kNull);
  s = One<Send>("  - send: {method: m, id: 'null'}\n");
  EXPECT_EQ(s.id_mode, Send::IdMode::kExplicit);
  EXPECT_TRUE(s.id->IsString());
  EXPECT_EQ(One<Send>("  - send: {method: m}\n").id_mode, Send::IdMode::kAuto);
}

TEST(LoadSend, RejectsAnIdThatIsNotAnIntegerOrString) {
  EXPECT_EQ(Error("  - send: {method: m, id: 1.0}\n"),
            "s.yaml:5:27: id must be an integer or a string, not number 1.0 (mark the step "
            "'invalid: true' to send it anyway)");
  EXPECT_NE(Error("  - send: {method: m, id: true}\n").find("not boolean true"), std::string::npos);
  EXPECT_TRUE(One<Send>("  - send: {method: m, id: yes}\n").id->IsString());
}

TEST(LoadSend, AcceptsAnythingWhenMarkedInvalid) {
  const Send s = One<Send>("  - send: {method: m, id: 1.5, params: 3}\n    invalid: true\n");
  EXPECT_TRUE(s.invalid);
  EXPECT_TRUE(s.id->IsDouble());
  EXPECT_EQ(s.params->GetInt64(), 3);
  EXPECT_EQ(Error("  - send: {method: m, params: 3}\n"),
            "s.yaml:5:31: params must be a map or a list (mark the step 'invalid: true' to send "
            "anything else)");
}

TEST(LoadSend, ReadsPadding) {
  Send s = One<Send>("  - send: {method: m, params: {data: ''}}\n    pad_to: 4096\n");
  EXPECT_EQ(s.pad_to, 4096u);
  EXPECT_EQ(s.pad_pointer, "/params/data");
  s = One<Send>("  - send: {method: m}\n    pad_to: 10\n    pad_at: /params/x\n");
  EXPECT_EQ(s.pad_pointer, "/params/x");
  EXPECT_EQ(Error("  - send: {method: m}\n    pad_at: /params/x\n"),
            "s.yaml:6:5: pad_at needs pad_to (the payload size to pad to)");
  EXPECT_EQ(Error("  - send: {method: m}\n    pad_to: \"10\"\n"),
            "s.yaml:6:13: pad_to must be an integer, not '10'");
}

TEST(LoadSend, ReadsExtraTopLevelMembers) {
  Send s = One<Send>("  - send: {method: m, members: {trace: k3x9}}\n");
  ASSERT_TRUE(s.members);
  EXPECT_EQ(fakehost::json::ToCompact(*s.members), R"({"trace":"k3x9"})");
  EXPECT_EQ(Error("  - send: {method: m, members: [1]}\n"),
            "s.yaml:5:32: members takes a map of extra top-level members");
}

TEST(LoadSendRaw, NamesTheRequestItCarries) {
  SendRaw r = One<SendRaw>("  - send_raw: {text: '{}'}\n    as: raw\n");
  EXPECT_EQ(r.as, std::vector<std::string>{"raw"});
}

// Bytes carrying several messages (two NDJSON lines in one write) name each request, in order.
TEST(LoadSendRaw, NamesEachRequestItCarriesInOrder) {
  SendRaw r = One<SendRaw>("  - send_raw: {text: 'a'}\n    as: [one, two]\n");
  EXPECT_EQ(r.as, (std::vector<std::string>{"one", "two"}));
  EXPECT_EQ(Error("  - send_raw: {text: 'a'}\n    as: []\n"),
            "s.yaml:6:9: as takes a name, or a list of names (one per message)");
  EXPECT_PRED2(StartsWith, Error("  - send_raw: {text: 'a'}\n    as: [one, one]\n"),
               "s.yaml:6:15: ");
}

TEST(LoadSend, RejectsUnknownKeysInTheBodyAndMissingMethod) {
  EXPECT_EQ(
      Error("  - send: {method: m, parms: {}}\n"),
      "s.yaml:5:23: unknown key 'parms' in send (allowed: method, params, id, members, trigger, "
      "deadline_ms, retry, answer_inputs)");
  EXPECT_EQ(Error("  - send: {params: {}}\n"),
            "s.yaml:5:5: send needs a method (or a trigger: NAME)");
  EXPECT_EQ(Error("  - send: {method: 5}\n"),
            "s.yaml:5:20: method must be a string, not integer 5 (quote it to make it a string)");
}

TEST(LoadSend, ATriggerTakesParamsToLayOverItsOwnButNoMethodOrId) {
  Send s = One<Send>("  - send: {trigger: t, params: {_meta: {a: 1}}}\n");
  EXPECT_EQ(s.trigger, "t");
  ASSERT_TRUE(s.params);
  EXPECT_EQ(json::ToCompact(*s.params), R"({"_meta":{"a":1}})");
  EXPECT_EQ(Error("  - send: {trigger: t, method: m}\n"),
            "s.yaml:5:24: a trigger brings its own method and id: method does not go with trigger");
  EXPECT_EQ(Error("  - send: {trigger: t, params: [1]}\n"),
            "s.yaml:5:32: params with a trigger is a map laid over the trigger's params");
}

TEST(LoadNotify, IsASendWithoutAnId) {
  const std::vector<Step> steps =
      Steps("  - notify: {method: rim.principal.changed, params: {}}\n");
  ASSERT_EQ(steps.size(), 1u);
  EXPECT_EQ(steps[0].kind, "notify");
  EXPECT_EQ(std::get<Send>(steps[0].body).id_mode, Send::IdMode::kNone);
  EXPECT_EQ(Error("  - notify: {method: m, id: 1}\n"),
            "s.yaml:5:25: unknown key 'id' in notify (allowed: method, params, members)");
  EXPECT_EQ(Error("  - notify: {method: m}\n    as: x\n"),
            "s.yaml:6:5: 'as' is not allowed on a notify step (allowed: invalid, level, note)");
}

// The list is every row's key, in the rows' order (so a new kind does not touch this test).
TEST(LoadStep, RejectsAnUnknownStepKind) {
  std::string known;
  for (const StepKindInfo& info : StepKinds())
    known += (known.empty() ? "" : ", ") + std::string(info.key);
  EXPECT_EQ(Error("  - sned: {method: m}\n    as: x\n"),
            "s.yaml:5:5: unknown step kind 'sned' (known: " + known + ")");
  EXPECT_TRUE(known.starts_with("send, notify, send_raw, expect, expect_none, ")) << known;
}

TEST(LoadStep, RejectsAnUnknownOrMisplacedSibling) {
  EXPECT_EQ(Error("  - sleep: 1s\n    within: 1s\n"),
            "s.yaml:6:5: 'within' is not allowed on a sleep step (allowed: level, note)");
  EXPECT_EQ(Error("  - sleep: 1s\n    colour: red\n"),
            "s.yaml:6:5: unknown key 'colour' is not allowed on a sleep step (allowed: level, "
            "note)");
}

TEST(LoadStep, RejectsTwoStepKeysOrNone) {
  EXPECT_EQ(Error("  - sleep: 1s\n    close_stdin: {}\n"),
            "s.yaml:6:5: one step per list item: 'sleep' and 'close_stdin' are both here");
  EXPECT_PRED2(StartsWith, Error("  - note: hi\n"), "s.yaml:5:5: this step has no step key (on");
  EXPECT_EQ(Error("  - close_stdin\n"),
            "s.yaml:5:5: a step must be a map with one step key, e.g. '- send: {...}' or '- "
            "close_stdin: {}'");
}

TEST(LoadSendRaw, DecodesHexWithSpaces) {
  const SendRaw raw = One<SendRaw>("  - send_raw: {hex: \"0a ff00 7B\", framed: false}\n");
  EXPECT_EQ(raw.bytes, std::string("\x0a\xff\x00\x7b", 4));
  EXPECT_FALSE(raw.framed);
}

TEST(LoadSendRaw, RejectsBadHexAtTheScalar) {
  EXPECT_EQ(Error("  - send_raw: {hex: \"0a 0g\"}\n"),
            "s.yaml:5:21: bad hex at character 5 of '0a 0g' (pairs of hex digits, optionally "
            "separated by spaces)");
  EXPECT_NE(Error("  - send_raw: {hex: abc}\n").find("character 4"), std::string::npos);
  EXPECT_NE(Error("  - send_raw: {hex: a b}\n").find("character 2"), std::string::npos);
}

TEST(LoadSendRaw, ReadsEveryOption) {
  const SendRaw raw = One<SendRaw>(
      "  - send_raw: {text: '{\"id\":1}', length: 4294967295, repeat: 3, chunk: 2, delay: 5ms}\n");
  EXPECT_EQ(raw.bytes, "{\"id\":1}");
  EXPECT_TRUE(raw.framed);
  EXPECT_EQ(raw.length, 4294967295u);
  EXPECT_EQ(raw.repeat, 3u);
  EXPECT_EQ(raw.chunk, 2u);
  EXPECT_EQ(raw.delay, Ms(5));
}

TEST(LoadSendRaw, RejectsInconsistentOptions) {
  EXPECT_EQ(Error("  - send_raw: {framed: true}\n"), "s.yaml:5:5: send_raw needs text: or hex:");
  EXPECT_EQ(Error("  - send_raw: {text: a, hex: '00'}\n"),
            "s.yaml:5:25: send_raw takes text: or hex:, not both");
  EXPECT_EQ(Error("  - send_raw: {text: a, length: 4294967296}\n"),
            "s.yaml:5:33: length must be between 0 and 4294967295, not 4294967296");
  EXPECT_EQ(Error("  - send_raw: {text: a, framed: false, length: 1}\n"),
            "s.yaml:5:40: length is the announced frame length: it needs framed: true");
  EXPECT_EQ(Error("  - send_raw: {text: a, delay: 1ms}\n"),
            "s.yaml:5:25: delay is the pause between chunks: it needs chunk");
  EXPECT_EQ(Error("  - send_raw: {text: a, framed: yes}\n"),
            "s.yaml:5:33: framed must be true or false, not 'yes'");
}

TEST(LoadExpect, ReadsEachSelector) {
  const std::vector<Step> steps = Steps(
      "  - send: {method: m}\n    as: req\n"
      "  - expect: {reply_to: req, error: {code: -32601}}\n    within: 2s\n    not_before: 1s\n"
      "  - expect: {response: true}\n"
      "  - expect: {request: rim.log, params: {level: info}}\n    as: log\n"
      "    reply: {result: {ok: true}}\n"
      "  - expect: {notification: progress}\n"
      "  - expect: {any: true, message: {id: {$absent: true}}}\n");
  ASSERT_EQ(steps.size(), 6u);
  const Expect& reply = std::get<Expect>(steps[1].body);
  EXPECT_EQ(reply.filter.kind, Filter::Kind::kReplyTo);
  EXPECT_EQ(Compact(*reply.filter.error), R"({"code":-32601})");
  EXPECT_EQ(reply.within, Ms(2000));
  EXPECT_EQ(reply.not_before, Ms(1000));
  EXPECT_EQ(std::get<Expect>(steps[2].body).filter.kind, Filter::Kind::kResponse);
  const Expect& request = std::get<Expect>(steps[3].body);
  EXPECT_EQ(request.filter.kind, Filter::Kind::kRequest);
  EXPECT_EQ(request.filter.name, "rim.log");
  EXPECT_EQ(request.as, "log");
  EXPECT_EQ(Compact(*request.reply), R"({"result":{"ok":true}})");
  EXPECT_EQ(std::get<Expect>(steps[4].body).filter.kind, Filter::Kind::kNotification);
  const Expect& any = std::get<Expect>(steps[5].body);
  EXPECT_EQ(any.filter.kind, Filter::Kind::kAny);
  EXPECT_EQ(Compact(*any.filter.message), R"({"id":{"$absent":true}})");
}

TEST(LoadExpect, RejectsReplyToAnUnknownName) {
  EXPECT_EQ(Error("  - expect: {reply_to: hs}\n"),
            "s.yaml:5:24: reply_to 'hs' names no earlier send (give the send 'as: hs')");
}

TEST(LoadExpect, RejectsReplyToALaterSendNamingBothPlaces) {
  EXPECT_EQ(Error("  - expect: {reply_to: hs}\n  - send: {method: m}\n    as: hs\n"),
            "s.yaml:5:24: reply_to 'hs' names no earlier send; 'hs' is defined at s.yaml:7:9, "
            "which is later or in another step list");
}

TEST(LoadExpect, RejectsReplyToAnExpectsName) {
  EXPECT_EQ(Error("  - expect: {request: m}\n    as: r\n  - expect: {reply_to: r}\n"),
            "s.yaml:7:24: reply_to 'r' names the expect at s.yaml:6:9, not a send");
}

TEST(LoadExpect, RejectsANameUsedTwice) {
  EXPECT_EQ(Error("  - send: {method: m}\n    as: a\n  - send: {method: m}\n    as: a\n"),
            "s.yaml:8:9: the name 'a' is already used at s.yaml:6:9");
}

TEST(LoadExpect, RejectsSelectorProblems) {
  EXPECT_EQ(Error("  - expect: {result: {}}\n"),
            "s.yaml:5:5: expect needs one of reply_to, response, request, notification or any");
  EXPECT_EQ(Error("  - expect: {response: true, any: true}\n"),
            "s.yaml:5:30: one selector per expect: 'response' and 'any' are both here");
  EXPECT_EQ(Error("  - expect: {response: false}\n"), "s.yaml:5:24: response takes true");
  EXPECT_EQ(Error("  - expect: {request: m, result: {}}\n"),
            "s.yaml:5:26: result does not apply to request (a request has params)");
  EXPECT_EQ(Error("  - expect: {response: true, params: {}}\n"),
            "s.yaml:5:30: params does not apply to response (a response has result or error)");
  EXPECT_EQ(Error("  - expect: {response: true}\n    reply: {result: 1}\n"),
            "s.yaml:6:5: reply answers a request: use it with 'request: METHOD'");
  EXPECT_EQ(Error("  - expect: {response: true}\n    within: 1s\n    not_before: 1s\n"),
            "s.yaml:7:17: not_before must be shorter than within");
}

TEST(LoadExpect, RejectsUnknownMatcherOperatorsAtTheKey) {
  EXPECT_EQ(Error("  - expect:\n      response: true\n      result:\n        v: {$typo: 1}\n"),
            "s.yaml:8:13: unknown matcher operator '$typo' (known: $type, $one_of, $absent, $any, "
            "$regex, $min, $max, $min_length, $max_length, $len, $each, $contains, $not, $unique, "
            "$equals, $json_schema, $conforms)");
}

TEST(LoadExpect, RejectsMixedOperatorAndMemberKeys) {
  EXPECT_EQ(Error("  - expect: {response: true, result: {$type: object, ok: true}}\n"),
            "s.yaml:5:54: member key 'ok' in an object of matcher operators: an object is either "
            "all operators ($...) or all members");
}

TEST(LoadExpect, RejectsABadRegexAndBadOperatorArguments) {
  EXPECT_PRED2(StartsWith, Error("  - expect: {response: true, result: {v: {$regex: '(x'}}}\n"),
               "s.yaml:5:51: bad regular expression /(x/: ");
  EXPECT_EQ(Error("  - expect: {response: true, result: {v: {$type: int}}}\n"),
            "s.yaml:5:50: unknown type \"int\" for $type (use null, boolean, integer, number, "
            "string, array or object)");
  EXPECT_EQ(Error("  - expect: {response: true, result: {v: {$min_length: -1}}}\n"),
            "s.yaml:5:56: $min_length takes a non-negative integer");
}

TEST(LoadExpect, RejectsBadTemplateSyntaxInValues) {
  EXPECT_EQ(Error("  - expect: {response: true, result: {v: \"${x\"}}\n"),
            "s.yaml:5:42: unterminated '${' in \"${x\"");
}

TEST(LoadExpectNone, NeedsAWindowOrABarrier) {
  ExpectNone none = One<ExpectNone>("  - expect_none: {notification: x}\n    for: 200ms\n");
  EXPECT_EQ(none.window, Ms(200));
  EXPECT_FALSE(none.barrier);
  none = One<ExpectNone>("  - expect_none: {any: true}\n    barrier: true\n");
  EXPECT_TRUE(none.barrier);
  EXPECT_EQ(Error("  - expect_none: {any: true}\n"),
            "s.yaml:5:5: expect_none needs 'for: DURATION' or 'barrier: true'");
  EXPECT_EQ(Error("  - expect_none: {any: true}\n    for: 1s\n    barrier: true\n"),
            "s.yaml:7:5: expect_none takes 'for' or 'barrier', not both");
  EXPECT_EQ(Error("  - expect_none: {any: true}\n    barrier: false\n"),
            "s.yaml:6:14: barrier takes true (or give 'for: DURATION' instead)");
}

TEST(LoadSimpleSteps, ReadsCloseStdinSignalSleepAndShutdown) {
  const std::vector<Step> steps = Steps(
      "  - close_stdin: {}\n  - close_stdin:\n  - signal: TERM\n  - signal: SIGKILL\n"
      "  - signal: 10\n  - sleep: 20ms\n  - shutdown: {}\n"
      "  - shutdown: {sequence: polite, grace: 2s}\n  - shutdown:\n");
  ASSERT_EQ(steps.size(), 9u);
  EXPECT_TRUE(std::holds_alternative<CloseStdin>(steps[1].body));
  EXPECT_EQ(std::get<Signal>(steps[2].body).signal, 15);
  EXPECT_EQ(std::get<Signal>(steps[2].body).name, "SIGTERM");
  EXPECT_EQ(std::get<Signal>(steps[3].body).signal, 9);
  EXPECT_EQ(std::get<Signal>(steps[4].body).name, "SIGUSR1");
  EXPECT_EQ(std::get<Sleep>(steps[5].body).duration, Ms(20));
  EXPECT_EQ(std::get<Shutdown>(steps[7].body).sequence, "polite");
  EXPECT_EQ(std::get<Shutdown>(steps[7].body).grace, Ms(2000));
  EXPECT_EQ(std::get<Shutdown>(steps[8].body).grace, Ms(0));
}

TEST(LoadSimpleSteps, RejectsBadArguments) {
  EXPECT_EQ(Error("  - close_stdin: {now: true}\n"),
            "s.yaml:5:18: close_stdin takes nothing (write 'close_stdin: {}')");
  EXPECT_EQ(Error("  - signal: TERMINATE\n"),
            "s.yaml:5:13: unknown signal 'TERMINATE' (a name such as TERM, KILL, INT, HUP, USR1, "
            "or a number from 1 to 64)");
  EXPECT_PRED2(StartsWith, Error("  - signal: 0\n"), "s.yaml:5:13: ");
  EXPECT_PRED2(StartsWith, Error("  - shutdown: {grace: soon}\n"),
               "s.yaml:5:23: grace: bad duration 'soon'");
  EXPECT_EQ(Error("  - shutdown: {stage: 1}\n"),
            "s.yaml:5:16: unknown key 'stage' in shutdown (allowed: sequence, grace)");
}

TEST(LoadExpectExit, ReadsCodeOrSignalAndRequiresWithin) {
  ExpectExit exit = One<ExpectExit>("  - expect_exit: {code: 0}\n    within: 1s\n");
  EXPECT_EQ(exit.code, 0);
  EXPECT_EQ(exit.within, Ms(1000));
  exit = One<ExpectExit>("  - expect_exit: {signal: KILL}\n    within: 1s\n");
  EXPECT_EQ(exit.signal, 9);
  EXPECT_EQ(One<ExpectExit>("  - expect_exit:\n    within: 1s\n").within, Ms(1000));
  EXPECT_EQ(Error("  - expect_exit: {}\n"),
            "s.yaml:5:5: expect_exit needs within: (how long to wait for the exit)");
  EXPECT_EQ(Error("  - expect_exit: {code: 0, signal: TERM}\n    within: 1s\n"),
            "s.yaml:5:28: an exit has a code or a signal, not both");
  EXPECT_EQ(Error("  - expect_exit: {code: 256}\n    within: 1s\n"),
            "s.yaml:5:25: code must be between 0 and 255, not 256");
}

TEST(LoadForEach, ReadsItemsWhereAndNestedSteps) {
  const ForEach each = One<ForEach>(
      "  - for_each:\n      items: /commands\n      where: {dangerous: {$not: true}}\n"
      "      steps:\n        - send: {method: rim.command.execute, params: {commandId: "
      "\"${item.id}\"}}\n          as: run\n        - expect: {reply_to: run}\n");
  EXPECT_EQ(each.items, "/commands");
  EXPECT_EQ(Compact(*each.where), R"({"dangerous":{"$not":true}})");
  ASSERT_EQ(each.steps.size(), 2u);
  EXPECT_EQ(each.steps[1].loc.ToString(), "s.yaml:11:11");
}

TEST(LoadForEach, KeepsNamesDefinedInsideTheLoop) {
  EXPECT_EQ(Error("  - for_each:\n      items: /commands\n      steps:\n        - send: {method: "
                  "m}\n          as: run\n  - expect: {reply_to: run}\n"),
            "s.yaml:10:24: reply_to 'run' names no earlier send; 'run' is defined at s.yaml:9:15, "
            "which is later or in another step list");
}

TEST(LoadForEach, RejectsMissingPartsAndBadNestedSteps) {
  EXPECT_EQ(Error("  - for_each: {steps: [{sleep: 1s}]}\n"),
            "s.yaml:5:5: for_each needs items: (a JSON pointer into the manifest, or "
            "\"${CAPTURE.path}\" for a list in a frame an earlier expect captured)");
  EXPECT_EQ(Error("  - for_each: {items: /c}\n"), "s.yaml:5:5: for_each needs steps:");
  EXPECT_EQ(Error("  - for_each: {items: /c, steps: []}\n"),
            "s.yaml:5:34: for_each steps must not be empty");
  EXPECT_PRED2(StartsWith, Error("  - for_each: {items: /c, steps: [{slep: 1s}]}\n"),
               "s.yaml:5:36: unknown step kind 'slep' (known: se");
}

TEST(LoadForEach, ReadsItemsFromAnEarlierCapture) {
  const std::vector<Step> steps = Steps(
      "  - send: {method: tools/list}\n    as: ask\n  - expect: {reply_to: ask}\n"
      "    as: list\n  - for_each:\n      items: \"${list.result.tools}\"\n"
      "      steps:\n        - send: {method: tools/call, params: {name: \"${item.name}\"}}\n");
  ASSERT_EQ(steps.size(), 3u);
  ASSERT_TRUE(std::holds_alternative<ForEach>(steps[2].body));
  const ForEach& each = std::get<ForEach>(steps[2].body);
  EXPECT_EQ(each.items_var, "list.result.tools");
  EXPECT_EQ(each.items, "");  // not the manifest's
}

TEST(LoadForEach, RefusesItemsThatNameNoEarlierCapture) {
  // No capture at all, a capture made later, and a send's name (a request, not a frame).
  EXPECT_EQ(Error("  - for_each:\n      items: \"${list.result.tools}\"\n"
                  "      steps: [{sleep: 1ms}]\n"),
            "s.yaml:6:14: for_each items '${list.result.tools}' names no earlier expect with "
            "'as: list' (the list must be in a frame the scenario captured)");
  EXPECT_PRED2(StartsWith,
               Error("  - for_each:\n      items: \"${list.result}\"\n      steps: [{sleep: 1ms}]\n"
                     "  - expect: {response: true}\n    as: list\n"),
               "s.yaml:6:14: for_each items '${list.result}' names no earlier expect");
  EXPECT_PRED2(StartsWith,
               Error("  - send: {method: m}\n    as: ask\n  - for_each:\n"
                     "      items: \"${ask.result}\"\n      steps: [{sleep: 1ms}]\n"),
               "s.yaml:8:14: for_each items '${ask.result}' names no earlier expect");
}

TEST(LoadForEach, RefusesItemsThatAreNotOneVariable) {
  for (const char* items : {"${}", "${list.result}.x", "${list..tools}", "${a}${b}"}) {
    EXPECT_PRED2(StartsWith,
                 Error("  - expect: {response: true}\n    as: list\n  - for_each:\n"
                       "      items: \"" +
                       std::string(items) + "\"\n      steps: [{sleep: 1ms}]\n"),
                 "s.yaml:8:14: for_each items '" + std::string(items) + "' must be one variable")
        << items;
  }
}

TEST(LoadExpectNone, ReadsSinceANamedSend) {
  const std::vector<Step> steps = Steps(
      "  - send: {method: m}\n    as: set\n  - expect_none: {any: true}\n    since: set\n"
      "    for: 1s\n");
  ASSERT_EQ(steps.size(), 2u);
  EXPECT_EQ(std::get<ExpectNone>(steps[1].body).since, "set");
  EXPECT_EQ(Error("  - expect_none: {any: true}\n    since: set\n    for: 1s\n"),
            "s.yaml:6:12: since 'set' names no earlier send with 'as: set'");
  EXPECT_EQ(Error("  - expect: {any: true}\n    as: got\n  - expect_none: {any: true}\n"
                  "    since: got\n    for: 1s\n"),
            "s.yaml:8:12: since 'got' names no earlier send with 'as: got'");
}

TEST(LoadExpect, ReadsAfterANamedSend) {
  const std::vector<Step> steps =
      Steps("  - send: {method: m}\n    as: asked\n  - expect: {any: true}\n    after: asked\n");
  ASSERT_EQ(steps.size(), 2u);
  EXPECT_EQ(std::get<Expect>(steps[1].body).after, "asked");
  EXPECT_EQ(Error("  - expect: {any: true}\n    after: asked\n"),
            "s.yaml:6:12: after 'asked' names no earlier send with 'as: asked'");
}

}  // namespace
}  // namespace fakehost::scenario
