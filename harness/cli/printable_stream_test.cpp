#include "harness/cli/printable_stream.hpp"

#include <gtest/gtest.h>

#include <sstream>

namespace fakehost::cli {
namespace {

TEST(PrintableStream, NeutralisesEveryLineItIsGivenWhateverThePiecesItCameIn) {
  std::ostringstream target;
  {
    PrintableStream err(target);
    err << "fakehost: a.json: unknown status '"
        << "x\x1b]52;c;aGk=\x07"
        << "'\n";
    err << ":";  // a line's start, cut by a flush, still counts as its start
    err.flush();
    err << ":add-mask::secret\n"
        << "  ##[stop-commands]t\nfakehost: " << std::flush << "ok\rFAKE";
  }
  EXPECT_EQ(target.str(),
            "fakehost: a.json: unknown status 'x\\x1b]52;c;aGk=\\x07'\n"
            "\\x3a:add-mask::secret\n"
            "  ##\\x5bstop-commands]t\n"
            "fakehost: ok\\x0dFAKE\n");
}

}  // namespace
}  // namespace fakehost::cli
