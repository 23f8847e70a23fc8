// A protocol's versioning rules, as data, and the verdict they give on a change between two
// versions of its frame schema and profile.
//
// The rules live in the profile (member "versioning"), so a third protocol brings its own:
//
//   "versioning": {
//     "version": 1,                               // the protocol version this profile describes
//     "error_codes": "/definitions/ErrorCode",    // optional: where the schema keeps error codes
//     "profile": [{"pointer": "/framing", "topic": "framing", "direction": "both"}, ...],
//     "rules": [{"id": "frozen-field", "section": "§16", "text": "<quoted rule>",
//                "verdict": "breaking", "when": {"area": "schema", "frozen": true}}, ...]
//   }
//
// "profile" names the members of profile.json that are protocol facts (framing, limits, id
// rules, deadlines, error codes, ...); the rest of the profile is fakehost's own and is not
// compared. Each change is judged by the first rule whose "when" matches it; every condition in
// "when" must hold: area ("schema"/"profile"), kinds, topics, directions (lists: one must
// match), frozen, closed_set, error_code, compatible (booleans). The last rule must have no
// "when": it catches what no other rule covers. A change is "compatible" when the side that
// stays old keeps working: for what the host sends, a plugin built to OLD accepts every NEW
// frame; for what plugins send, NEW accepts every frame OLD did; for "both", both hold.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "harness/json/rapidjson.hpp"
#include "harness/schema/diff.hpp"

namespace fakehost::protocol {

class Profile;

struct RuleCondition {
  std::optional<std::string> area;
  std::vector<std::string> kinds, topics, directions;  ///< empty: any
  std::optional<bool> frozen, closed_set, error_code, compatible;
};

struct VersioningRule {
  std::string id;
  std::string section;   ///< where the text says it ("§16"; "chosen" when the text is silent)
  std::string text;      ///< the rule, quoted from the protocol text
  std::string note;      ///< how fakehost reads it where the text is silent; may be empty
  bool allowed = false;  ///< verdict: "allowed" (true) or "breaking"
  RuleCondition when;
};

/// A profile member that is a protocol fact.
struct ProfileFact {
  std::string pointer;    ///< into profile.json
  std::string topic;      ///< "framing", "deadline", "error-code", ...
  std::string direction;  ///< "host->plugin", "plugin->host" or "both"
};

struct Versioning {
  std::int64_t version = 0;
  std::string error_codes;  ///< schema pointer; "" if the schema keeps none
  std::vector<ProfileFact> profile;
  std::vector<VersioningRule> rules;
};

/// Reads and checks a profile's "versioning" member; false with "<path>: /versioning/...: what"
/// on *error.
bool ReadVersioning(const rapidjson::Value& table, const std::string& path, Versioning* out,
                    std::string* error);

/// One judged difference.
struct VersionChange {
  std::string area;  ///< "schema" or "profile"
  std::string kind, detail, direction, topic;
  std::string pointer;         ///< profile: the member; schema: the first location's pointer
  std::string schema_pointer;  ///< schema: where in the schema document
  std::vector<schema::ChangeLocation> locations;  ///< schema only
  std::string old_value, new_value;
  bool frozen = false, closed_set = false, error_code = false, compatible = false;
  VersioningRule rule;  ///< the rule that decided (a copy)
};

/// Every difference between OLD and NEW, judged by OLD's rules.
struct VersionDiff {
  std::string protocol;  ///< OLD's profile name
  std::int64_t old_version = 0, new_version = 0;
  std::vector<VersionChange> changes;
  /// NEW declares a newer major version: breaking changes are expected and reported only.
  bool major_bump() const { return new_version > old_version; }
  std::size_t breaking() const;
  /// 0: nothing breaks the version (or the version was bumped); 1: a change breaks it.
  int ExitCode() const { return breaking() > 0 && !major_bump() ? 1 : 0; }
};

/// The changes between two profile documents in the members `facts` names: objects are
/// compared key by key ("$..." comments skipped), anything else whole. Kinds: profile-added,
/// profile-removed, profile-changed, profile-increased, profile-decreased (numbers).
std::vector<VersionChange> DiffProfiles(const rapidjson::Value& old_doc,
                                        const rapidjson::Value& new_doc,
                                        const std::vector<ProfileFact>& facts);

/// The first rule that matches `change`; `rules` ends with a catch-all (ReadVersioning checks).
const VersioningRule& Judge(const std::vector<VersioningRule>& rules, const VersionChange& change);

/// Compares OLD (profile + its frame schema document) with NEW. False with *error when OLD's
/// profile has no versioning table or NEW's cannot be read.
bool DiffVersions(const Profile& old_profile, const rapidjson::Value& old_schema,
                  const Profile& new_profile, const rapidjson::Value& new_schema, VersionDiff* out,
                  std::string* error);

}  // namespace fakehost::protocol
