// How long writing each report format takes, and how big it is, for a run of 200 scenarios with
// full transcripts; and how long headless Chromium needs to load and draw the HTML report.
// Usage: report_bench [scenarios=200] [frames=30]
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <sstream>
#include <string>

#include "harness/report/reporter.hpp"
#include "harness/report/synthetic_run.hpp"

namespace {

using Clock = std::chrono::steady_clock;
namespace report = fakehost::report;

double Millis(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

// Best of `n` runs: the least disturbed by the other jobs on the machine.
double BestOf(int n, const std::function<std::size_t()>& f, std::size_t* size) {
  double best = 1e300;
  for (int i = 0; i < n; ++i) {
    auto t0 = Clock::now();
    *size = f();
    best = std::min(best, Millis(t0, Clock::now()));
  }
  return best;
}

std::string Chromium() {
  for (const char* p : {"/usr/bin/chromium", "/usr/bin/chromium-browser"})
    if (std::filesystem::exists(p)) return p;
  return "";
}

// Loads `file` in headless Chromium; the wall time, and the script's own drawing time read back
// from the dumped DOM (data-render-ms on <body>).
bool Load(const std::string& chromium, const std::string& file, const std::string& profile,
          double* wall_ms, std::string* render_ms) {
  std::string cmd = "timeout 120 " + chromium +
                    " --headless --no-sandbox --disable-gpu --disable-background-networking "
                    "--disable-component-update --disable-sync --no-first-run --user-data-dir=" +
                    profile + " --dump-dom file://" + file + " 2>/dev/null";
  auto t0 = Clock::now();
  FILE* pipe = popen(cmd.c_str(), "r");
  if (!pipe) return false;
  std::string dom;
  char buf[65536];
  for (std::size_t n; (n = fread(buf, 1, sizeof buf, pipe)) > 0;) dom.append(buf, n);
  int rc = pclose(pipe);
  *wall_ms = Millis(t0, Clock::now());
  auto at = dom.find("data-render-ms=\"");
  if (at != std::string::npos) *render_ms = dom.substr(at + 16, dom.find('"', at + 16) - at - 16);
  return rc == 0 && at != std::string::npos;
}

// Each format written five times, its best time and its size printed; returns the HTML report.
std::string TimeFormats(const fakehost::result::RunReport& run) {
  std::printf("%-12s %10s %12s\n", "format", "ms (best)", "bytes");
  std::size_t size = 0;
  std::string html;
  struct Row {
    const char* name;
    std::function<std::size_t()> f;
  } rows[] = {
      {"json", [&] { return report::JsonReport(run).size(); }},
      {"junit", [&] { return report::JUnitReport(run).size(); }},
      {"markdown", [&] { return report::MarkdownReport(run).size(); }},
      {"html",
       [&] {
         html = report::HtmlReport(run);
         return html.size();
       }},
      {"transcripts",
       [&] {
         std::size_t n = 0;
         for (const auto& s : run.scenarios) n += report::TranscriptLines(s).size();
         return n;
       }},
  };
  for (auto& row : rows) {
    double ms = BestOf(5, row.f, &size);
    std::printf("%-12s %10.2f %12zu\n", row.name, ms, size);
  }
  return html;
}

// `file` loaded three times, each with a fresh profile under `dir`; prints the best.
void TimeLoad(const std::string& chromium, const char* name, const std::string& file,
              const std::filesystem::path& dir) {
  double best = 1e300;
  std::string render;
  for (int i = 0; i < 3; ++i) {
    double wall = 0;
    std::string r;
    if (!Load(chromium, file, (dir / ("profile" + std::to_string(i))).string(), &wall, &r)) {
      std::printf("chromium: loading %s failed\n", file.c_str());
      break;
    }
    if (wall < best) best = wall, render = r;
  }
  std::printf("chromium %-10s load+dump %8.0f ms (best of 3), script drew it in %s ms\n", name,
              best, render.c_str());
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t scenarios = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 200;
  std::size_t frames = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 30;
  auto run = report::SyntheticRun(scenarios, frames);
  std::printf("%zu scenarios x %zu frames (%d failed, %d warned, %d errored)\n", scenarios, frames,
              run.summary.failed, run.summary.warned, run.summary.errored);
  std::string html = TimeFormats(run);

  std::string chromium = Chromium();
  if (chromium.empty()) {
    std::printf("chromium: not installed (ci/setup chromium), no load time\n");
    return 0;
  }
  auto dir = std::filesystem::temp_directory_path() / ("report_bench." + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  std::string big = (dir / "report.html").string();
  std::string tiny = (dir / "tiny.html").string();
  std::ofstream(big) << html;
  std::ofstream(tiny) << report::HtmlReport(report::SyntheticRun(1, 2));
  TimeLoad(chromium, "1 scenario", tiny, dir);
  TimeLoad(chromium, "full run", big, dir);
  std::filesystem::remove_all(dir);
  return 0;
}
