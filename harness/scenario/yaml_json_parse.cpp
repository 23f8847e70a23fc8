// ParseYaml: libyaml events -> YamlTree, refusing what the tree must not hold as it arrives.
#include <yaml.h>

#include <cstdio>
#include <set>

#include "harness/json/text_file.hpp"
#include "harness/scenario/yaml_json.hpp"

namespace fakehost::scenario {

// Builds a YamlTree from events. Holds the open collections (at most kMaxYamlDepth), so memory
// is the tree's plus a small stack; the tree is bounded by the text's size (no aliases).
class YamlTreeBuilder {
 public:
  YamlTreeBuilder(const std::string& file, YamlTree* tree, std::vector<LoadError>* errors)
      : file_(file), tree_(tree), errors_(errors) {}

  // Returns false on a fatal problem (already reported).
  bool Event(const yaml_event_t& event) {
    const YamlMark mark{event.start_mark.index, static_cast<int>(event.start_mark.line),
                        static_cast<int>(event.start_mark.column)};
    switch (event.type) {
      case YAML_DOCUMENT_START_EVENT:
        if (++documents_ > 1) return Fatal(mark, "a file holds one YAML document, not several");
        return true;
      case YAML_ALIAS_EVENT:
        return Fatal(mark, std::string("an alias (*") +
                               reinterpret_cast<const char*>(event.data.alias.anchor) + ")" +
                               kNoAnchors);
      case YAML_SCALAR_EVENT: {
        const auto& s = event.data.scalar;
        if (s.anchor != nullptr) return Anchor(mark, s.anchor);
        YamlNodeData* node = Add(mark);
        node->text.assign(reinterpret_cast<const char*>(s.value), s.length);
        const bool plain = s.style == YAML_PLAIN_SCALAR_STYLE;
        node->tag = s.tag != nullptr ? reinterpret_cast<const char*>(s.tag) : plain ? "?" : "!";
        const std::string& t = node->text;
        const bool null_text = t.empty() || t == "~" || t == "null" || t == "Null" || t == "NULL";
        node->kind =
            node->tag == "?" && null_text ? YamlNode::Kind::kNull : YamlNode::Kind::kScalar;
        return Placed(node);
      }
      case YAML_SEQUENCE_START_EVENT:
      case YAML_MAPPING_START_EVENT: {
        const bool map = event.type == YAML_MAPPING_START_EVENT;
        const yaml_char_t* anchor =
            map ? event.data.mapping_start.anchor : event.data.sequence_start.anchor;
        const yaml_char_t* tag = map ? event.data.mapping_start.tag : event.data.sequence_start.tag;
        if (anchor != nullptr) return Anchor(mark, anchor);
        if (open_.size() >= static_cast<std::size_t>(kMaxYamlDepth)) {
          return Fatal(mark, "nesting deeper than " + std::to_string(kMaxYamlDepth) + " levels");
        }
        YamlNodeData* node = Add(mark);
        node->kind = map ? YamlNode::Kind::kMap : YamlNode::Kind::kSequence;
        node->tag = tag != nullptr ? reinterpret_cast<const char*>(tag) : "?";
        if (!Placed(node)) return false;
        open_.push_back({node, {}});
        return true;
      }
      case YAML_SEQUENCE_END_EVENT:
      case YAML_MAPPING_END_EVENT:
        open_.pop_back();
        return true;
      default:  // stream start/end, document end
        return true;
    }
  }

  bool Fatal(const YamlMark& mark, std::string message) {
    errors_->push_back({LocOf(file_, mark), std::move(message)});
    return false;
  }

  // An empty stream has no root: it reads as a null document.
  void Finish() {
    if (!tree_->root_.IsDefined()) Add(YamlMark{0, 0, 0})->tag = "?";
  }

 private:
  static constexpr const char* kNoAnchors =
      " is not supported: anchors and aliases are refused in fakehost's YAML files (write the "
      "value out, or put shared steps in a fragment and `use:` it)";

  struct Open {
    YamlNodeData* node;
    std::set<std::string> keys;
  };

  bool Anchor(const YamlMark& mark, const yaml_char_t* name) {
    return Fatal(
        mark, std::string("an anchor (&") + reinterpret_cast<const char*>(name) + ")" + kNoAnchors);
  }

  YamlNodeData* Add(const YamlMark& mark) {
    YamlNodeData& node = tree_->nodes_.emplace_back();
    node.mark = mark;
    if (!tree_->root_.IsDefined()) tree_->root_ = YamlNode(&node);
    return &node;
  }

  // Links `node` under the innermost open collection, checking it if it is a key.
  bool Placed(YamlNodeData* node) {
    if (open_.empty()) return true;
    Open& parent = open_.back();
    const bool is_key =
        parent.node->kind == YamlNode::Kind::kMap && parent.node->children.size() % 2 == 0;
    parent.node->children.push_back(node);
    if (!is_key) return true;
    if (node->kind != YamlNode::Kind::kScalar) {
      errors_->push_back(
          {LocOf(file_, node->mark), "a key must be a plain string, not a list, map or null"});
    } else if (!parent.keys.insert(node->text).second) {
      errors_->push_back({LocOf(file_, node->mark), "duplicate key '" + node->text + "'"});
    }
    return true;
  }

  const std::string& file_;
  YamlTree* tree_;
  std::vector<LoadError>* errors_;
  std::vector<Open> open_;
  int documents_ = 0;
};

namespace {

// libyaml's own words, placed: reader errors (encoding) carry a byte offset, the others a mark.
LoadError ParserError(const yaml_parser_t& parser, std::string_view text, const std::string& file) {
  LoadError e;
  e.loc.file = file;
  const std::string problem = parser.problem != nullptr ? parser.problem : "unknown problem";
  if (parser.error == YAML_READER_ERROR) {
    const json::LineCol at = json::LocateOffset(text, parser.problem_offset);
    e.loc.line = at.line;
    e.loc.column = at.column;
    e.message = "the text is not valid UTF-8 YAML input: " + problem;
    if (parser.problem_value != -1) {
      char value[16];
      std::snprintf(value, sizeof value, " (byte 0x%02X)", parser.problem_value & 0xff);
      e.message += value;
    }
    return e;
  }
  if (parser.error == YAML_MEMORY_ERROR) {
    e.message = "out of memory while parsing YAML";
    return e;
  }
  const yaml_mark_t& m = parser.problem != nullptr ? parser.problem_mark : parser.context_mark;
  e.loc = LocOf(file, YamlMark{m.index, static_cast<int>(m.line), static_cast<int>(m.column)});
  e.message = "YAML syntax: " + problem;
  if (parser.context != nullptr) e.message += std::string(" (") + parser.context + ")";
  return e;
}

}  // namespace

bool ParseYaml(std::string_view text, const std::string& file, YamlTree* out,
               std::vector<LoadError>* errors) {
  if (text.size() > json::kInputFileCap) {
    LoadError e;
    e.loc.file = file;
    e.message = "larger than " + std::to_string(json::kInputFileCap) + " bytes";
    errors->push_back(std::move(e));
    return false;
  }
  yaml_parser_t parser;
  if (yaml_parser_initialize(&parser) == 0) {
    LoadError e;
    e.loc.file = file;
    e.message = "out of memory while parsing YAML";
    errors->push_back(std::move(e));
    return false;
  }
  yaml_parser_set_input_string(&parser, reinterpret_cast<const unsigned char*>(text.data()),
                               text.size());
  yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING);
  YamlTreeBuilder builder(file, out, errors);
  bool ok = true;
  for (bool done = false; ok && !done;) {
    yaml_event_t event;
    if (yaml_parser_parse(&parser, &event) == 0) {
      errors->push_back(ParserError(parser, text, file));
      ok = false;
      break;
    }
    done = event.type == YAML_STREAM_END_EVENT;
    ok = builder.Event(event);
    yaml_event_delete(&event);
  }
  yaml_parser_delete(&parser);
  if (ok) builder.Finish();
  return ok;
}

}  // namespace fakehost::scenario
