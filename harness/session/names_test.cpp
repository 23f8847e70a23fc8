// The session's names that the JSON report writes (entry kinds, failure reasons) against the
// enums schema/report.schema.json promises for them.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <string_view>

#include "harness/json/json.hpp"
#include "harness/protocol/profile.hpp"
#include "harness/result/reason.hpp"
#include "harness/result/transcript.hpp"
#include "harness/session/session.hpp"

namespace fakehost::session {
namespace {

rapidjson::Document ReportSchema() {
  rapidjson::Document schema;
  std::ifstream in(std::string(FAKEHOST_SOURCE_DIR) + "/schema/report.schema.json");
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_TRUE(json::Parse(text.str(), &schema).ok);
  return schema;
}

// Every value of E up to `last` is named as the report schema's enum at `pointer` lists it, in
// the enum's order, and its name parses back to it.
template <class E>
void ExpectNamedAsTheReportSchema(const char* pointer, E last, const char* (*name)(E),
                                  bool (*parse)(std::string_view, E*)) {
  rapidjson::Document schema = ReportSchema();
  const rapidjson::Value* names = json::Resolve(schema, pointer);
  ASSERT_TRUE(names && names->IsArray());
  ASSERT_EQ(names->Size(), static_cast<rapidjson::SizeType>(last) + 1);
  for (rapidjson::SizeType i = 0; i < names->Size(); ++i) {
    auto value = static_cast<E>(i);
    EXPECT_STREQ(name(value), (*names)[i].GetString());
    E back = last;
    ASSERT_TRUE(parse(name(value), &back));
    EXPECT_EQ(back, value);
  }
}

// The kind's names are the ones schema/report.schema.json promises, each on its own kind, and a
// classified message keeps the name the profile gives it.
TEST(EntryKind, NamesEveryKindAsTheReportSchemaDoesAndParsesItBack) {
  ExpectNamedAsTheReportSchema("/$defs/entry/properties/kind/enum", result::EntryKind::kTally,
                               &result::EntryKindName, &result::ParseEntryKind);
  result::EntryKind unknown;
  EXPECT_FALSE(result::ParseEntryKind("frame", &unknown));
  for (auto m : {protocol::MessageKind::kRequest, protocol::MessageKind::kNotification,
                 protocol::MessageKind::kResponse, protocol::MessageKind::kInvalid}) {
    EXPECT_STREQ(result::EntryKindName(EntryKindOf(m)), protocol::MessageKindName(m));
    EXPECT_TRUE(result::IsMessage(EntryKindOf(m)));
  }
  EXPECT_FALSE(result::IsMessage(result::EntryKind::kNotJson));
  EXPECT_FALSE(result::IsMessage(result::EntryKind::kTally));
}

// A failure's reason is named as schema/report.schema.json promises, each name on its reason.
TEST(Reason, NamesEveryReasonAsTheReportSchemaDoesAndParsesItBack) {
  ExpectNamedAsTheReportSchema("/$defs/failure/properties/reason/enum",
                               result::Reason::kHarnessFault, &result::ReasonName,
                               &result::ParseReason);
  result::Reason unknown = result::Reason::kCheckFired;
  EXPECT_FALSE(result::ParseReason("timeout", &unknown));
  EXPECT_EQ(unknown, result::Reason::kCheckFired);
}

}  // namespace
}  // namespace fakehost::session
