// `fakehost scenario from-transcript`: a transcript (JSON lines, as `run --transcripts` and the
// fuzzer write them) turned back into a scenario.
//
// Host frames become `send`/`notify`/`send_raw` steps with their ids and params as they were;
// the host's shutdown notification becomes a graded `shutdown` step (and ends the scenario);
// what the host sends by itself (the profile's after-handshake frames) is left out. Plugin
// frames become expectations loose enough to survive timing and key order: an answer is matched
// by the request it answers (reply_to, so the id and its JSON type) and the shape of its result
// (each member's type) or its error code; a plugin request or notification by its method; a
// plugin request the host answered gets that answer as its `reply`. Frames that cannot be
// expected (undecodable bytes, answers to ids never sent) are listed as comments.
#pragma once

#include <string>
#include <string_view>

namespace fakehost::protocol {
class Profile;
}

namespace fakehost::fuzz {

/// The scenario text for the transcript `jsonl` (named `source` in messages and the title).
/// False with `*error` ("source:LINE: why") for input that is not a transcript.
bool ScenarioFromTranscript(std::string_view jsonl, const std::string& source,
                            const protocol::Profile& profile, std::string* yaml,
                            std::string* error);

/// The method of the first host request in `jsonl`, or "" (to tell which profile it speaks).
std::string FirstHostMethod(std::string_view jsonl);

}  // namespace fakehost::fuzz
