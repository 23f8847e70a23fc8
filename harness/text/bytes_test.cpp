#include "harness/text/bytes.hpp"

#include <gtest/gtest.h>

namespace fakehost::text {
namespace {

const std::string kAllBytes = [] {
  std::string s;
  for (int c = 0; c < 256; ++c) s += static_cast<char>(c);
  return s;
}();

TEST(Hex, WritesTwoLowercaseDigitsPerByteAndReadsThemBack) {
  EXPECT_EQ(Hex(std::string("\x00\x1f\xff", 3)), "001fff");
  EXPECT_EQ(Hex("AB", ' '), "41 42");
  std::string back;
  std::size_t bad = 0;
  ASSERT_TRUE(FromHex(Hex(kAllBytes, ' '), &back, &bad));
  EXPECT_EQ(back, kAllBytes);
  ASSERT_TRUE(FromHex("4A 4b\n", &back, &bad));
  EXPECT_EQ(back, "JK");
}

TEST(Hex, PointsAtTheCharacterThatIsNotAPairOfDigits) {
  std::string back;
  std::size_t bad = 0;
  EXPECT_FALSE(FromHex("41 4g", &back, &bad));
  EXPECT_EQ(bad, 4u);
  EXPECT_FALSE(FromHex("41 4", &back, &bad));
  EXPECT_EQ(bad, 4u);
  EXPECT_FALSE(FromHex("x1", &back, &bad));
  EXPECT_EQ(bad, 0u);
}

TEST(Base64, EncodesAsRfc4648AndDecodesWithOrWithoutPadding) {
  EXPECT_EQ(Base64(""), "");
  EXPECT_EQ(Base64("f"), "Zg==");
  EXPECT_EQ(Base64("fo"), "Zm8=");
  EXPECT_EQ(Base64("foobar"), "Zm9vYmFy");
  std::string back;
  for (std::size_t n = 0; n <= kAllBytes.size(); n += 37) {
    std::string bytes = kAllBytes.substr(0, n);
    ASSERT_TRUE(FromBase64(Base64(bytes), &back));
    EXPECT_EQ(back, bytes) << n;
  }
  ASSERT_TRUE(FromBase64("Zm8", &back));
  EXPECT_EQ(back, "fo");
}

TEST(Base64, RefusesACharacterOutsideTheAlphabet) {
  std::string back;
  EXPECT_FALSE(FromBase64("Zm9v!", &back));
  EXPECT_FALSE(FromBase64("Zg==Zg==", &back));
  EXPECT_FALSE(FromBase64("Zm 9v", &back));
}

}  // namespace
}  // namespace fakehost::text
