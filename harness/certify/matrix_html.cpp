// The matrix as one self-contained HTML page. Unlike the run report (drawn by script from
// embedded JSON), the table is plain HTML, so it reads without JavaScript; the script only sorts.
// Every piece of plugin or corpus text goes through XmlText; element ids are our own numbers.
#include "harness/certify/writers.hpp"
#include "harness/report/text.hpp"
#include "harness/report/xml_writer.hpp"

namespace fakehost::certify {
namespace {

using result::Status;

std::string E(std::string_view s) { return report::XmlText(s, true); }

// Sort key of a status: what needs attention first.
int Rank(Status s) {
  switch (s) {
    case Status::kError:
      return 0;
    case Status::kFail:
      return 1;
    case Status::kWarn:
      return 2;
    case Status::kUntested:
      return 3;
    case Status::kNotRun:
      return 4;
    case Status::kSkip:
      return 5;
    case Status::kPass:
      return 6;
    case Status::kXfail:  // certify takes no baseline; a matrix read back may still hold one
      return 2;
    case Status::kStale:
      return 1;
  }
  return 7;
}

constexpr std::string_view kStyle = R"(body{font:14px system-ui,sans-serif;margin:1.5em;color:#222}
table{border-collapse:collapse;font-size:12px}th,td{border:1px solid #ccc;padding:2px 6px}
th{background:#f2f2f2;cursor:pointer;position:sticky;top:0}th.sc{writing-mode:vertical-rl;
max-height:22em;white-space:nowrap}td{text-align:center}td.p{text-align:left;white-space:nowrap}
.pass{background:#d9f2d9}.warn{background:#fff1c2}.fail{background:#f8c9c9}.error{background:#e0b3ff}
.skip,.not-run,.untested{background:#eee;color:#666}.refused,.unrunnable{background:#f8c9c9}
a{color:inherit}dl{margin:.3em 0 1em 1em}dt{font-weight:600}code{white-space:pre-wrap}
.detail{border-top:1px solid #ddd;padding:.4em 0})";

constexpr std::string_view kScript = R"(document.querySelectorAll('#matrix thead th').forEach(
(th,i)=>th.addEventListener('click',()=>{const tb=document.querySelector('#matrix tbody');
const asc=th.dataset.dir!=='asc';th.dataset.dir=asc?'asc':'desc';const key=r=>{const c=r.cells[i];
return c.dataset.k!==undefined?c.dataset.k:c.textContent};[...tb.rows].sort((a,b)=>{const x=key(a),
y=key(b);return (x<y?-1:x>y?1:0)*(asc?1:-1)}).forEach(r=>tb.appendChild(r))}));)";

void Summary(std::string& out, const Matrix& m) {
  Totals t = Count(m);
  out += "<h1>fakehost certify: " + E(m.protocol) + "</h1>\n<p>" + std::to_string(t.plugins) +
         " plugins, " + std::to_string(t.passing) + " passing, " + std::to_string(t.failing) +
         " not passing; " + std::to_string(m.columns.size()) + " scenarios; suite " + E(m.suite) +
         "; started " + E(m.started_at) + "; " + E(report::Duration(m.duration_ms)) +
         (m.shard.empty() ? "" : "; shard " + E(m.shard)) + "</p>\n";
  if (!m.candidate.empty())
    out += "<p>Candidate schema " + E(m.candidate) + ": rejects real frames of " +
           std::to_string(t.rejected_by_candidate) +
           " plugins (<a href=\"#candidate\">list</a>)</p>\n";
}

void Table(std::string& out, const Matrix& m) {
  out += "<table id=\"matrix\">\n<thead><tr><th>plugin</th><th>verdict</th>";
  for (const Column& c : m.columns)
    out += "<th class=\"sc\" title=\"" + E(c.title) + "\">" + E(c.id) + "</th>";
  out += "</tr></thead>\n<tbody>\n";
  for (std::size_t r = 0; r < m.rows.size(); ++r) {
    const Row& row = m.rows[r];
    std::string rid = std::to_string(r);
    std::string verdict = VerdictName(row.verdict);
    out += "<tr><td class=\"p\" title=\"" + E(row.dir) + "\">" + E(row.key) +
           (row.version.empty() ? "" : " " + E(row.version)) + "</td><td class=\"" + verdict +
           "\" data-k=\"" + (IsFailing(row.verdict) ? "0" : "1") + verdict + "\">" +
           (row.detail.empty() ? verdict : "<a href=\"#p" + rid + "\">" + verdict + "</a>") +
           "</td>";
    for (std::size_t c = 0; c < m.columns.size(); ++c) {
      auto it = row.cells.find(m.columns[c].id);
      if (it == row.cells.end()) {
        out += "<td data-k=\"9\"></td>";
        continue;
      }
      std::string status = result::StatusName(it->second.status);
      std::string mark = it->second.status == Status::kPass ? "✓" : status;
      out += "<td class=\"" + status + "\" data-k=\"" + std::to_string(Rank(it->second.status)) +
             "\" title=\"" + E(it->second.cause) + "\">" +
             (it->second.status == Status::kPass
                  ? mark
                  : "<a href=\"#d" + rid + "-" + std::to_string(c) + "\">" + mark + "</a>") +
             "</td>";
    }
    out += "</tr>\n";
  }
  out += "</tbody>\n</table>\n";
}

void Details(std::string& out, const Matrix& m) {
  out += "<h2 id=\"details\">Failure details</h2>\n";
  for (std::size_t r = 0; r < m.rows.size(); ++r) {
    const Row& row = m.rows[r];
    std::string rid = std::to_string(r);
    if (!row.detail.empty())
      out += "<div class=\"detail\" id=\"p" + rid + "\"><b>" + E(row.key) +
             "</b>: " + VerdictName(row.verdict) + "<dl><dt>directory</dt><dd>" + E(row.dir) +
             "</dd><dt>why</dt><dd><code>" + E(row.detail) + "</code></dd></dl></div>\n";
    for (std::size_t c = 0; c < m.columns.size(); ++c) {
      const Column& col = m.columns[c];
      auto it = row.cells.find(col.id);
      if (it == row.cells.end() || it->second.status == Status::kPass) continue;
      const Cell& cell = it->second;
      out += "<div class=\"detail\" id=\"d" + rid + "-" + std::to_string(c) + "\"><b>" +
             E(row.key) + "</b> × <b>" + E(col.id) + "</b>: <span class=\"" +
             result::StatusName(cell.status) + "\">" + result::StatusName(cell.status) +
             "</span><dl>";
      if (!col.requirement.empty())
        out += "<dt>requirement</dt><dd>" + E(col.spec) + ": " + E(col.requirement) + "</dd>";
      out += "<dt>cause</dt><dd><code>" + E(cell.cause) + "</code></dd>";
      if (!cell.location.empty()) out += "<dt>where</dt><dd>" + E(cell.location) + "</dd>";
      out += "<dt>plugin directory</dt><dd>" + E(row.dir) + "</dd></dl></div>\n";
    }
  }
}

void Since(std::string& out, const Diff& d) {
  if (!d.computed) return;
  out += "<h2 id=\"since\">Since " + E(d.since) + "</h2>\n";
  auto changes = [&](const char* title, const std::vector<Change>& list) {
    out += "<h3>" + std::string(title) + " (" + std::to_string(list.size()) + ")</h3>\n<ul>\n";
    for (const Change& c : list)
      out += "<li>" + E(c.plugin) + (c.scenario.empty() ? " (verdict)" : " × " + E(c.scenario)) +
             ": " + E(c.before.empty() ? "absent" : c.before) + " → " + E(c.after) + "</li>\n";
    out += "</ul>\n";
  };
  auto names = [&](const char* title, const std::vector<std::string>& list) {
    if (list.empty()) return;
    out += "<h3>" + std::string(title) + "</h3>\n<ul>\n";
    for (const auto& s : list) out += "<li>" + E(s) + "</li>\n";
    out += "</ul>\n";
  };
  changes("Newly failing", d.newly_failing);
  changes("Newly passing", d.newly_passing);
  names("Plugins that appeared", d.plugins_appeared);
  names("Plugins that vanished", d.plugins_vanished);
  names("Scenarios that appeared", d.scenarios_appeared);
  names("Scenarios that vanished", d.scenarios_vanished);
}

void Candidate(std::string& out, const Matrix& m) {
  if (m.candidate.empty()) return;
  out +=
      "<h2 id=\"candidate\">Frames the candidate schema rejects</h2>\n<table>\n"
      "<tr><th>plugin</th><th>scenario</th><th>frame</th><th>direction</th><th>entry</th>"
      "<th>violations</th></tr>\n";
  for (const Row& row : m.rows) {
    for (const Rejection& x : row.rejections) {
      std::string v;
      for (const auto& [pointer, message] : x.violations)
        v +=
            "<code>" + E(pointer.empty() ? "(frame)" : pointer) + "</code>: " + E(message) + "<br>";
      out += "<tr><td class=\"p\">" + E(row.key) + "</td><td class=\"p\">" + E(x.scenario) +
             "</td><td>#" + std::to_string(x.frame) + "</td><td>" +
             (x.from_plugin ? "plugin → host" : "host → plugin") + "</td><td>" + E(x.def) +
             "</td><td class=\"p\">" + v + "</td></tr>\n";
    }
    if (row.frames_rejected > row.rejections.size())
      out += "<tr><td class=\"p\">" + E(row.key) + "</td><td colspan=\"5\">and " +
             std::to_string(row.frames_rejected - row.rejections.size()) +
             " more frames</td></tr>\n";
  }
  out += "</table>\n";
}

}  // namespace

std::string HtmlMatrix(const Matrix& m) {
  std::string out =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      // Opens from disk and fetches nothing: every resource is inline.
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
      "style-src 'unsafe-inline'; script-src 'unsafe-inline'\">\n"
      "<title>fakehost certify</title>\n<style>\n";
  out += kStyle;
  out += "\n</style>\n</head>\n<body>\n";
  Summary(out, m);
  Table(out, m);
  Since(out, m.diff);
  Candidate(out, m);
  Details(out, m);
  out += "<script>\n";
  out += kScript;
  out += "\n</script>\n</body>\n</html>\n";
  return out;
}

}  // namespace fakehost::certify
