#include "harness/text/template.hpp"

#include <map>

#include <gtest/gtest.h>

namespace fakehost::text {
namespace {

const std::map<std::string, std::string, std::less<>> kValues = {
    {"name", "bob"}, {"plugin.id", "dev.x"}, {"/plugin_id", "p"}, {"", "EMPTY"}, {"brace", "${x}"}};

std::optional<std::string> Known(std::string_view name) {
  auto it = kValues.find(name);
  if (it == kValues.end()) return std::nullopt;
  return it->second;
}

// The filled text, or "ERROR: " and the error.
std::string Filled(std::string_view text, const Lookup& lookup = Known) {
  std::string out, error;
  if (!Fill(text, lookup, &out, &error)) return "ERROR: " + error;
  return out;
}

TEST(Fill, ReplacesEveryPlaceholderByItsValue) {
  EXPECT_EQ(Filled("hello ${name}!"), "hello bob!");
  EXPECT_EQ(Filled("${name}${name}"), "bobbob");
  EXPECT_EQ(Filled("${plugin.id} and ${/plugin_id}"), "dev.x and p");
  EXPECT_EQ(Filled("${}"), "EMPTY");
}

TEST(Fill, LeavesTextWithoutPlaceholdersAsItIs) {
  EXPECT_EQ(Filled(""), "");
  EXPECT_EQ(Filled("costs $5 {name} $ {x}"), "costs $5 {name} $ {x}");
  EXPECT_EQ(Filled("ends with $"), "ends with $");
}

TEST(Fill, TakesDollarDollarBraceForALiteralDollarBrace) {
  EXPECT_EQ(Filled("$${name}"), "${name}");
  EXPECT_EQ(Filled("a $${b} ${name}"), "a ${b} bob");
  EXPECT_EQ(Filled("$${"), "${");  // the escape needs no closing brace
}

TEST(Fill, NeverScansAValueForPlaceholders) { EXPECT_EQ(Filled("[${brace}]"), "[${x}]"); }

TEST(Fill, RefusesAnUnterminatedPlaceholder) {
  EXPECT_EQ(Filled("frame ${name"), "ERROR: unterminated '${' in \"frame ${name\"");
  EXPECT_EQ(Filled("${name} then ${"), "ERROR: unterminated '${' in \"${name} then ${\"");
}

TEST(Fill, RefusesANameTheLookupDoesNotKnow) {
  EXPECT_EQ(Filled("hi ${nmae}"), "ERROR: unknown placeholder ${nmae}");
  EXPECT_EQ(Filled("${name}", nullptr), "ERROR: unknown placeholder ${name}");
}

TEST(Fill, PassesUnknownNamesThroughWhenTheLookupPutsThemBack) {
  auto keep = [](std::string_view name) -> std::optional<std::string> {
    if (name == "name") return "bob";
    return Placeholder(name);
  };
  EXPECT_EQ(Filled("${name}: ${other} and ${}", keep), "bob: ${other} and ${}");
}

TEST(Split, ReturnsLiteralsAndNamesInOrder) {
  std::vector<Piece> pieces;
  std::string error;
  ASSERT_TRUE(Split("a ${b.c} $${d} ${}", &pieces, &error)) << error;
  ASSERT_EQ(pieces.size(), 6u);
  EXPECT_EQ(pieces[0].text, "a ");
  EXPECT_FALSE(pieces[0].placeholder);
  EXPECT_EQ(pieces[1].text, "b.c");
  EXPECT_TRUE(pieces[1].placeholder);
  EXPECT_EQ(pieces[2].text, " ");
  EXPECT_EQ(pieces[3].text, "${");
  EXPECT_FALSE(pieces[3].placeholder);
  EXPECT_EQ(pieces[4].text, "d} ");
  EXPECT_FALSE(pieces[4].placeholder);
  EXPECT_EQ(pieces[5].text, "");
  EXPECT_TRUE(pieces[5].placeholder);
}

TEST(HasPlaceholders, SeesAPlaceholderOrTheEscape) {
  EXPECT_TRUE(HasPlaceholders("x ${a}"));
  EXPECT_TRUE(HasPlaceholders("$${"));
  EXPECT_FALSE(HasPlaceholders("{a} $a $"));
}

}  // namespace
}  // namespace fakehost::text
