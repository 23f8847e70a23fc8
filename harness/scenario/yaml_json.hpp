// YAML for fakehost's input files: a bounded parser (libyaml's event API) into a small read-only
// tree, and the conversion of that tree to RapidJSON.
//
// Why libyaml and not yaml-cpp 0.7: yaml-cpp loops allocating without bound on a file holding
// just `,`, and follows aliases as shared nodes, so a few hundred bytes of nested aliases cost
// minutes of CPU to walk. libyaml is a heavily fuzzed C parser with no recursion; its events
// carry marks, so every problem is placed at file:line:col as it is met.
//
// Limits (each an error with line:col, never a crash, a hang or unbounded memory):
//  - the text is at most json::kInputFileCap (1 MiB) and one document;
//  - anchors (&a) and aliases (*a) are refused where they appear. Scenario files reuse steps
//    with fragments (`use: NAME`); aliases would add nothing but an exponential expansion to
//    bound and values without one place in the file to report errors at;
//  - nesting is at most kMaxYamlDepth levels; input must be UTF-8 (libyaml checks every byte).
//
// Typing follows the YAML 1.2 core schema, and only for plain scalars, so `id: 1` is the integer
// 1 and `id: "1"` the string "1". Plain null/Null/NULL/~/empty are null; true/True/TRUE and
// false/False/FALSE are booleans (never yes/no/on/off); decimal, 0o and 0x integers must fit
// int64; floats look like 1.0, .5, 1e3. `!!str` forces a string (as does the non-specific `!`);
// any other explicit tag is rejected rather than guessed at. Duplicate keys and keys that are not
// plain strings are errors.
#pragma once

#include <cstddef>
#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "harness/json/rapidjson.hpp"
#include "harness/scenario/load_error.hpp"

namespace fakehost::scenario {

/// Nesting deeper than this is an error.
inline constexpr int kMaxYamlDepth = 64;

/// A place in the YAML text, 0-based (line -1: nowhere in particular). `pos` orders marks.
struct YamlMark {
  std::size_t pos = 0;
  int line = -1;
  int column = -1;
};

struct YamlNodeData;

/// A handle to a node of a YamlTree: cheap to copy, valid while the tree lives. A default
/// handle is "undefined" (IsDefined() false; every query answers empty).
class YamlNode {
 public:
  enum class Kind { kNull, kScalar, kSequence, kMap };

  YamlNode() = default;
  explicit YamlNode(const YamlNodeData* data) : data_(data) {}

  bool IsDefined() const { return data_ != nullptr; }
  bool IsNull() const;  ///< a plain, untagged null/Null/NULL/~/empty scalar
  bool IsScalar() const;
  bool IsSequence() const;
  bool IsMap() const;
  /// A scalar's text (empty for other kinds).
  const std::string& Scalar() const;
  /// "?" for a plain untagged scalar, "!" for a quoted or block one or the non-specific tag,
  /// else the resolved tag ("tag:yaml.org,2002:str" for !!str).
  const std::string& Tag() const;
  YamlMark Mark() const;
  /// Items of a sequence, entries of a map, else 0.
  std::size_t size() const;

  /// A sequence's i-th item; undefined if there is none.
  YamlNode Item(std::size_t i) const;
  /// A map's i-th key and value (i < size()), in file order.
  YamlNode Key(std::size_t i) const;
  YamlNode Value(std::size_t i) const;

  /// Iterates a sequence's items; a node of any other kind has none.
  class Iterator {
   public:
    explicit Iterator(const YamlNodeData* const* at) : at_(at) {}
    YamlNode operator*() const { return YamlNode(*at_); }
    Iterator& operator++() { return ++at_, *this; }
    bool operator!=(const Iterator& other) const { return at_ != other.at_; }

   private:
    const YamlNodeData* const* at_;
  };
  Iterator begin() const;
  Iterator end() const;

 private:
  const YamlNodeData* data_ = nullptr;
};

struct YamlNodeData {
  YamlNode::Kind kind = YamlNode::Kind::kNull;
  YamlMark mark;
  std::string text;  ///< a scalar's text
  std::string tag;   ///< see YamlNode::Tag()
  /// A sequence's items, or a map's keys and values alternating (key, value, key, value...).
  std::vector<const YamlNodeData*> children;
};

/// One parsed document. Not copyable: handles point into it.
class YamlTree {
 public:
  YamlTree() = default;
  YamlTree(const YamlTree&) = delete;
  YamlTree& operator=(const YamlTree&) = delete;
  /// The document's root; a null node for an empty document, undefined before parsing.
  YamlNode root() const { return root_; }

 private:
  friend class YamlTreeBuilder;
  std::deque<YamlNodeData> nodes_;  // a deque: handles stay valid as it grows
  YamlNode root_;
};

/// yaml marks are 0-based; SourceLoc is 1-based.
result::SourceLoc LocOf(const std::string& file, const YamlMark& mark);

/// Parses one YAML document into `*out` (which must be fresh). Returns false, with a LoadError,
/// when no tree could be built: a syntax or encoding error, an anchor or alias, nesting deeper
/// than kMaxYamlDepth, more than one document, text over json::kInputFileCap. Returns true with
/// a tree but appends errors for duplicate keys and keys that are not plain strings (reported at
/// the key), so a reader can go on and report more. An empty document is a null root.
bool ParseYaml(std::string_view text, const std::string& file, YamlTree* out,
               std::vector<LoadError>* errors);

/// Converts a node (and everything below it) to JSON. Appends an error for each scalar that
/// cannot be represented (int64 overflow, .inf/.nan, unsupported tags); returns true if none.
bool YamlToJson(const YamlNode& node, const std::string& file, rapidjson::Value* out,
                rapidjson::Document::AllocatorType& alloc, std::vector<LoadError>* errors);

/// Scalar typing without a document, for the loader's own keys. Sets `*error` and returns false
/// for an unrepresentable scalar. `node` must be a scalar, null or undefined.
bool ScalarToJson(const YamlNode& node, rapidjson::Value* out,
                  rapidjson::Document::AllocatorType& alloc, std::string* error);

/// The mark of what a JSON pointer (relative to `node`) designates in the YAML source: the key
/// itself when `at_key` is set, else the value. Falls back to the deepest node reached.
YamlMark MarkAt(const YamlNode& node, std::string_view pointer, bool at_key);

/// Answers "where in the file is the value at JSON pointer P" for a document converted by
/// ParseYamlToJson, so a reader working on the JSON can report file:line:col. Keeps the parsed
/// tree alive (shared); copyable.
class YamlLocator {
 public:
  /// The value at `pointer` ("" is the whole document), or its key when `at_key` is set and the
  /// pointer ends in a map member. A pointer that leads nowhere gives the deepest node reached.
  result::SourceLoc At(std::string_view pointer, bool at_key = false) const;

 private:
  friend bool ParseYamlToJson(std::string_view, const std::string&, rapidjson::Document*,
                              YamlLocator*, std::vector<LoadError>*);
  std::string file_;
  std::shared_ptr<const YamlTree> tree_;
};

/// The whole pipeline for a YAML input file other than a scenario (fakehost.yaml, a plugin's test
/// configuration): ParseYaml, then YamlToJson of the root into `*out`. Returns true only if
/// nothing was wrong; every problem is appended to `errors` with file:line:col. `where` may be
/// null; when given it is set (also on failure, as far as the tree was built).
bool ParseYamlToJson(std::string_view text, const std::string& file, rapidjson::Document* out,
                     YamlLocator* where, std::vector<LoadError>* errors);

/// Reads an input file (a scenario, a fragment, fakehost.yaml, a baseline) of at most
/// json::kInputFileCap bytes into `text`. False with one LoadError that names the file once
/// when it cannot be read, is not a regular file or is too large.
bool ReadInputFile(const std::string& path, std::string* text, std::vector<LoadError>* errors);

}  // namespace fakehost::scenario
