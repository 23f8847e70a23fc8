#include "harness/process/resolve.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace fakehost::process {
namespace {

enum class Verdict { kRunnable, kMissing, kDirectory, kNotExecutable, kUnusable };

struct Check {
  Verdict verdict = Verdict::kMissing;
  mode_t mode = 0;
  int err = 0;
};

Check CheckCandidate(const std::string& path) {
  Check check;
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    check.err = errno;
    check.verdict = (errno == ENOENT) ? Verdict::kMissing : Verdict::kUnusable;
    return check;
  }
  check.mode = st.st_mode;
  if (S_ISDIR(st.st_mode)) {
    check.verdict = Verdict::kDirectory;
  } else if (!S_ISREG(st.st_mode) || ::faccessat(AT_FDCWD, path.c_str(), X_OK, AT_EACCESS) != 0) {
    // Effective ids, as execve uses them; a FIFO or device cannot be exec'd either.
    check.verdict = Verdict::kNotExecutable;
  } else {
    check.verdict = Verdict::kRunnable;
  }
  return check;
}

std::string PermissionBits(mode_t mode) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "%04o", static_cast<unsigned>(mode & 07777));
  return buf;
}

std::string Describe(const std::string& path, const Check& check) {
  switch (check.verdict) {
    case Verdict::kMissing:
      return "no such file: " + path;
    case Verdict::kDirectory:
      return "is a directory: " + path;
    case Verdict::kNotExecutable:
      if (!S_ISREG(check.mode)) return "not executable: " + path + " (not a regular file)";
      return "not executable: " + path + " (permission bits " + PermissionBits(check.mode) + ")";
    case Verdict::kUnusable:
      return "cannot use " + path + ": " + std::strerror(check.err);
    case Verdict::kRunnable:
      break;
  }
  return {};
}

std::string Join(const std::string& dir, std::string_view name) {
  std::string out = dir;
  if (out.empty() || out.back() != '/') out.push_back('/');
  out.append(name);
  return out;
}

bool HarnessCwd(std::string* out, std::string* error) {
  char buf[4096];
  if (::getcwd(buf, sizeof buf) == nullptr) {
    *error = std::string("cannot read the harness's working directory: ") + std::strerror(errno);
    return false;
  }
  *out = buf;
  return true;
}

std::string PathOf(const std::vector<std::string>& env) {
  for (const std::string& entry : env) {
    if (entry.rfind("PATH=", 0) == 0) return entry.substr(5);
  }
  const char* own = std::getenv("PATH");
  return own != nullptr ? own : "/usr/bin:/bin";
}

}  // namespace

bool ResolveWorkingDirectory(const std::string& cwd, std::string* absolute, std::string* error) {
  std::string harness;
  if (!HarnessCwd(&harness, error)) return false;
  if (cwd.empty()) {
    *absolute = harness;
    return true;
  }
  const std::string full = cwd.front() == '/' ? cwd : Join(harness, cwd);
  struct stat st {};
  if (::stat(full.c_str(), &st) != 0) {
    *error = errno == ENOENT ? "no such directory: " + full
                             : "cannot use working directory " + full + ": " + std::strerror(errno);
    return false;
  }
  if (!S_ISDIR(st.st_mode)) {
    *error = "not a directory: " + full;
    return false;
  }
  if (::faccessat(AT_FDCWD, full.c_str(), X_OK, AT_EACCESS) != 0) {
    *error = "cannot enter working directory " + full + ": " + std::strerror(errno);
    return false;
  }
  *absolute = full;
  return true;
}

bool ResolveExecutable(std::string_view argv0, const std::string& cwd_absolute,
                       const std::vector<std::string>& env, std::string* path, std::string* error) {
  if (argv0.empty()) {
    *error = "empty program name (argv[0])";
    return false;
  }
  if (argv0.find('/') != std::string_view::npos) {
    const std::string full = argv0.front() == '/' ? std::string(argv0) : Join(cwd_absolute, argv0);
    const Check check = CheckCandidate(full);
    if (check.verdict != Verdict::kRunnable) {
      *error = Describe(full, check);
      return false;
    }
    *path = full;
    return true;
  }

  // A bare name: the first runnable match in PATH wins, like execvp; a match that exists but
  // cannot run is reported only if nothing later in PATH can.
  const std::string search = PathOf(env);
  std::string first_problem;
  std::size_t begin = 0;
  while (begin <= search.size()) {
    std::size_t end = search.find(':', begin);
    if (end == std::string::npos) end = search.size();
    std::string dir = search.substr(begin, end - begin);
    if (dir.empty()) dir = cwd_absolute;
    if (dir.front() != '/') dir = Join(cwd_absolute, dir);
    const std::string candidate = Join(dir, argv0);
    const Check check = CheckCandidate(candidate);
    if (check.verdict == Verdict::kRunnable) {
      *path = candidate;
      return true;
    }
    if (check.verdict != Verdict::kMissing && first_problem.empty()) {
      first_problem = Describe(candidate, check) + ", found through PATH";
    }
    begin = end + 1;
  }
  *error = !first_problem.empty()
               ? first_problem
               : "not found in PATH: " + std::string(argv0) + " (PATH=" + search + ")";
  return false;
}

}  // namespace fakehost::process
