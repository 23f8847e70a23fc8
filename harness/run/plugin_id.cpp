#include "harness/run/plugin_id.hpp"

#include <algorithm>
#include <array>
#include <string_view>

namespace fakehost::run {
namespace {

std::string FileName(std::string_view path) {
  while (path.size() > 1 && path.back() == '/') path.remove_suffix(1);
  auto slash = path.rfind('/');
  return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

// "server.py" -> "server"; a leading dot ("./x", ".hidden") is not an extension.
std::string Stem(std::string_view path) {
  std::string name = FileName(path);
  auto dot = name.rfind('.');
  if (dot != std::string::npos && dot > 0) name.resize(dot);
  return name;
}

// A package as a runner names it, without the version it pins: npm's "name@1.2.3" (a scoped
// name starts with '@', so only a later '@' begins the version), Python's "name==1.0",
// "name>=1.0", "name[extra]".
std::string PackageName(std::string_view word) {
  auto at = word.find('@', 1);
  if (at != std::string_view::npos) word = word.substr(0, at);
  auto spec = word.find_first_of("=<>![~ ");
  if (spec != std::string_view::npos && spec > 0) word = word.substr(0, spec);
  return std::string(word);
}

bool IsOption(const std::string& word) { return word.size() > 1 && word[0] == '-'; }

template <std::size_t N>
bool OneOf(const std::string& name, const std::array<std::string_view, N>& names) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// The index of the first argument from `i` on that is not an option (argv.size() if none).
std::size_t FirstOperand(const std::vector<std::string>& argv, std::size_t i) {
  for (; i < argv.size(); ++i)
    if (!IsOption(argv[i]) && !argv[i].empty()) return i;
  return argv.size();
}

}  // namespace

std::string DerivePluginId(const std::vector<std::string>& argv, std::size_t* word) {
  std::size_t unused = 0;
  if (!word) word = &unused;
  *word = 0;
  if (argv.empty()) return "";
  const std::string program = FileName(argv[0]);
  constexpr std::array<std::string_view, 4> kRunners = {"npx", "pnpx", "bunx", "uvx"};
  constexpr std::array<std::string_view, 7> kInterpreters = {"node",  "bun",  "python", "python3",
                                                             "pypy3", "ruby", "perl"};
  std::size_t from = 1;  // where the runner's or interpreter's own arguments begin
  bool runner = OneOf(program, kRunners);
  bool interpreter = OneOf(program, kInterpreters);
  // Two-word launchers: `npm exec`, `pnpm dlx`, `pipx run`, `uv run`, `deno run`.
  if (argv.size() > 1) {
    const std::string& verb = argv[1];
    if ((program == "npm" && verb == "exec") || (program == "pnpm" && verb == "dlx") ||
        (program == "pipx" && verb == "run") || (program == "yarn" && verb == "dlx")) {
      runner = true;
      from = 2;
    } else if ((program == "uv" && verb == "run") || (program == "deno" && verb == "run")) {
      interpreter = true;
      from = 2;
    }
  }
  const std::size_t operand = FirstOperand(argv, from);
  if (runner && operand < argv.size()) {
    std::string package = PackageName(argv[operand]);
    if (!package.empty()) {
      *word = operand;
      return package;
    }
  } else if (interpreter) {
    for (std::size_t i = from; i + 1 < argv.size(); ++i)
      if (argv[i] == "-m") {
        *word = i + 1;
        return argv[i + 1];
      }
    if (operand < argv.size()) {
      *word = operand;
      return Stem(argv[operand]);
    }
  }
  return program;
}

}  // namespace fakehost::run
