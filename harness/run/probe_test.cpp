// The revision probe's reading of an answer: a result's list, a listed error's, nothing else.
#include "harness/run/probe.hpp"

#include <gtest/gtest.h>

#include "harness/json/json.hpp"

namespace fakehost::run {
namespace {

std::vector<std::string> Listed(const std::string& answer, bool* had = nullptr) {
  protocol::RevisionProbe probe;
  probe.listed = "/result/supportedVersions";
  probe.error_listed = "/error/data/supported";
  probe.error_codes = {-32022};
  rapidjson::Document d;
  EXPECT_TRUE(json::Parse(answer, &d).ok);
  std::vector<std::string> out;
  bool ok = ListedRevisions(probe, d, &out);
  if (had) *had = ok;
  return out;
}

TEST(ListedRevisions, AResultListsItsVersionsAndAListedErrorItsSupportedOnes) {
  bool had = false;
  EXPECT_EQ(Listed(R"({"id":1,"result":{"supportedVersions":["2026-07-28","2025-11-25"]}})", &had),
            (std::vector<std::string>{"2026-07-28", "2025-11-25"}));
  EXPECT_TRUE(had);
  EXPECT_EQ(
      Listed(R"({"id":1,"error":{"code":-32022,"message":"m","data":{"supported":["x"]}}})", &had),
      std::vector<std::string>{"x"});
  EXPECT_TRUE(had);
}

TEST(ListedRevisions, AnyOtherAnswerListsNothing) {
  bool had = true;
  EXPECT_TRUE(
      Listed(R"({"id":1,"error":{"code":-32601,"message":"no such method"}})", &had).empty());
  EXPECT_FALSE(had) << "a legacy server's unknown-method error";
  EXPECT_TRUE(
      Listed(R"({"id":1,"error":{"code":-32602,"message":"m","data":{"supported":["x"]}}})", &had)
          .empty());
  EXPECT_FALSE(had) << "the list of an error the probe does not recognise";
  EXPECT_TRUE(Listed(R"({"id":1,"result":{"supportedVersions":"2026-07-28"}})", &had).empty());
  EXPECT_FALSE(had);
  // Items that are not revision names are left out, a list answered all the same.
  EXPECT_EQ(Listed(R"({"id":1,"result":{"supportedVersions":[7,"a",null]}})", &had),
            std::vector<std::string>{"a"});
  EXPECT_TRUE(had);
}

}  // namespace
}  // namespace fakehost::run
