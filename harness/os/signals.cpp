#include "harness/os/signals.hpp"

#include <csignal>

namespace fakehost::os {
namespace {

struct Entry {
  const char* name;
  int number;
};
constexpr Entry kSignals[] = {
    {"HUP", SIGHUP},       {"INT", SIGINT},   {"QUIT", SIGQUIT},   {"ILL", SIGILL},
    {"TRAP", SIGTRAP},     {"ABRT", SIGABRT}, {"BUS", SIGBUS},     {"FPE", SIGFPE},
    {"KILL", SIGKILL},     {"USR1", SIGUSR1}, {"SEGV", SIGSEGV},   {"USR2", SIGUSR2},
    {"PIPE", SIGPIPE},     {"ALRM", SIGALRM}, {"TERM", SIGTERM},   {"CHLD", SIGCHLD},
    {"CONT", SIGCONT},     {"STOP", SIGSTOP}, {"TSTP", SIGTSTP},   {"TTIN", SIGTTIN},
    {"TTOU", SIGTTOU},     {"URG", SIGURG},   {"XCPU", SIGXCPU},   {"XFSZ", SIGXFSZ},
    {"VTALRM", SIGVTALRM}, {"PROF", SIGPROF}, {"WINCH", SIGWINCH}, {"IO", SIGIO},
    {"SYS", SIGSYS},
};

}  // namespace

int SignalNumber(std::string_view name) {
  std::string_view bare = name.substr(0, 3) == "SIG" ? name.substr(3) : name;
  for (const Entry& s : kSignals)
    if (bare == s.name) return s.number;
  if (name.empty() || name.size() > 2) return 0;
  int n = 0;
  for (char ch : name) {
    if (ch < '0' || ch > '9') return 0;
    n = n * 10 + (ch - '0');
  }
  return n >= 1 && n <= 64 ? n : 0;
}

std::string SignalName(int signal) {
  for (const Entry& s : kSignals)
    if (signal == s.number) return std::string("SIG") + s.name;
  return "signal " + std::to_string(signal);
}

}  // namespace fakehost::os
