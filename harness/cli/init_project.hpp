// How `fakehost init` tells the way a plugin without a manifest (an MCP server) starts, from the
// project's own files, and what a first run and CI must do before it starts.
//
// The detection is small and deterministic, in this order: package.json (`bin`, else `main`,
// run by `node`; else its `start` script, by `npm start --silent`, since npm's own banner on
// stdout would break the protocol), then pyproject.toml's [project.scripts] (`python3 -m MODULE`
// when the entry point's module is in the directory or src/, else `uv run SCRIPT` when uv.lock
// is there), then the directory's one executable file. Each reader has an I/O-free entry point
// tested on strings. A pyproject.toml is read only as far as needed: [project] name and
// dependencies and [project.scripts], as plain `key = "value"` lines; anything else in those
// tables is refused with its line, never guessed at.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace fakehost::cli {

/// What package.json says that init uses.
struct PackageJson {
  std::string name;
  std::string bin;   ///< the server's file from `bin` (the one entry, or the package's own name)
  std::string main;  ///< `main`
  bool start = false, build = false;  ///< scripts.start, scripts.build
  bool dependencies = false;          ///< it lists any dependency (npm install before a run)
  bool mcp_sdk = false;               ///< @modelcontextprotocol/sdk in (dev)dependencies
};

/// Reads package.json's text. False with `*error` (the file's problem) when it is not a JSON
/// object, or `bin`/`main` is not a path inside the directory.
bool ParsePackageJson(std::string_view text, PackageJson* out, std::string* error);

/// A distribution's or script's name as pip compares them, from a requirement ("MCP[cli]>=1.2"
/// -> "mcp"): lower case, '_' and '.' as '-'.
std::string PythonName(std::string_view spec);

/// What pyproject.toml says that init uses.
struct Pyproject {
  std::string name;
  std::vector<std::pair<std::string, std::string>> scripts;  ///< [project.scripts], in order
  std::vector<std::string> dependencies;                     ///< [project] dependencies
  std::string mcp_sdk;  ///< `mcp` or `fastmcp` when among the dependencies, else ""
};

/// Reads pyproject.toml's text. False with `*error` ("pyproject.toml:LINE: ...") for a line of
/// [project] or [project.scripts] that is not a plain `key = "string"` (or the dependencies list).
bool ParsePyproject(std::string_view text, Pyproject* out, std::string* error);

/// What the server needs around it: its runtime, and what to do before it starts.
enum class Runtime { kNode, kPython, kUv, kOther };

/// How the server in a directory starts, and what a run needs first.
struct ServerProject {
  std::vector<std::string> command;  ///< `command:` for fakehost.yaml; empty: none found
  std::vector<std::pair<std::string, std::string>> env;  ///< `env:` it needs (PYTHONPATH=src)
  std::string source;  ///< where the command came from: "package.json's bin"
  Runtime runtime = Runtime::kOther;
  std::string mcp_sdk;  ///< "package.json depends on @modelcontextprotocol/sdk", or ""
  /// In CI, before the server can start (the directory is the working directory).
  bool npm_ci = false;            ///< package-lock.json: `npm ci`
  bool npm_install = false;       ///< dependencies and no lock: `npm install`
  bool npm_build = false;         ///< scripts.build: `npm run build`
  bool pip_requirements = false;  ///< requirements.txt: `pip install -r requirements.txt`
  bool pip_project = false;       ///< pyproject.toml lists dependencies: `pip install .`
  /// Shell commands a first run on this machine needs before it ("npm install", "npm run
  /// build"): dependencies not installed yet, the server's file not built yet.
  std::vector<std::string> first;
};

/// The project in `dir`. A project whose files say nothing of how it starts has an empty
/// `command`, with why in `*why` (every place looked); a file that cannot be read as it must be
/// (package.json not JSON, an odd pyproject.toml line) is an error: false with `*error`.
bool DetectServerProject(const std::string& dir, ServerProject* out, std::string* why,
                         std::string* error);

/// Why DIR looks like an MCP server ("package.json depends on @modelcontextprotocol/sdk"), read
/// without failing on anything: for the message that asks for --protocol.
std::string McpServerHint(const std::string& dir);

}  // namespace fakehost::cli
