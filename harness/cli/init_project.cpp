#include "harness/cli/init_project.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "harness/json/text_file.hpp"

namespace fakehost::cli {
namespace {

namespace fs = std::filesystem;

bool Exists(const fs::path& p) {
  std::error_code ec;
  return fs::exists(p, ec);
}

bool ReadText(const fs::path& path, std::string* text, std::string* error) {
  return json::ReadFileCapped(path.string(), json::kInputFileCap, text, error);
}

// The module's file under `root` ("a.b" -> root/a/b.py or root/a/b/), and whether
// `python3 -m` runs its entry point: a module with a __main__ block, a package with __main__.py.
bool FindModule(const fs::path& root, const std::string& module, bool* runs_as_main) {
  fs::path base = root;
  std::string rest = module;
  for (std::size_t dot; (dot = rest.find('.')) != std::string::npos; rest.erase(0, dot + 1))
    base /= rest.substr(0, dot);
  fs::path file = base / (rest + ".py"), package = base / rest;
  std::error_code ec;
  if (fs::is_regular_file(file, ec)) {
    std::ifstream in(file);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    *runs_as_main = text.find("__main__") != std::string::npos;
    return true;
  }
  if (fs::is_regular_file(package / "__init__.py", ec)) {
    *runs_as_main = fs::is_regular_file(package / "__main__.py", ec);
    return true;
  }
  return false;
}

// The executable regular files directly in `dir` (not hidden), sorted.
std::vector<std::string> Executables(const fs::path& dir) {
  std::vector<std::string> found;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    std::string name = e.path().filename().string();
    struct stat st {};
    if (name.empty() || name[0] == '.' || ::stat(e.path().c_str(), &st) != 0) continue;
    if (S_ISREG(st.st_mode) && (st.st_mode & 0111)) found.push_back(name);
  }
  std::sort(found.begin(), found.end());
  return found;
}

// Node, Python or neither, from a script's #! line.
Runtime ShebangRuntime(const fs::path& file) {
  std::ifstream in(file);
  std::string first;
  std::getline(in, first);
  if (first.rfind("#!", 0) != 0) return Runtime::kOther;
  if (first.find("node") != std::string::npos) return Runtime::kNode;
  if (first.find("python") != std::string::npos) return Runtime::kPython;
  return Runtime::kOther;
}

bool FromPackageJson(const fs::path& dir, ServerProject* out, std::string* why,
                     std::string* error) {
  std::string text;
  PackageJson pkg;
  if (!ReadText(dir / "package.json", &text, error)) return false;
  if (!ParsePackageJson(text, &pkg, error)) {
    *error = (dir / "package.json").string() + ": " + *error +
             " (fakehost init reads its bin, main and scripts: give the server's command after --)";
    return false;
  }
  if (pkg.mcp_sdk) out->mcp_sdk = "package.json depends on @modelcontextprotocol/sdk";
  const std::string& file = pkg.bin.empty() ? pkg.main : pkg.bin;
  if (!file.empty()) {
    out->command = {"node", file};
    out->source = std::string("package.json's ") + (pkg.bin.empty() ? "main" : "bin");
  } else if (pkg.start) {
    // --silent: npm's "> name@1.0.0 start" banner would go to stdout, the protocol's channel.
    out->command = {"npm", "start", "--silent"};
    out->source = "package.json's start script";
  } else {
    *why += "package.json has no bin, main or start script; ";
    return true;
  }
  out->runtime = Runtime::kNode;
  out->npm_ci = Exists(dir / "package-lock.json");
  out->npm_install = !out->npm_ci && pkg.dependencies;
  out->npm_build = pkg.build;
  if (pkg.dependencies && !Exists(dir / "node_modules"))
    out->first.push_back(out->npm_ci ? "npm ci" : "npm install");
  if (!file.empty() && pkg.build && !Exists(dir / file)) out->first.push_back("npm run build");
  return true;
}

// The script to run: the only one, else the one named as the project, else the first.
const std::pair<std::string, std::string>& PickScript(const Pyproject& py) {
  for (const auto& s : py.scripts)
    if (PythonName(s.first) == PythonName(py.name)) return s;
  return py.scripts.front();
}

bool FromPyproject(const fs::path& dir, ServerProject* out, std::string* why, std::string* error) {
  std::string text;
  Pyproject py;
  if (!ReadText(dir / "pyproject.toml", &text, error)) return false;
  if (!ParsePyproject(text, &py, error)) {
    *error = dir.string() + "/" + *error;
    return false;
  }
  if (!py.mcp_sdk.empty() && out->mcp_sdk.empty())
    out->mcp_sdk = "pyproject.toml depends on " + py.mcp_sdk;
  if (py.scripts.empty()) {
    *why += "pyproject.toml has no [project.scripts]; ";
    return true;
  }
  const auto& [script, entry] = PickScript(py);
  const std::size_t colon = entry.find(':');
  const std::string module = entry.substr(0, colon);
  const std::string func = colon == std::string::npos ? "" : entry.substr(colon + 1);
  bool runs_as_main = false;
  for (const char* root : {"", "src"}) {
    if (!FindModule(dir / root, module, &runs_as_main)) continue;
    if (runs_as_main || func.empty()) {
      out->command = {"python3", "-m", module};
    } else {
      // No __main__ block: call the entry point as its console script would.
      const std::string object = func.substr(0, func.find('.'));
      out->command = {
          "python3", "-c",
          "import sys; from " + module + " import " + object + "; sys.exit(" + func + "())"};
    }
    if (*root) out->env.push_back({"PYTHONPATH", root});
    out->runtime = Runtime::kPython;
    out->source = "pyproject.toml's script " + script;
    out->pip_project = !py.dependencies.empty();
    out->pip_requirements = Exists(dir / "requirements.txt");
    return true;
  }
  if (Exists(dir / "uv.lock")) {
    out->command = {"uv", "run", script};
    out->runtime = Runtime::kUv;
    out->source = "pyproject.toml's script " + script + " (uv.lock)";
    return true;
  }
  *why += "pyproject.toml's script " + script + " runs " + module +
          ", which is neither in the directory nor in src/, and there is no uv.lock; ";
  return true;
}

}  // namespace

bool DetectServerProject(const std::string& dir_name, ServerProject* out, std::string* why,
                         std::string* error) {
  const fs::path dir(dir_name);
  *out = {};
  if (Exists(dir / "package.json")) {
    if (!FromPackageJson(dir, out, why, error)) return false;
    if (!out->command.empty()) return true;
  } else {
    *why += "no package.json; ";
  }
  if (Exists(dir / "pyproject.toml")) {
    if (!FromPyproject(dir, out, why, error)) return false;
    if (!out->command.empty()) return true;
  } else {
    *why += "no pyproject.toml; ";
  }
  std::vector<std::string> exes = Executables(dir);
  if (exes.size() == 1) {
    out->command = {"./" + exes[0]};
    out->source = "the one executable file in the directory";
    out->runtime = ShebangRuntime(dir / exes[0]);
    out->pip_requirements = out->runtime == Runtime::kPython && Exists(dir / "requirements.txt");
    return true;
  }
  if (exes.empty()) {
    *why += "no executable file";
  } else {
    *why += std::to_string(exes.size()) + " executable files (";
    for (std::size_t i = 0; i < exes.size(); ++i) *why += (i ? ", " : "") + exes[i];
    *why += ")";
  }
  return true;
}

std::string McpServerHint(const std::string& dir_name) {
  const fs::path dir(dir_name);
  std::string text, error;
  PackageJson pkg;
  if (ReadText(dir / "package.json", &text, &error) && ParsePackageJson(text, &pkg, &error) &&
      pkg.mcp_sdk)
    return "package.json depends on @modelcontextprotocol/sdk";
  Pyproject py;
  if (ReadText(dir / "pyproject.toml", &text, &error) && ParsePyproject(text, &py, &error) &&
      !py.mcp_sdk.empty())
    return "pyproject.toml depends on " + py.mcp_sdk;
  return {};
}

}  // namespace fakehost::cli
