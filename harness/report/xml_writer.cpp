#include "harness/report/xml_writer.hpp"

#include <cstdio>

#include "harness/report/text.hpp"

namespace fakehost::report {

std::string XmlText(std::string_view text, bool attribute) {
  std::string valid = ValidUtf8(text);
  std::string out;
  out.reserve(valid.size() + valid.size() / 8);
  for (std::size_t i = 0; i < valid.size(); ++i) {
    char c = valid[i];
    auto u = static_cast<unsigned char>(c);
    switch (c) {
      case '&':
        out += "&amp;";
        continue;
      case '<':
        out += "&lt;";
        continue;
      case '>':
        out += "&gt;";  // so "]]>" can never appear, even in text
        continue;
      case '"':
        out += "&quot;";
        continue;
      case '\t':
        out += attribute ? "&#9;" : "\t";
        continue;
      case '\n':
        out += attribute ? "&#10;" : "\n";
        continue;
      case '\r':
        // A raw CR in text is normalised away by every parser; keep it visible.
        out += "&#13;";
        continue;
      default:
        break;
    }
    if (u < 0x20 || u == 0x7F) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", u);
      out += buf;
    } else if (u == 0xEF && i + 2 < valid.size() &&
               static_cast<unsigned char>(valid[i + 1]) == 0xBF &&
               (static_cast<unsigned char>(valid[i + 2]) == 0xBE ||
                static_cast<unsigned char>(valid[i + 2]) == 0xBF)) {
      out += "\xEF\xBF\xBD";  // U+FFFE / U+FFFF are not XML characters
      i += 2;
    } else {
      out += c;
    }
  }
  return out;
}

XmlWriter::XmlWriter() { out_ = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"; }

XmlWriter::Scope XmlWriter::Open(std::string_view name) {
  if (!stack_.empty()) {
    EndStartTag();
    stack_.back().has_children = true;
    if (!stack_.back().has_text) out_ += '\n';
  }
  if (stack_.empty() || !stack_.back().has_text) out_.append(2 * stack_.size(), ' ');
  out_ += '<';
  out_ += name;
  stack_.push_back({std::string(name)});
  start_tag_open_ = true;
  return Scope(this);
}

void XmlWriter::Attr(std::string_view name, std::string_view value) {
  if (!start_tag_open_) return;  // a programming error; never produce a broken document
  out_ += ' ';
  out_ += name;
  out_ += "=\"";
  out_ += XmlText(value, true);
  out_ += '"';
}

void XmlWriter::Text(std::string_view text) {
  if (stack_.empty() || text.empty()) return;
  EndStartTag();
  stack_.back().has_text = true;
  out_ += XmlText(text, false);
}

void XmlWriter::EndStartTag() {
  if (!start_tag_open_) return;
  out_ += '>';
  start_tag_open_ = false;
}

void XmlWriter::Close() {
  Open_ top = std::move(stack_.back());
  stack_.pop_back();
  if (start_tag_open_) {
    out_ += "/>";
    start_tag_open_ = false;
  } else {
    if (top.has_children && !top.has_text) {
      out_ += '\n';
      out_.append(2 * stack_.size(), ' ');
    }
    out_ += "</";
    out_ += top.name;
    out_ += '>';
  }
  if (stack_.empty()) out_ += '\n';
}

}  // namespace fakehost::report
