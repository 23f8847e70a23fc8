// Memory under a hostile plugin: runs the fakehost binary on a flooding fixture and prints its
// peak RSS (from wait4's rusage, so the children the harness spawns are not counted) and the
// size of every report it wrote. A small program rather than a Google Benchmark: one run takes
// minutes and the figure is a peak, not a rate.
//
//   flood_bench [--fakehost PATH] [--fixtures DIR] [--case NAME]... [--keep DIR]
//
// Cases: rim-log-flood (the whole RIM suite against a plugin streaming 4 MiB rim.log frames,
// --jobs 2), rim-huge-ids (the whole RIM suite against a plugin answering under 4 MiB string
// ids, --jobs 2), flash-line-flood (the whole Flash suite against a plugin streaming 10 MiB
// lines, --jobs 2), rim-small-flood (the RIM handshake scenarios against the log flood in
// 100-byte frames). Default: all four. Pass main's binary to --fakehost to measure "before".
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

struct Case {
  std::string name, protocol, fixture;
  /// Run as a bare executable with this argument and these scenarios ("": the plugin directory,
  /// the whole suite).
  std::string argument = {}, only = {};
};

const Case kCases[] = {
    {"rim-log-flood", "rim-v1", "rim-v1/hostile/log-flood"},
    {"rim-huge-ids", "rim-v1", "rim-v1/hostile/huge-ids"},
    {"flash-line-flood", "flash-v1", "flash-v1/hostile/line-flood"},
    // 100-byte frames, hundreds a read, while every step waits for an answer that never comes:
    // what a waiting step has not read is held only up to Inbox::kUnreadHeld times the caps.
    {"rim-small-flood", "rim-v1", "rim-v1/hostile/log-flood/log-flood", "100", "handshake/*"},
};

// Runs argv, waits for it, returns its exit status and fills `usage`; -1 if it cannot start.
int Run(const std::vector<std::string>& argv, rusage* usage) {
  pid_t pid = ::fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    // The console output is not what is measured.
    std::FILE* null = std::fopen("/dev/null", "w");
    if (null) ::dup2(::fileno(null), STDOUT_FILENO);
    ::execv(args[0], args.data());
    ::_exit(127);
  }
  int status = 0;
  if (::wait4(pid, &status, 0, usage) < 0) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

std::uintmax_t TreeSize(const fs::path& p) {
  std::error_code ec;
  if (fs::is_regular_file(p, ec)) return fs::file_size(p, ec);
  std::uintmax_t total = 0;
  for (const auto& e : fs::recursive_directory_iterator(p, ec))
    if (e.is_regular_file(ec)) total += e.file_size(ec);
  return total;
}

std::uintmax_t LargestFile(const fs::path& p) {
  std::error_code ec;
  std::uintmax_t largest = 0;
  for (const auto& e : fs::recursive_directory_iterator(p, ec))
    if (e.is_regular_file(ec)) largest = std::max(largest, e.file_size(ec));
  return largest;
}

double MiB(std::uintmax_t bytes) { return static_cast<double>(bytes) / (1024.0 * 1024.0); }

int RunCase(const Case& c, const std::string& fakehost, const std::string& fixtures,
            const fs::path& out) {
  fs::remove_all(out);
  fs::create_directories(out);
  std::vector<std::string> argv = {fakehost,
                                   "run",
                                   "--protocol",
                                   c.protocol,
                                   "--suite",
                                   std::string(FAKEHOST_SOURCE_DIR) + "/scenarios/" + c.protocol,
                                   "--jobs",
                                   "2",
                                   "--no-color",
                                   "--out",
                                   (out / "json").string(),
                                   "--report",
                                   "junit=" + (out / "junit.xml").string(),
                                   "--report",
                                   "markdown=" + (out / "report.md").string(),
                                   "--report",
                                   "html=" + (out / "report.html").string(),
                                   "--transcripts",
                                   (out / "transcripts").string()};
  if (!c.only.empty()) argv.insert(argv.end(), {"--only", c.only});
  if (c.argument.empty())
    argv.insert(argv.end(), {"--plugin", fixtures + "/" + c.fixture});
  else
    argv.insert(argv.end(), {"--", fixtures + "/" + c.fixture, c.argument});
  rusage usage{};
  auto start = std::chrono::steady_clock::now();
  int code = Run(argv, &usage);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("%-17s exit %d  %6.1f s  peak RSS %8.1f MiB\n", c.name.c_str(), code, seconds,
              static_cast<double>(usage.ru_maxrss) / 1024.0);
  std::printf("  report.json %9.2f MiB  junit %9.2f MiB  markdown %9.2f MiB  html %9.2f MiB\n",
              MiB(TreeSize(out / "json" / "report.json")), MiB(TreeSize(out / "junit.xml")),
              MiB(TreeSize(out / "report.md")), MiB(TreeSize(out / "report.html")));
  std::printf("  transcripts %9.2f MiB in all, largest file %9.2f MiB\n",
              MiB(TreeSize(out / "transcripts")), MiB(LargestFile(out / "transcripts")));
  std::fflush(stdout);
  return code;
}

}  // namespace

int main(int argc, char** argv) {
  std::string fakehost = std::string(FAKEHOST_BINARY_DIR) + "/bin/fakehost";
  std::string fixtures = FAKEHOST_FIXTURES;
  std::string keep;
  std::vector<std::string> only;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string flag = argv[i], value = argv[i + 1];
    if (flag == "--fakehost") {
      fakehost = value;
    } else if (flag == "--fixtures") {
      fixtures = value;
    } else if (flag == "--case") {
      only.push_back(value);
    } else if (flag == "--keep") {
      keep = value;
    } else {
      std::fprintf(stderr, "flood_bench: unknown flag %s\n", flag.c_str());
      return 2;
    }
  }
  fs::path base = keep.empty()
                      ? fs::temp_directory_path() / ("flood_bench." + std::to_string(::getpid()))
                      : fs::path(keep);
  std::printf("fakehost %s\n", fakehost.c_str());
  for (const auto& c : kCases) {
    bool wanted = only.empty();
    for (const auto& o : only) wanted |= o == c.name;
    if (!wanted) continue;
    if (RunCase(c, fakehost, fixtures, base / c.name) >= 2) std::printf("  (harness exit >= 2)\n");
  }
  if (keep.empty()) fs::remove_all(base);
  return 0;
}
