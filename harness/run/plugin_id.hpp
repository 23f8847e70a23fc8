// The id of a plugin that has no manifest to name it: derived from the command that starts it.
//
// A protocol whose plugins are configured by command line (an MCP server, a language server)
// gives them no id of their own, yet reports, baselines and certify's matrix must tell two of
// them apart. Hosts start most such plugins through a launcher (`npx -y @scope/server`, `uvx
// mcp-server-git`, `node build/index.js`, `python3 -m server`), where the program's name says
// nothing; what follows the launcher does.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace fakehost::run {

/// The plugin id for `argv`: after a package runner (npx, pnpx, bunx, uvx, pipx run, `npm
/// exec`, `pnpm dlx`) the first argument that is not an option, without a version suffix
/// ("@scope/server@1.2" -> "@scope/server", "pkg==1.0" -> "pkg"); after an interpreter (node,
/// deno run, bun, python, python3, uv run, ruby, perl) `-m MODULE`'s module, else the first
/// argument that is not an option, as a file name without its extension; otherwise the
/// program's file name. "" for an empty argv. `word`, when given, is set to the index of the
/// argument the id was taken from.
std::string DerivePluginId(const std::vector<std::string>& argv, std::size_t* word = nullptr);

}  // namespace fakehost::run
