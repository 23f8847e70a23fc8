#include "harness/cli/printable_stream.hpp"

#include "harness/text/printable.hpp"

namespace fakehost::cli {

PrintableStream::PrintableStream(std::ostream& target) : std::ostream(nullptr), buffer_(target) {
  rdbuf(&buffer_);
}

PrintableStream::~PrintableStream() { buffer_.Finish(); }

void PrintableStream::Buffer::Finish() {
  if (!line_.empty()) target_ << text::Printable(line_) << "\n";
  line_.clear();
  target_.flush();
}

PrintableStream::Buffer::int_type PrintableStream::Buffer::overflow(int_type c) {
  if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
  char ch = traits_type::to_char_type(c);
  if (ch == '\n') {
    target_ << text::Printable(line_) << '\n';
    line_.clear();
  } else {
    line_ += ch;
  }
  return c;
}

std::streamsize PrintableStream::Buffer::xsputn(const char* s, std::streamsize n) {
  for (std::streamsize i = 0; i < n; ++i) overflow(traits_type::to_int_type(s[i]));
  return n;
}

int PrintableStream::Buffer::sync() {
  target_.flush();
  return target_ ? 0 : -1;
}

}  // namespace fakehost::cli
