// The expansion cap (issue 20, item 4): variables cannot make fakehost build more than
// kMaxExpansionBytes, or nest deeper than kMaxExpansionDepth, for one value. The loader refuses
// a scenario that would, at the value's file:line:col; Substitute stops at the cap for what is
// only known when the scenario plays (a capture).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "harness/scenario/loader.hpp"
#include "harness/scenario/template.hpp"

namespace fakehost::scenario {
namespace {

std::string Errors(const std::string& yaml) {
  Scenario scenario;
  std::vector<LoadError> errors;
  EXPECT_FALSE(LoadScenarioText(yaml, "big.yaml", "big", {}, &scenario, &errors));
  std::string out;
  for (const LoadError& e : errors) out += e.ToString() + "\n";
  return out;
}

std::string Repeat(const std::string& piece, std::size_t times) {
  std::string out;
  out.reserve(piece.size() * times);
  for (std::size_t i = 0; i < times; ++i) out += piece;
  return out;
}

constexpr const char* kHead = "title: T\nspec: S\nrequirement: R\n";  // lines 1-3

// The issue's first case: a 1 MiB file whose 400 KiB variable is used 100,000 times in one
// string made 1.6 GB before std::bad_alloc.
TEST(ExpansionCap, AVariableSplicedAHundredThousandTimesIsRefusedWhereItIsUsed) {
  const std::string yaml = std::string(kHead) + "vars:\n  big: " + std::string(400 * 1024, 'x') +
                           "\nsteps:\n  - send: {method: m, params: {a: \"" +
                           Repeat("${big}", 100000) + "\"}}\n";
  const std::string errors = Errors(yaml);
  EXPECT_NE(errors.find("big.yaml:7:"), std::string::npos) << errors.substr(0, 400);
  EXPECT_NE(errors.find("variables expand this value past 16777216 bytes (the expansion cap)"),
            std::string::npos)
      << errors.substr(0, 400);
}

// The issue's second case: 60,000 copies of "${big}" in an array crashed with SIGSEGV.
TEST(ExpansionCap, AVariableCopiedSixtyThousandTimesInAnArrayIsRefused) {
  const std::string yaml = std::string(kHead) + "vars:\n  big: " + std::string(400 * 1024, 'x') +
                           "\nsteps:\n  - send: {method: m, params: [\"${big}\"" +
                           Repeat(",\"${big}\"", 59999) + "]}\n";  // under the 1 MiB file cap
  const std::string errors = Errors(yaml);
  EXPECT_NE(errors.find("big.yaml:"), std::string::npos) << errors.substr(0, 400);
  EXPECT_NE(errors.find("the expansion cap"), std::string::npos) << errors.substr(0, 400);
}

TEST(ExpansionCap, AScenarioJustUnderTheCapLoads) {
  // 40 copies of 400 KiB, 40 x 409,601 + 1 bytes as the cap counts them: under 16 MiB.
  const std::string yaml = std::string(kHead) + "vars:\n  big: " + std::string(400 * 1024, 'x') +
                           "\nsteps:\n  - send: {method: m, params: [" +
                           Repeat("\"${big}\", ", 39) + "\"${big}\"]}\n";
  Scenario scenario;
  std::vector<LoadError> errors;
  EXPECT_TRUE(LoadScenarioText(yaml, "big.yaml", "big", {}, &scenario, &errors))
      << (errors.empty() ? "" : errors[0].ToString());
}

class SubstituteCap : public ::testing::Test {
 protected:
  SubstituteCap() { vars_.Parse(R"({"s":"0123456789","deep":[[[[1]]]]})"); }
  bool Sub(const char* json, const ExpansionLimits& limits, std::string* error) {
    rapidjson::Document in, out;
    in.Parse(json);
    EXPECT_FALSE(in.HasParseError()) << json;
    auto lookup = [this](std::string_view p) -> const rapidjson::Value* {
      auto it =
          vars_.FindMember(rapidjson::Value(p.data(), static_cast<rapidjson::SizeType>(p.size())));
      return it == vars_.MemberEnd() ? nullptr : &it->value;
    };
    return Substitute(in, lookup, out.GetAllocator(), &out, error, limits);
  }
  rapidjson::Document vars_;
};

TEST_F(SubstituteCap, StopsAtTheByteCapAndSaysWhere) {
  std::string error;
  // {} 1, "a" name 1, the spliced string 10+10+1: 23 bytes.
  EXPECT_TRUE(Sub(R"({"a":"${s}${s}"})", {23, 8}, &error)) << error;
  EXPECT_FALSE(Sub(R"({"a":"${s}${s}"})", {22, 8}, &error));
  EXPECT_EQ(error, "variables expand this value past 22 bytes (the expansion cap) at /a");
  EXPECT_FALSE(Sub(R"({"x":["${s}","${s}","${s}"]})", {30, 8}, &error));
  EXPECT_EQ(error, "variables expand this value past 30 bytes (the expansion cap) at /x/2");
}

TEST_F(SubstituteCap, StopsAtTheDepthCap) {
  std::string error;
  EXPECT_TRUE(Sub(R"([["${deep}"]])", {1000, 6}, &error)) << error;
  EXPECT_FALSE(Sub(R"([["${deep}"]])", {1000, 5}, &error));
  EXPECT_EQ(error, "variables expand this value deeper than 5 levels (the expansion cap) at /0/0");
}

TEST_F(SubstituteCap, TheDefaultCapIsSixteenMebibytesAndADepthOf128) {
  EXPECT_EQ(ExpansionLimits{}.max_bytes, std::size_t{16} << 20);
  EXPECT_EQ(ExpansionLimits{}.max_depth, 128u);
}

}  // namespace
}  // namespace fakehost::scenario
