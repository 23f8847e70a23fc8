// The session's names that the JSON report writes (entry kinds, failure reasons) against the
// enums schema/report.schema.json promises for them.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "harness/json/json.hpp"
#include "harness/protocol/profile.hpp"
#include "harness/session/reason.hpp"
#include "harness/session/session.hpp"
#include "harness/session/transcript.hpp"

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

// The kind's names are the ones schema/report.schema.json promises, each on its own kind, and a
// classified message keeps the name the profile gives it.
TEST(EntryKind, NamesEveryKindAsTheReportSchemaDoesAndParsesItBack) {
  rapidjson::Document schema = ReportSchema();
  const rapidjson::Value* names = json::Resolve(schema, "/$defs/entry/properties/kind/enum");
  ASSERT_TRUE(names && names->IsArray());
  ASSERT_EQ(names->Size(), static_cast<rapidjson::SizeType>(EntryKind::kTally) + 1);
  for (rapidjson::SizeType i = 0; i < names->Size(); ++i) {
    auto kind = static_cast<EntryKind>(i);
    EXPECT_STREQ(EntryKindName(kind), (*names)[i].GetString());
    EntryKind back = EntryKind::kTally;
    ASSERT_TRUE(ParseEntryKind(EntryKindName(kind), &back));
    EXPECT_EQ(back, kind);
  }
  EntryKind unknown;
  EXPECT_FALSE(ParseEntryKind("frame", &unknown));
  for (auto m : {protocol::MessageKind::kRequest, protocol::MessageKind::kNotification,
                 protocol::MessageKind::kResponse, protocol::MessageKind::kInvalid}) {
    EXPECT_STREQ(EntryKindName(EntryKindOf(m)), protocol::MessageKindName(m));
    EXPECT_TRUE(IsMessage(EntryKindOf(m)));
  }
  EXPECT_FALSE(IsMessage(EntryKind::kNotJson));
  EXPECT_FALSE(IsMessage(EntryKind::kTally));
}

// A failure's reason is named as schema/report.schema.json promises, each name on its reason.
TEST(Reason, NamesEveryReasonAsTheReportSchemaDoesAndParsesItBack) {
  rapidjson::Document schema = ReportSchema();
  const rapidjson::Value* names = json::Resolve(schema, "/$defs/failure/properties/reason/enum");
  ASSERT_TRUE(names && names->IsArray());
  ASSERT_EQ(names->Size(), static_cast<rapidjson::SizeType>(Reason::kHarnessFault) + 1);
  for (rapidjson::SizeType i = 0; i < names->Size(); ++i) {
    auto reason = static_cast<Reason>(i);
    EXPECT_STREQ(ReasonName(reason), (*names)[i].GetString());
    Reason back = Reason::kHarnessFault;
    ASSERT_TRUE(ParseReason(ReasonName(reason), &back));
    EXPECT_EQ(back, reason);
  }
  Reason unknown = Reason::kCheckFired;
  EXPECT_FALSE(ParseReason("timeout", &unknown));
  EXPECT_EQ(unknown, Reason::kCheckFired);
}

}  // namespace
}  // namespace fakehost::session
