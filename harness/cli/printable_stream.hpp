// fakehost's standard error, made safe line by line. Errors quote their input (a scenario's
// YAML, a shard report, a transcript, a plugin's manifest or reply), and the error stream goes to
// the terminal and the CI job log: every line written through a PrintableStream is passed through
// text::Printable whole, so no quoted byte can start a workflow command or an escape sequence,
// whichever command printed it. Nothing fakehost writes to standard error is meant to act.
#pragma once

#include <ostream>
#include <streambuf>
#include <string>

namespace fakehost::cli {

class PrintableStream : public std::ostream {
 public:
  explicit PrintableStream(std::ostream& target);
  ~PrintableStream() override;

 private:
  // Holds a line until its '\n' (a line cut by a flush would hide a "::" at its start from the
  // next part), then writes it made printable.
  class Buffer : public std::streambuf {
   public:
    explicit Buffer(std::ostream& target) : target_(target) {}
    void Finish();

   protected:
    int_type overflow(int_type c) override;
    std::streamsize xsputn(const char* s, std::streamsize n) override;
    int sync() override;

   private:
    std::ostream& target_;
    std::string line_;
  };
  Buffer buffer_;
};

}  // namespace fakehost::cli
