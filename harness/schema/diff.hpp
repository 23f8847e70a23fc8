// The structural difference between two versions of a protocol's frame schema, and the
// annotations every frame entry carries so that a difference can be judged.
//
// A frame entry ($defs/<method>.<kind>) says who sends it ("x-direction": "host->plugin",
// "plugin->host" or "both"), whether its shape is frozen ("x-frozen": true/false), and which
// values in it are closed sets ("x-closed-sets": instance pointers such as "/params/level", with
// "*" for any array item or map value). DiffSchemas compares each entry of OLD with the entry of
// the same name in NEW, following $ref and allOf so that a change in a shared definition is seen
// in every frame that uses it (and reported once, with every place it shows). It says what
// changed and what that does to the set of frames the schema accepts; whether that is allowed is
// the protocol's versioning rules' call (harness/protocol/versioning.hpp).
//
// Not followed: the members of oneOf/anyOf/not, dependencies and propertyNames are compared as
// written (a $ref inside one is compared by name); such a change is reported as
// "constraint-changed", which the rules can only treat as unclassified.
#pragma once

#include <string>
#include <vector>

#include "harness/json/rapidjson.hpp"

namespace fakehost::schema {

class FrameSchema;

/// What an entry says about itself.
struct EntryAnnotations {
  std::string direction;  ///< "host->plugin", "plugin->host" or "both"
  bool frozen = false;
  std::vector<std::string> closed_sets;  ///< instance pointers; "*" matches any one token
};

/// Reads an entry's annotations; false with *error ("x-frozen: missing", ...) when one is
/// missing or malformed.
bool ReadAnnotations(const rapidjson::Value& entry, EntryAnnotations* out, std::string* error);

/// One line per problem with the annotations of `def`: missing or malformed, or a closed-set
/// pointer that names no enum or const in the frame. Empty when they are sound.
std::vector<std::string> AnnotationProblems(const FrameSchema& schema, const std::string& def);

/// A frame and the place in it where a change shows.
struct ChangeLocation {
  std::string entry;    ///< the $defs entry, "rim.handshake.response"
  std::string pointer;  ///< instance pointer in the frame, "/result/error" ("" = the frame)
};

/// One difference between OLD and NEW. `widens`: every frame OLD accepted NEW accepts too (old
/// senders keep working against a NEW receiver). `narrows`: a receiver built to OLD accepts
/// every frame a NEW sender emits, counting fields an open OLD object ignores (old receivers
/// keep working against a NEW sender). A change can be both (a new method) or neither.
struct SchemaChange {
  /// entry-added, entry-removed, frozen-changed, direction-changed, closed-sets-changed,
  /// property-added, property-removed, property-became-required, property-became-optional,
  /// type-widened, type-narrowed, type-changed, enum-value-added, enum-value-removed,
  /// enum-introduced, enum-dropped, const-changed, constraint-tightened, constraint-loosened,
  /// constraint-changed, object-closed, object-opened, condition-added, condition-removed.
  std::string kind;
  std::string detail;                     ///< one sentence: "optional field 'debug' added"
  std::string schema_pointer;             ///< where in NEW's document (OLD's if NEW lacks it)
  std::string old_value, new_value;       ///< compact JSON, "" when absent
  std::vector<ChangeLocation> locations;  ///< at least one; entries in document order
  bool widens = false;
  bool narrows = false;
  bool frozen = false;      ///< any of its entries is frozen (OLD's annotation, NEW's if added)
  bool closed_set = false;  ///< it sits at a closed set of one of its entries
  std::string direction;    ///< of its entries: one direction, or "both" when they differ
};

/// Every difference between the $defs entries of two schema documents (as FrameSchema loaded
/// them), grouped so that one change in a shared definition is one SchemaChange. Entries whose
/// annotations cannot be read count as direction "both", not frozen.
std::vector<SchemaChange> DiffSchemas(const rapidjson::Value& old_doc,
                                      const rapidjson::Value& new_doc);

/// True when instance pointer `pointer` matches `pattern` token by token ("*" matches any one).
bool PointerMatches(const std::string& pattern, const std::string& pointer);

}  // namespace fakehost::schema
