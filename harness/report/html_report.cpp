// The HTML report: one file that opens from disk. The results are embedded in a
// <script type="application/json"> element as the JSON report itself, key for key (with every
// scenario's transcript, where report.json keeps those of fail, warn, error, xfail and stale),
// and drawn by an inline script with createElement and textContent only, so plugin text is never
// parsed as HTML.
#include "harness/report/html_assets.hpp"
#include "harness/report/reporter.hpp"
#include "harness/report/text.hpp"

namespace fakehost::report {
namespace {

class HtmlReporter : public Reporter {
 public:
  explicit HtmlReporter(std::string path) : path_(std::move(path)) {}
  bool RunEnded(const result::RunReport& report, std::string* error) override {
    return WriteFileAtomically(path_, HtmlReport(report), error);
  }

 private:
  std::string path_;
};

}  // namespace

std::string ScriptSafeJson(std::string_view json) {
  std::string out;
  out.reserve(json.size() + json.size() / 16);
  // '<' only ever occurs inside JSON strings, where \u003c means the same character; without it
  // no "</script" or "<!--" can end or change the script element.
  for (char c : json) {
    if (c == '<')
      out += "\\u003c";
    else
      out += c;
  }
  return out;
}

std::string HtmlReport(const result::RunReport& report) {
  std::string out;
  std::string data = ScriptSafeJson(JsonReport(report, Transcripts::kAll));
  out.reserve(data.size() + 32 * 1024);
  out +=
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      // Opens from disk and fetches nothing: every resource is inline.
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
      "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      "<title>fakehost report</title>\n<style>\n";
  out += HtmlStyle();
  out +=
      "</style>\n</head>\n<body>\n<div id=\"app\"><noscript>This report is drawn by JavaScript; "
      "the same results are in report.json.</noscript></div>\n"
      "<script type=\"application/json\" id=\"fakehost-data\">";
  out += data;
  out += "</script>\n<script>\n";
  out += HtmlScript();
  out += "</script>\n</body>\n</html>\n";
  return out;
}

std::unique_ptr<Reporter> MakeHtmlReporter(std::string path) {
  return std::make_unique<HtmlReporter>(std::move(path));
}

}  // namespace fakehost::report
