#!/usr/bin/env python3
"""The portable fakehost (packaging/): each package of build/portable/ installed where nothing
else is, and suites played with what it installed. One CTest test per kind (Portable.<Kind>,
registered by packaging/CMakeLists.txt):

    tests/portable_test.py static|npm|pip|emptyroot --build BUILD --source SOURCE --version V

  static     the built binary, the RIM fixture plugin and the binary inside each package have
             no NEEDED entry and no PT_INTERP (readelf); the same check does flag /bin/sh.
  npm        `npm install --offline` of the npm tarball into an empty directory, with HOME and
             npm's cache in it and a registry that refuses connections (a control install of a
             package from the registry must fail there), then `npx --offline fakehost run` on a
             Node and a Python MCP server (examples/mcp-stdio, with their fakehost.yaml).
  pip        a venv of Debian's Python (/usr/bin/python3), `pip install --no-index` of the
             wheel, then its `fakehost` console script on the same two servers.
  emptyroot  the release tarball's bin/ and share/ and the static RIM fixture plugin in a root
             holding nothing else but /proc and /dev (chroot in a private mount namespace, as
             root), the RIM suite played there.

Every run is --strict and must exit 0 having played the package's own suite (the report's
"suite" lies inside what was installed, never the source tree the build falls back to).
Exit status: 0 passed, 1 failed, 77 skipped (npm, or Debian's Python with venv, missing).
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile

SKIP = 77
WHEEL_PLATFORM = "py3-none-manylinux_2_17_x86_64.musllinux_1_1_x86_64"
DEBIAN_PYTHON = "/usr/bin/python3"
# The MCP servers every package is tried on: (name, argv after --, relative to examples/mcp-stdio).
SERVERS = [("weather-modern-node", ["node", "server.js"]),
           ("tasks-python", [DEBIAN_PYTHON, "server.py"])]
RUN_TIMEOUT = 240  # seconds for one suite; the MCP suite on one server takes about 10 s


class Failure(Exception):
    pass


def packages(build, version):
    out = os.path.join(build, "portable")
    return {
        "npm": os.path.join(out, "fakehost-%s.tgz" % version),
        "wheel": os.path.join(out, "fakehost-%s-%s.whl" % (version, WHEEL_PLATFORM)),
        "tarball": os.path.join(out, "fakehost-%s-linux-x86_64.tar.gz" % version),
    }


def clean_env(home, **extra):
    """The environment without the caller's npm, pip and fakehost settings, HOME in the test's
    folder: nothing of this machine's configuration (a registry, a wheel folder) can help."""
    env = {k: v for k, v in os.environ.items()
           if not k.lower().startswith(("npm_", "pip_", "fakehost_", "python"))
           and k not in ("VIRTUAL_ENV", "NODE_PATH", "NODE_OPTIONS")}
    env["HOME"] = home
    env.update(extra)
    return env


def run(argv, what, cwd=None, env=None, timeout=120, expect=0):
    """Runs argv; raises Failure, with its output, unless it exits `expect` (None: any)."""
    try:
        r = subprocess.run(argv, cwd=cwd, env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, errors="replace", timeout=timeout)
    except subprocess.TimeoutExpired as e:
        raise Failure("%s: no exit within %d s: %s\n%s" % (what, timeout, " ".join(argv),
                                                           e.output or ""))
    if expect is not None and r.returncode != expect:
        raise Failure("%s: exit %d, expected %d: %s\n%s" % (what, r.returncode, expect,
                                                             " ".join(argv), r.stdout))
    return r


def check_report(out, suite_root, protocol, what):
    """The run at `out` played `protocol`'s suite from inside suite_root and passed something."""
    try:
        with open(os.path.join(out, "report.json"), encoding="utf-8") as f:
            report = json.load(f)
    except (OSError, ValueError) as e:
        raise Failure("%s: no readable report.json in %s: %s" % (what, out, e))
    suite = report.get("suite", "")
    want = os.path.join(suite_root, "share", "fakehost", "scenarios", protocol)
    if suite != want:
        raise Failure("%s: played the suite %s, not the package's own %s" % (what, suite, want))
    summary = report["summary"]
    if summary["passed"] == 0 or summary["failed"] or summary["errored"]:
        raise Failure("%s: %s" % (what, json.dumps(summary)))
    print("ok  %s: %d passed, %d not applicable (%s)" % (what, summary["passed"],
                                                         summary["skipped"], suite))


def play_servers(fakehost_argv, source, suite_root, tmp, cwd, env, label):
    """The MCP suite on every server of SERVERS, at once (the runs mostly wait on deadlines)."""
    examples = os.path.join(source, "examples", "mcp-stdio")
    running = []
    for name, argv in SERVERS:
        server_dir = os.path.join(examples, name)
        out = os.path.join(tmp, "report-" + name)
        command = fakehost_argv + [
            "run", "--protocol", "mcp-stdio", "--strict", "--fail-untested", "--no-color",
            "--config", os.path.join(server_dir, "fakehost.yaml"), "--out", out, "--",
            argv[0], os.path.join(server_dir, argv[1])]
        log = open(os.path.join(tmp, name + ".log"), "w+")
        running.append((name, out, command, log,
                        subprocess.Popen(command, cwd=cwd, env=env, stdout=log,
                                         stderr=subprocess.STDOUT)))
    failures = []
    for name, out, command, log, child in running:
        what = "%s on %s" % (label, name)
        try:
            rc = child.wait(timeout=RUN_TIMEOUT)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
            rc = None
        log.seek(0)
        output = log.read()
        log.close()
        try:
            if rc != 0:
                raise Failure("%s: %s: %s\n%s" % (what, "exit %d" % rc if rc is not None else
                                                  "no exit within %d s" % RUN_TIMEOUT,
                                                  " ".join(command), output[-6000:]))
            check_report(out, suite_root, "mcp-stdio", what)
        except Failure as e:
            failures.append(str(e))
    if failures:
        raise Failure("\n".join(failures))


# --- static ---------------------------------------------------------------------------------

def dynamic_parts(path):
    """What makes the ELF file at path depend on a system: its NEEDED entries and PT_INTERP."""
    headers = run(["readelf", "-hW", path], "readelf -h").stdout
    if "X86-64" not in headers:
        return ["not an x86-64 ELF file"]
    parts = []
    dynamic = run(["readelf", "-dW", path], "readelf -d").stdout
    parts += [line.split()[-1] for line in dynamic.splitlines() if "(NEEDED)" in line]
    program = run(["readelf", "-lW", path], "readelf -l").stdout
    if any(line.split()[:1] == ["INTERP"] for line in program.splitlines()):
        interpreter = program.split("program interpreter: ", 1)[-1].split("]", 1)[0]
        parts.append("PT_INTERP " + interpreter)
    return parts


def binaries_in_packages(pkgs, tmp):
    """(label, path) of the fakehost binary unpacked from each package."""
    out = []
    with tarfile.open(pkgs["npm"]) as t:
        t.extract("package/bin/fakehost", os.path.join(tmp, "npm"))
    out.append(("npm package", os.path.join(tmp, "npm", "package", "bin", "fakehost")))
    with zipfile.ZipFile(pkgs["wheel"]) as z:
        z.extract("fakehost/bin/fakehost", os.path.join(tmp, "wheel"))
    out.append(("wheel", os.path.join(tmp, "wheel", "fakehost", "bin", "fakehost")))
    root = os.path.basename(pkgs["tarball"])[:-len(".tar.gz")]
    with tarfile.open(pkgs["tarball"]) as t:
        t.extract(root + "/bin/fakehost", os.path.join(tmp, "tarball"))
    out.append(("tarball", os.path.join(tmp, "tarball", root, "bin", "fakehost")))
    return out


def test_static(a, pkgs, tmp):
    # The check itself first: a program that is dynamic must be flagged, or the rest proves nothing.
    control = os.path.realpath("/bin/sh")
    if not dynamic_parts(control):
        raise Failure("the static check finds nothing dynamic in %s, a dynamic program" % control)
    targets = [("build", os.path.join(a.build, "bin", "fakehost")),
               ("RIM fixture plugin", os.path.join(a.build, "fixtures", "rim-v1", "reference",
                                                   "rim-fixture-plugin"))]
    targets += binaries_in_packages(pkgs, tmp)
    failures = []
    for label, path in targets:
        parts = dynamic_parts(path)
        if parts:
            failures.append("%s: %s is not static: %s" % (label, path, ", ".join(parts)))
        else:
            print("ok  %s: %s: no NEEDED, no PT_INTERP" % (label, path))
    if failures:
        raise Failure("\n".join(failures))


# --- npm ------------------------------------------------------------------------------------

def test_npm(a, pkgs, tmp):
    npm, npx = shutil.which("npm"), shutil.which("npx")
    if not npm or not npx:
        print("npm or npx is not installed (ci/mcp-servers installs it): skipped")
        return SKIP
    home, project = os.path.join(tmp, "home"), os.path.join(tmp, "project")
    os.makedirs(home)
    os.makedirs(project)
    # Offline, with an empty cache of its own and a registry nothing listens on: whatever would
    # need a download fails.
    env = clean_env(home, npm_config_cache=os.path.join(tmp, "npm-cache"),
                    npm_config_userconfig=os.path.join(home, ".npmrc"),
                    npm_config_offline="true", npm_config_registry="http://127.0.0.1:9/",
                    npm_config_update_notifier="false", npm_config_audit="false",
                    npm_config_fund="false")
    # A package.json of its own, or npm would install into the nearest folder above that has one.
    with open(os.path.join(project, "package.json"), "w") as f:
        f.write('{"name": "portable-npm-test", "version": "1.0.0", "private": true}\n')
    # The control: a package only the registry has cannot be installed here, by this environment
    # alone (no --offline on its command line).
    r = run([npm, "install", "--no-audit", "--no-fund", "is-number@7.0.0"],
            "npm install of a registry package (the control)", cwd=project, env=env, expect=None)
    if r.returncode == 0:
        raise Failure("npm installed is-number from the registry: the test's sandbox has a "
                      "network or a cache, so it cannot show that the package needs neither")
    run([npm, "install", "--offline", "--no-audit", "--no-fund", pkgs["npm"]],
        "npm install of " + pkgs["npm"], cwd=project, env=env)
    installed = os.path.join(project, "node_modules", "fakehost")
    play_servers([npx, "--offline", "fakehost"], a.source, installed, tmp, project, env,
                 "npx fakehost")


# --- pip ------------------------------------------------------------------------------------

def test_pip(a, pkgs, tmp):
    if not os.access(DEBIAN_PYTHON, os.X_OK):
        print("%s is not installed: skipped" % DEBIAN_PYTHON)
        return SKIP
    home, venv = os.path.join(tmp, "home"), os.path.join(tmp, "venv")
    os.makedirs(home)
    env = clean_env(home, PIP_CONFIG_FILE=os.devnull, PIP_NO_INDEX="1",
                    PIP_INDEX_URL="http://127.0.0.1:9/simple", PIP_NO_CACHE_DIR="1",
                    PIP_DISABLE_PIP_VERSION_CHECK="1", PYTHONNOUSERSITE="1")
    r = run([DEBIAN_PYTHON, "-m", "venv", venv], "python3 -m venv", env=env, expect=None)
    if r.returncode != 0:
        if "ensurepip" in r.stdout:
            print("Debian's python3-venv is not installed (ci/setup test installs it): skipped")
            return SKIP
        raise Failure("python3 -m venv: exit %d\n%s" % (r.returncode, r.stdout))
    run([os.path.join(venv, "bin", "pip"), "install", "--no-index", pkgs["wheel"]],
        "pip install of " + pkgs["wheel"], cwd=tmp, env=env)
    site = run([os.path.join(venv, "bin", "python"), "-c",
                "import fakehost, os; print(os.path.dirname(fakehost.__file__))"],
               "locating the installed package", env=env).stdout.strip()
    play_servers([os.path.join(venv, "bin", "fakehost")], a.source, site, tmp, tmp, env,
                 "pip's fakehost")


# --- empty root -----------------------------------------------------------------------------

def mounts_under(path):
    with open("/proc/self/mounts") as f:
        return [line.split()[1] for line in f if line.split()[1].startswith(path + "/")]


def test_emptyroot(a, pkgs, tmp):
    if os.geteuid() != 0:
        raise Failure("the empty-root test needs root (a chroot and mounts; CI runs as root): "
                      "run it as root, it does not pass without running")
    root = os.path.join(tmp, "root")
    os.makedirs(root)
    # The release tarball's bin/ and share/ (and README), as /fakehost.
    name = os.path.basename(pkgs["tarball"])[:-len(".tar.gz")]
    with tarfile.open(pkgs["tarball"]) as t:
        members = [m for m in t.getmembers() if m.name.startswith(name + "/")]
        if len(members) != len(t.getmembers()):
            raise Failure("%s has entries outside %s/" % (pkgs["tarball"], name))
        t.extractall(root, members)
    os.rename(os.path.join(root, name), os.path.join(root, "fakehost"))
    # The RIM fixture plugin's directory: manifest, fakehost.yaml and the static program.
    reference = os.path.join(a.build, "fixtures", "rim-v1", "reference")
    shutil.copytree(reference, os.path.join(root, "plugin"))
    for d in ("proc", "dev", "out"):
        os.mkdir(os.path.join(root, d))
    # A private mount namespace: /proc and /dev are mounted for the chroot only and vanish with
    # it, whatever happens to the run; this namespace never sees them.
    script = ('mount --make-rprivate / && mount -t proc proc "$1/proc" && '
              'mount --bind /dev "$1/dev" && exec chroot "$1" /fakehost/bin/fakehost run '
              '--protocol rim-v1 --plugin /plugin --strict --no-color --out /out')
    try:
        run(["unshare", "--mount", "sh", "-c", script, "sh", root],
            "the RIM suite in the empty root", env=clean_env(tmp), timeout=RUN_TIMEOUT)
        check_report(os.path.join(root, "out"), "/fakehost", "rim-v1", "the empty root")
    finally:
        left = mounts_under(root)
        if left:  # never delete through a mount
            raise Failure("mounts left under %s, not deleted: %s" % (root, ", ".join(left)))


TESTS = {"static": test_static, "npm": test_npm, "pip": test_pip, "emptyroot": test_emptyroot}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("kind", choices=sorted(TESTS))
    ap.add_argument("--build", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--version", required=True)
    a = ap.parse_args()
    a.build, a.source = os.path.abspath(a.build), os.path.abspath(a.source)
    pkgs = packages(a.build, a.version)
    missing = [p for p in pkgs.values() if not os.path.isfile(p)]
    if missing:
        print("not built (target fakehost-portable): " + ", ".join(missing))
        return 1
    tmp = tempfile.mkdtemp(prefix="portable-%s-" % a.kind)
    keep = False
    try:
        return TESTS[a.kind](a, pkgs, tmp) or 0
    except Failure as e:
        print("FAIL " + str(e))
        return 1
    finally:
        if mounts_under(tmp):
            keep = True
            print("left %s in place: something is still mounted under it" % tmp)
        if not keep:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
