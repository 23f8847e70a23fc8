// Internal to the schema diff (diff.cpp): one position of a frame's schema with $ref and allOf
// folded in, so that two versions can be compared keyword by keyword.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "harness/json/rapidjson.hpp"

namespace fakehost::schema::flat {

constexpr int kMaxDepth = 48;  // deeper than any real frame; stops a recursive schema

struct Src {
  const rapidjson::Value* node;
  std::string at;  ///< its pointer in the schema document
};

struct Bound {
  double value;
  std::string at;
};

struct Cond {
  std::string test;  ///< the compact "if"
  std::vector<Src> then_srcs, else_srcs;
  std::string at;
};

/// The keywords that decide what is accepted at one position, each with the pointer of the node
/// that says it. Keywords from several nodes combine as allOf does (types and enums intersect,
/// the strictest bound wins); annotations (x-*, $comment, examples, ...) are left out.
struct Flat {
  std::optional<std::set<std::string>> types;
  std::string types_at;
  std::map<std::string, std::vector<Src>> props;
  std::map<std::string, std::string> prop_at, required;  // name -> pointer
  bool closed = false;
  std::string closed_at;
  std::optional<std::set<std::string>> enums;
  std::string enum_at;
  std::optional<std::string> constant;
  std::string const_at;
  std::map<std::string, Bound> lower, upper;
  std::map<std::string, std::pair<std::string, std::string>> opaque;  // keyword -> (json, at)
  std::vector<Src> items;   // "items" as one schema: every array element ("*")
  std::vector<Src> values;  // additional/patternProperties schemas: every map value ("*")
  std::vector<Cond> conds;
};

/// Folds `srcs` (schema nodes of the document `root`) into `f`, following $ref and allOf.
void CollectAll(const rapidjson::Value& root, const std::vector<Src>& srcs, Flat* f);

}  // namespace fakehost::schema::flat
