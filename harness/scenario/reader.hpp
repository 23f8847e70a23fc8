// The loader's working state: reads one scenario's YAML tree into the model, collecting every
// problem as a LoadError. Internal to the loader (loader.hpp is the interface); split over
// reader_values.cpp (scalars, durations, JSON values), reader_steps.cpp (a step's key and
// siblings, names, ReadBody, and the Read of send, send_raw, expect, answer and the small kinds),
// reader_bodies.cpp (send's and send_raw's members, shutdown, for_each), reader_expect.cpp
// (filters, expect_none, expect_exit) and loader.cpp (the top level, `use:`).
//
// Steps without `level:` get the scenario's level. Names given with `as:` are visible to later
// steps of the same list and of lists inside it (a for_each body's names stay in the body);
// fragments share the scope of the step that uses them.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "harness/scenario/loader.hpp"
#include "harness/scenario/step_kinds.hpp"
#include "harness/scenario/yaml_json.hpp"

namespace fakehost::scenario::internal {

/// A key of a YAML mapping with its nodes (handles into the tree being read).
struct Entry {
  std::string key;
  YamlNode key_node;
  YamlNode value;
};

class Reader {
 public:
  Reader(const LoadContext& context, std::vector<LoadError>* errors)
      : context_(context), errors_(errors) {}

  /// Fills `out` from a parsed and tree-checked document; problems go to the error list.
  void ReadScenario(const YamlNode& root, const std::string& file, Scenario* out);

 private:
  /// A name given with `as:`, visible to later steps of the same list (and lists inside it).
  struct Name {
    result::SourceLoc loc;
    bool is_send = false;
  };
  using Scope = std::map<std::string, Name>;
  /// What a step's body is read from: its entry, the kind's other siblings, the names in scope.
  struct BodyInput {
    const Entry& body;
    const std::vector<Entry>& siblings;
    Scope* scope;
  };
  struct PendingReplyTo {
    std::string name;
    result::SourceLoc loc;
    std::string suffix;
  };

  // --- errors
  void Error(const YamlMark& mark, const std::string& message);
  /// Appends " (used from ...)" to errors added since `from` (they came from a fragment).
  void AddSuffix(std::size_t from);
  std::string UsedFromSuffix() const;
  result::SourceLoc Loc(const YamlMark& mark) const;

  // --- values (reader_values.cpp)
  std::vector<Entry> Entries(const YamlNode& map);
  static const Entry* Find(const std::vector<Entry>& entries, std::string_view key);
  bool OnlyKeys(const std::vector<Entry>& entries, const std::vector<std::string_view>& allowed,
                const std::string& what);
  bool String(const YamlNode& node, const std::string& what, std::string* out);
  bool Bool(const YamlNode& node, const std::string& what, bool* out);
  bool Integer(const YamlNode& node, const std::string& what, std::int64_t min, std::int64_t max,
               std::int64_t* out);
  bool Duration(const YamlNode& node, const std::string& what, Ms* out);
  bool LevelOf(const YamlNode& node, result::Level* out);
  bool Pointer(const YamlNode& node, const std::string& what, std::string* out);
  bool SignalOf(const YamlNode& node, int* number, std::string* name);
  bool Identifier(const YamlNode& node, const std::string& what, std::string* out);
  /// `KEY: NAME` where NAME is an earlier send's `as: NAME` (expect's after, expect_none's since).
  bool EarlierSend(const Entry& entry, const std::string& key, const Scope& scope,
                   std::string* out);
  /// Converts to a document and checks the ${...} syntax of its strings; null on errors.
  JsonPtr Json(const YamlNode& node);
  /// Json() plus CheckPattern, with each pattern error placed at its YAML key or value.
  JsonPtr Pattern(const YamlNode& node);

  void ReadHeader(const YamlNode& root, const std::vector<Entry>& entries, Scenario* out);
  void ReadHost(const Entry& host, Scenario* out);
  /// One entry of `requires:` (loader.cpp).
  bool ReadRequirement(const YamlNode& node, Requirement* out);
  void ReadCites(const YamlNode& node, Scenario* out);

  // --- steps (reader_steps.cpp)
  void Steps(const YamlNode& list, Scope* scope, std::vector<Step>* out);
  void ReadStep(const YamlNode& node, Scope* scope, std::vector<Step>* out);
  /// The one entry naming the step's kind; null after an error.
  const Entry* StepBody(const YamlNode& node, const std::vector<Entry>& entries);
  /// level, note and why into `step`; the kind's other siblings into `siblings`; refuses the rest.
  bool ReadStepSiblings(const Entry& body, const std::vector<Entry>& entries, Step* step,
                        std::vector<Entry>* siblings);
  /// A `use:` step's fragment, its steps taking the use's level (if given) and note.
  void AppendFragmentSteps(const Entry& body, bool level_given, const Step& use, Scope* scope,
                           std::vector<Step>* out);
  /// Reads a step's body as the kind's row says: the row's alternative, by its `Read` below.
  bool ReadBody(const StepKindInfo& kind, const BodyInput& in, Step* step);
  /// One reader per step body (model.hpp's list), each beside its kind's helpers.
#define FAKEHOST_DECLARE_READ(Body) bool Read(const BodyInput& in, scenario::Body* out);
  FAKEHOST_STEP_BODIES(FAKEHOST_DECLARE_READ)
#undef FAKEHOST_DECLARE_READ
  bool Nothing(const Entry& body);
  bool ReadSend(const Entry& body, const std::vector<Entry>& siblings, bool notify, Send* out);
  bool ReadSendSource(const Entry& body, const std::vector<Entry>& entries, Send* out);
  bool ReadSendMembers(const std::vector<Entry>& entries, bool notify, Send* out);
  bool ReadSendPadding(const std::vector<Entry>& siblings, Send* out);
  bool ReadSendRaw(const Entry& body, SendRaw* out);
  /// text: or hex:, exactly one.
  bool ReadSendRawBytes(const Entry& body, const std::vector<Entry>& entries, SendRaw* out);
  /// framed: and the length: a framed send_raw announces.
  bool ReadSendRawFraming(const std::vector<Entry>& entries, SendRaw* out);
  /// repeat:, chunk: and delay:.
  bool ReadSendRawPacing(const std::vector<Entry>& entries, SendRaw* out);
  bool ReadFilter(const Entry& body, const Scope& scope, Filter* out);
  /// The one key naming the frames a filter takes (reply_to, response, ...); null after an error.
  const Entry* FilterSelector(const Entry& body, const std::vector<Entry>& entries,
                              Filter::Kind* kind);
  /// The selector's value. False if the filter cannot be read further; a problem that leaves
  /// the rest readable clears `*ok` instead.
  bool ReadSelector(const Entry& selector, const Scope& scope, Filter* out, bool* ok);
  /// result, error, params and message, each refused where the selector's frames lack it.
  bool ReadFilterParts(const std::vector<Entry>& entries, const Entry& selector, Filter* out);
  bool ReadExpect(const Entry& body, const std::vector<Entry>& siblings, const Scope& scope,
                  Expect* out);
  /// for_each `items: "${CAPTURE.path}"`: the path ("list.result.tools"), whose head must be a
  /// capture (an expect's `as:`) in scope.
  bool ItemsFromCapture(const YamlNode& node, const Scope& scope, std::string* out);
  void ExpandUse(const Entry& body, Scope* scope, std::vector<Step>* out);
  bool DefineName(const std::string& name, const YamlMark& mark, bool is_send, Scope* scope);
  void ResolvePendingReplyTo();

  const LoadContext& context_;
  std::vector<LoadError>* errors_;
  std::string file_;  ///< the file being read (scenario or fragment)
  std::vector<result::SourceLoc>
      used_from_;  ///< innermost first: where the current fragment was used
  std::vector<std::string> fragment_stack_;
  result::Level default_level_ = result::Level::kMust;
  std::vector<std::pair<std::string, result::SourceLoc>> all_names_;
  std::vector<PendingReplyTo> pending_;
  int depth_ = 0;  ///< step lists nested in for_each and fragments
  /// The scenario's `vars:` once read: Json() checks what each value expands to against them.
  const std::map<std::string, JsonPtr>* vars_ = nullptr;
};

}  // namespace fakehost::scenario::internal
