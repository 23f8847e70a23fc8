// A small XML writer for the JUnit report: elements are scopes, so no tag can be left open, and
// every attribute value and text node goes through XmlText, so nothing a plugin sends can break
// the document.
//
// Usage: { auto suite = w.Open("testsuite"); w.Attr("name", n); { auto c = w.Open("testcase"); } }
// Attributes must be written before the element's first child or text. The writer indents child
// elements; an element holding text is written on one line with the text as it is (the text's
// own newlines are kept).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace fakehost::report {

/// `text` as XML 1.0 character data: valid UTF-8, '&' '<' '>' '"' escaped, and every character
/// XML 1.0 does not allow (C0 controls but tab, LF and CR; U+FFFE, U+FFFF) shown as "\xNN" /
/// U+FFFD. With `attribute`, tab, LF and CR become character references so parsers keep them.
std::string XmlText(std::string_view text, bool attribute);

class XmlWriter {
 public:
  /// Closes its element when it goes out of scope.
  class Scope {
   public:
    explicit Scope(XmlWriter* w) : w_(w) {}
    Scope(Scope&& other) noexcept : w_(other.w_) { other.w_ = nullptr; }
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;
    Scope& operator=(Scope&&) = delete;
    ~Scope() {
      if (w_) w_->Close();
    }

   private:
    XmlWriter* w_;
  };

  XmlWriter();
  /// `name` is ours (never plugin text) and is written as it is.
  [[nodiscard]] Scope Open(std::string_view name);
  void Attr(std::string_view name, std::string_view value);
  void Text(std::string_view text);
  /// The document; every element must have been closed.
  const std::string& str() const { return out_; }

 private:
  void Close();
  void EndStartTag();

  struct Open_ {
    std::string name;
    bool has_children = false;
    bool has_text = false;
  };
  std::string out_;
  std::vector<Open_> stack_;
  bool start_tag_open_ = false;
};

}  // namespace fakehost::report
