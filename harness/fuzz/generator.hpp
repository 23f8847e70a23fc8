// Generates whole sessions (Plans) from a protocol's profile and frame schema, nothing else.
//
// The Catalog is what the schema and profile offer the host: every host->plugin request and
// notification entry with its examples, the answers the host may give to the plugin's own
// requests, the suite's handshake fragment and the plugin's trigger names. Generate() turns a
// seed into one Plan: a valid handshake (or, now and then, a mutated one), then a random mix of
// schema examples with boundary values and broken fields, odd ids, framing faults, pauses,
// bursts, trigger requests and sync points. No protocol is named in the code: RIM and Flash
// differ only in their catalogs.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "harness/fuzz/plan.hpp"
#include "harness/wire/framing.hpp"

namespace fakehost::protocol {
class Profile;
}
namespace fakehost::schema {
class FrameSchema;
}

namespace fakehost::fuzz {

struct Catalog {
  struct Entry {
    std::string def;             ///< "rim.command.execute.request"
    std::string method;          ///< "rim.command.execute"
    std::vector<Json> messages;  ///< its examples without id and profile-added members
  };
  std::vector<Entry> requests, notifications;
  /// How the host may answer the plugin's own requests: a result valid for one method (its
  /// response's example), or an error valid for any (`method` "").
  struct Reply {
    std::string method;
    Json body;  ///< {result: ...} / {error: ...}
  };
  std::vector<Reply> reply_bodies;
  Json handshake;  ///< the suite's handshake fragment (a JSON array of steps)
  std::vector<std::string> triggers;
  /// Variables the plugin's triggers use that only a scenario's `vars:` gives (a trigger that
  /// echoes `${text}`), each with a made-up string, so that every session can send every trigger.
  std::vector<std::pair<std::string, std::string>> trigger_vars;
  std::string handshake_method, shutdown_method, barrier_method;
  /// The framing's raw faults (wire::Framing::raw_faults()), split by whether they lose the
  /// stream: `terminal` ones end a session, `resync` ones are drawn beside the payload faults.
  std::vector<wire::RawFault> terminal_faults, resync_faults;
  std::uint64_t max_payload = 0;
};

/// Builds the catalog. `handshake_fragment` is the steps of the suite's handshake fragment;
/// `triggers` the plugin's trigger names (may be empty). False with `*error` if the schema
/// offers nothing to send.
bool BuildCatalog(const protocol::Profile& profile, const schema::FrameSchema& schema,
                  Json handshake_fragment, std::vector<std::string> triggers, Catalog* out,
                  std::string* error);

/// The variables `requests` (the triggers' {method, params}) use whose first name the player
/// does not fill itself (the profile's vars, plugin, host, scenario, manifest, item: see
/// scenario::Player), sorted, each with the value "fakehost-fuzz-NAME".
std::vector<std::pair<std::string, std::string>> ScenarioOnlyVariables(
    const protocol::Profile& profile, const std::vector<const rapidjson::Value*>& requests);

/// The steps of the fragment under `fragment_dirs` whose first step sends the profile's
/// handshake method, as JSON; null with `*error` when there is none.
Json FindHandshakeFragment(const std::vector<std::string>& fragment_dirs,
                           const protocol::Profile& profile, std::string* error);

/// One session from `seed`. Deterministic: the same catalog and seed give the same plan.
Plan Generate(const Catalog& catalog, const protocol::Profile& profile, std::uint64_t seed);

/// The boundary values a mutation may put anywhere: empty and long strings, non-ASCII, control
/// characters, the largest safe and int64 integers, negatives, floats, booleans, null, empty and
/// deep containers. Pairs of (name, value).
const std::vector<std::pair<std::string, Json>>& BoundaryValues();

}  // namespace fakehost::fuzz
