// What the host writes is the bytes its frames and raw steps say, however it holds them: a frame
// that shares its document's long strings, raw bytes written as views of one repeated chunk.
#include <gtest/gtest.h>

#include <string>

#include "harness/protocol/host_frame.hpp"
#include "harness/session/test_support/session_rig.hpp"

namespace fakehost::session {
namespace {

using testing::Json;
using testing::Rig;

rapidjson::Document PaddedPing(Rig& rig, std::size_t pad) {
  rapidjson::Document message = Json(R"({"method":"ping","params":{}})");
  auto& a = message.GetAllocator();
  message["params"].AddMember("pad", rapidjson::Value(std::string(pad, 'x').c_str(), a), a);
  message["params"].AddMember("note", "a \"quoted\" line\n", a);
  message.AddMember("id", rig.session().NextId("ping"), a);
  return message;
}

// A 200 KiB string is written from the document, between the text around it: the plugin reads
// exactly the frame Encode would have made, and the transcript keeps what it keeps of any.
TEST(SessionWrite, AFrameWithALongStringIsTheFrameItsTextMakes) {
  for (const char* protocol : {"flash-v1", "rim-v1", "mcp-stdio"}) {
    Rig rig(protocol);
    rapidjson::Document message = PaddedPing(rig, 200 * 1024);
    const rapidjson::Document frame =
        protocol::HostFrame(rig.profile(), Json(json::ToCompact(message)));
    const std::string text = json::ToCompact(frame);
    const std::size_t index = rig.session().Send(std::move(message), /*deliberately_invalid=*/true);
    const std::string expected = rig.profile().framing().Encode(text);
    ASSERT_TRUE(rig.Until([&] { return rig.child().stdin_bytes().size() >= expected.size(); }))
        << protocol;
    EXPECT_EQ(rig.child().stdin_bytes(), expected) << protocol;
    const result::TranscriptEntry& entry = rig.session().transcript().at(index);
    EXPECT_EQ(entry.size, text.size()) << protocol;
    EXPECT_TRUE(entry.clipped) << protocol;
    EXPECT_EQ(entry.text, text.substr(0, entry.text.size())) << protocol;
  }
}

// Raw bytes that repeat one chunk go out as the whole would, and are recorded as the whole is.
TEST(SessionWrite, RepeatedRawBytesAreWrittenAndRecordedAsTheWholeWouldBe) {
  const std::string chunk(4096, ' ');
  const std::uint64_t total = 200 * 1024 + 2048;  // the last piece is half a chunk
  Rig whole("flash-v1");
  Rig repeated("flash-v1");
  std::string body;
  while (body.size() < total) body += chunk;
  body.resize(total);
  const std::size_t a = whole.session().SendRawChunked(body, chunk.size(), Ms(0), "pieces");
  const std::size_t b = repeated.session().SendRawRepeated(chunk, total, Ms(0), "pieces");
  ASSERT_TRUE(whole.Until([&] { return whole.child().stdin_bytes().size() == total; }));
  ASSERT_TRUE(repeated.Until([&] { return repeated.child().stdin_bytes().size() == total; }));
  EXPECT_EQ(repeated.child().stdin_bytes(), body);
  const result::TranscriptEntry& x = whole.session().transcript().at(a);
  const result::TranscriptEntry& y = repeated.session().transcript().at(b);
  EXPECT_EQ(y.text, x.text);
  EXPECT_EQ(y.size, x.size);
  EXPECT_EQ(y.clipped, x.clipped);
  EXPECT_EQ(y.notes, x.notes);
}

}  // namespace
}  // namespace fakehost::session
