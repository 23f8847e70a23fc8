#include "harness/cli/init_workflow.hpp"

#include "harness/report/text.hpp"

namespace fakehost::cli {
namespace {

// The wheel's name is the portable package's (packaging/portable.py): one static binary runs on
// every glibc and musl x86-64 Linux.
constexpr const char* kWheelTags = "py3-none-manylinux_2_17_x86_64.musllinux_1_1_x86_64";

bool Registry(const WorkflowSpec& spec) { return spec.dist == kRegistryDist; }

// The release directory, `{version}` replaced, without a trailing '/'.
std::string DistDir(const WorkflowSpec& spec) {
  std::string dir = spec.dist;
  for (std::size_t at; (at = dir.find("{version}")) != std::string::npos;)
    dir.replace(at, 9, spec.version);
  while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
  return dir;
}

// A word the action's `args:` splits back into itself (it splits like a shell, with xargs):
// single-quoted, a quote inside as '\''.
std::string ArgsWord(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// `below` under the plugin directory, from the repository root.
std::string UnderPlugin(const WorkflowSpec& spec, const std::string& below) {
  return spec.plugin == "." ? below : spec.plugin + "/" + below;
}

bool UsesPip(const WorkflowSpec& spec) {
  return spec.server &&
         (spec.server->runtime == Runtime::kPython || spec.server->runtime == Runtime::kUv);
}

// setup-node / setup-python (and uv), then the dependencies, in the plugin's directory.
std::string RuntimeSteps(const WorkflowSpec& spec) {
  const ServerProject* s = spec.server;
  if (!s || s->runtime == Runtime::kOther)
    return "      # Install your plugin's runtime and build it here (ubuntu-latest has Node.js,\n"
           "      # Python and Go; fakehost itself needs nothing).\n";
  std::string steps, deps;
  if (s->runtime == Runtime::kNode) {
    steps = "      - uses: actions/setup-node@v4\n        with:\n          node-version: lts/*\n";
    if (s->npm_ci) deps += "          npm ci\n";
    if (s->npm_install) deps += "          npm install\n";
    if (s->npm_build) deps += "          npm run build\n";
  } else {
    steps =
        "      - uses: actions/setup-python@v5\n        with:\n          python-version: \"3.x\"\n";
    if (s->runtime == Runtime::kUv) steps += "      - uses: astral-sh/setup-uv@v6\n";
    if (s->pip_requirements) deps += "          python3 -m pip install -r requirements.txt\n";
    if (s->pip_project) deps += "          python3 -m pip install .\n";
  }
  if (!deps.empty())
    steps += "      - name: The server's dependencies\n        working-directory: " +
             DoubleQuoted(spec.plugin) + "\n        run: |\n" + deps;
  return steps;
}

// Installs fakehost and puts it on PATH; then copies the action that came with it.
std::string InstallSteps(const WorkflowSpec& spec) {
  std::string install, find_binary;
  if (UsesPip(spec)) {
    // Into the job's Python (actions/setup-python's), whose scripts are on PATH already.
    const std::string what =
        Registry(spec) ? "fakehost==${FAKEHOST_VERSION}"
                       : DistDir(spec) + "/fakehost-${FAKEHOST_VERSION}-" + kWheelTags + ".whl";
    install = "        run: python3 -m pip install \"" + what + "\"\n";
    // The console script is Python; the binary beside the package's data is fakehost.BINARY.
    find_binary = "$(python3 -c 'import fakehost; print(fakehost.BINARY)')";
  } else {
    // A prefix of its own: the plugin's node_modules stays as its lock file made it.
    const std::string what = Registry(spec) ? "fakehost@${FAKEHOST_VERSION}"
                                            : DistDir(spec) + "/fakehost-${FAKEHOST_VERSION}.tgz";
    install =
        "        run: |\n"
        "          npm install --prefix \"$RUNNER_TEMP/fakehost\" --no-save --no-audit --no-fund "
        "\"" +
        what +
        "\"\n"
        "          echo \"$RUNNER_TEMP/fakehost/node_modules/.bin\" >> \"$GITHUB_PATH\"\n";
    find_binary = "$(readlink -f \"$(command -v fakehost)\")";
  }
  return "      - name: Install fakehost\n" + install +
         "      # The action that came with fakehost (share/fakehost/ci/github beside its "
         "binary),\n"
         "      # copied into the workspace: GitHub runs a local action only from there.\n"
         "      - name: The installed fakehost action\n"
         "        run: |\n"
         "          share=\"$(dirname \"" +
         find_binary +
         "\")/../share/fakehost\"\n"
         "          rm -rf .fakehost-action\n"
         "          cp -R \"$share/ci/github\" .fakehost-action\n";
}

}  // namespace

std::string UnwritablePath(std::string_view path) {
  for (char c : path)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) return "it holds a control character";
  if (report::ValidUtf8(path) != path) return "it is not valid UTF-8";
  if (path.find("${{") != std::string_view::npos)
    return "it holds \"${{\", which GitHub would evaluate as an expression";
  return {};
}

std::string UnwritableDist(std::string_view dist) {
  if (dist.empty()) return "it is empty";
  for (char c : dist)
    if (static_cast<unsigned char>(c) <= 0x20 || c == 0x7F || c == '"' || c == '\'' || c == '$' ||
        c == '`' || c == '\\')
      return "it holds whitespace, a quote, '$', '`' or '\\'";
  if (report::ValidUtf8(dist) != dist) return "it is not valid UTF-8";
  return {};
}

std::string DoubleQuoted(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string GithubWorkflow(const WorkflowSpec& spec) {
  const std::string own = UnderPlugin(spec, kOwnScenarios);
  const std::string baseline = UnderPlugin(spec, kBaseline);
  return "# Runs fakehost's " + spec.protocol +
         " conformance suite on the plugin at every push and pull request:\n"
         "# the standard suite and the plugin's own scenarios (" +
         kOwnScenarios + "), with the known\n# failures of " + kBaseline +
         " when that file exists. Written by\n# `fakehost init` (see docs/ci.md in fakehost).\n"
         "name: fakehost\n"
         "on: [push, pull_request]\n"
         "jobs:\n"
         "  conformance:\n"
         "    runs-on: ubuntu-latest\n"
         "    env:\n"
         "      FAKEHOST_VERSION: \"" +
         spec.version +
         "\"\n"
         "    steps:\n"
         "      - uses: actions/checkout@v4\n" +
         RuntimeSteps(spec) + InstallSteps(spec) +
         "      # The known failures: record them once from the plugin's directory, edit each\n"
         "      # reason, and commit the file (an entry that passes again fails the job):\n"
         "      #   fakehost run --plugin . --suite standard --suite " +
         kOwnScenarios +
         " --strict \\\n"
         "      #     --write-expected-failures " +
         kBaseline +
         "\n"
         "      - name: The known failures, if recorded\n"
         "        id: baseline\n"
         "        env:\n"
         "          BASELINE: " +
         DoubleQuoted(baseline) +
         "\n"
         "        run: |\n"
         "          if [ -f \"$BASELINE\" ]; then echo \"file=$BASELINE\" >> \"$GITHUB_OUTPUT\"; "
         "fi\n"
         "      - name: fakehost\n"
         "        id: fakehost\n"
         "        uses: ./.fakehost-action\n"
         "        with:\n"
         "          protocol: " +
         spec.protocol +
         "\n"
         "          plugin: " +
         DoubleQuoted(spec.plugin) +
         "\n"
         "          strict: true\n"
         "          expected-failures: ${{ steps.baseline.outputs.file }}\n"
         "          args: " +
         DoubleQuoted("--suite standard --suite " + ArgsWord(own)) +
         "\n"
         "      - if: always()\n"
         "        uses: actions/upload-artifact@v4\n"
         "        with:\n"
         "          name: fakehost-report\n"
         "          path: ${{ steps.fakehost.outputs.report-dir }}\n";
}

}  // namespace fakehost::cli
