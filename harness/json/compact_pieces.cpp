#include "harness/json/compact_pieces.hpp"

#include <algorithm>

namespace fakehost::json {
namespace {

// RapidJSON output streams: one counts what a writer writes, one appends it to a string.
struct CountingStream {
  using Ch = char;
  void Put(char) { ++size; }
  void Flush() {}
  std::size_t written() const { return size; }
  std::size_t size = 0;
};

struct AppendingStream {
  using Ch = char;
  void Put(char c) { out->push_back(c); }
  void Flush() {}
  std::size_t written() const { return out->size(); }
  std::string* out;
};

// What rapidjson::Writer (default flags) escapes: control characters, '"' and '\'.
bool WrittenAsItIs(std::string_view s) {
  return std::none_of(s.begin(), s.end(), [](char c) {
    return static_cast<unsigned char>(c) < 0x20 || c == '"' || c == '\\';
  });
}

// A SAX handler for Value::Accept: everything goes to the writer, but a long string that needs
// no escaping is written as "" and recorded to go between those quotes (when `shared` is set).
template <class Stream>
class SharingHandler {
 public:
  SharingHandler(Stream& stream, std::size_t shared_from,
                 std::vector<CompactPieces::Shared>* shared)
      : stream_(stream), writer_(stream), shared_from_(shared_from), shared_(shared) {}

  bool Null() { return writer_.Null(); }
  bool Bool(bool b) { return writer_.Bool(b); }
  bool Int(int i) { return writer_.Int(i); }
  bool Uint(unsigned u) { return writer_.Uint(u); }
  bool Int64(std::int64_t i) { return writer_.Int64(i); }
  bool Uint64(std::uint64_t u) { return writer_.Uint64(u); }
  bool Double(double d) { return writer_.Double(d); }
  bool RawNumber(const char* s, rapidjson::SizeType n, bool copy) {
    return writer_.RawNumber(s, n, copy);
  }
  bool String(const char* s, rapidjson::SizeType n, bool copy) {
    const std::string_view text(s, n);
    if (n < shared_from_ || !WrittenAsItIs(text)) return writer_.String(s, n, copy);
    if (!writer_.String("", 0)) return false;
    if (shared_) shared_->push_back({stream_.written() - 1, text});
    return true;
  }
  bool StartObject() { return writer_.StartObject(); }
  bool Key(const char* s, rapidjson::SizeType n, bool copy) { return writer_.Key(s, n, copy); }
  bool EndObject(rapidjson::SizeType n) { return writer_.EndObject(n); }
  bool StartArray() { return writer_.StartArray(); }
  bool EndArray(rapidjson::SizeType n) { return writer_.EndArray(n); }

 private:
  Stream& stream_;
  rapidjson::Writer<Stream> writer_;
  std::size_t shared_from_;
  std::vector<CompactPieces::Shared>* shared_;
};

}  // namespace

std::uint64_t CompactPieces::size() const {
  std::uint64_t n = text.size();
  for (const Shared& s : shared) n += s.bytes.size();
  return n;
}

std::string CompactPieces::Head(std::size_t n) const {
  std::string head;
  std::size_t from = 0;  // of `text`
  for (const Shared& s : shared) {
    if (head.size() >= n) break;
    head.append(text, from, std::min(s.at - from, n - head.size()));
    head.append(s.bytes.substr(0, n - head.size()));
    from = s.at;
  }
  if (head.size() < n) head.append(text, from, n - head.size());
  return head;
}

bool ToCompactPieces(const rapidjson::Value& value, std::size_t shared_from, std::size_t spare,
                     CompactPieces* out) {
  CountingStream counter;
  SharingHandler<CountingStream> measure(counter, shared_from, nullptr);
  if (!value.Accept(measure)) return false;
  out->text.clear();
  out->shared.clear();
  out->text.reserve(counter.size + spare);
  AppendingStream appending{&out->text};
  SharingHandler<AppendingStream> writer(appending, shared_from, &out->shared);
  return value.Accept(writer);
}

}  // namespace fakehost::json
