#!/usr/bin/env python3
"""Packs the portable fakehost: the static binary and its data, as `cmake --install` lays them
out, into the three packages of build/portable/ (target fakehost-portable, packaging/CMakeLists.txt):

    fakehost-<version>.tgz                      an npm package: `npm install` it, `npx fakehost`
    fakehost-<version>-py3-none-manylinux_2_17_x86_64.musllinux_1_1_x86_64.whl
                                                a wheel: `pip install` it, console script fakehost
    fakehost-<version>-linux-x86_64.tar.gz      the release tarball: unpack, run bin/fakehost

    packaging/portable.py --cmake cmake --build build --version 0.1.0 \
        --readme packaging/README.md --out build/portable

Each keeps an installed prefix's layout, bin/fakehost beside share/fakehost/ (and share/doc/), so
the binary finds its data from /proc/self/exe wherever it is unpacked. The standard library does
all of it: the npm tarball is the tar that `npm pack` writes (every path under package/), the wheel
a zip with its RECORD of hashes; no network, no npm, no `wheel` package at build time. The output
is reproducible: fixed timestamps, owners and order.

The wheel's platform tag: the binary needs no libc of the system (it is static: no NEEDED entry,
no ELF interpreter), so it runs on glibc and musl distributions alike. manylinux_2_17 says "glibc
2.17 or newer", which every glibc system pip accepts that tag on satisfies (the binary asks for no
glibc at all); musllinux_1_1 is the same for musl. The one real requirement is a Linux kernel of
3.2 or newer on x86-64 (the static glibc's minimum), which every system with those tags has.
"""
import argparse
import base64
import gzip
import hashlib
import io
import json
import os
import shutil
import stat
import subprocess
import sys
import tarfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(HERE)
SUMMARY = "conformance test harness for stdio plugin protocols (static x86-64 Linux binary)"
WHEEL_TAGS = ["py3-none-manylinux_2_17_x86_64", "py3-none-musllinux_1_1_x86_64"]
NPM_MTIME = 499162500  # 1985-10-26T08:15:00Z: the time `npm pack` gives every entry
ZIP_TIME = (1980, 1, 1, 0, 0, 0)  # the earliest a zip entry can hold

# The wheel's Python side: a module whose main() is the console script, replacing the Python
# process with the binary (argv and exit status pass through untouched).
WHEEL_INIT = '''"""fakehost, the conformance test harness for stdio plugin protocols: a static x86-64 Linux
binary (bin/fakehost in this package) with its suites and schemas (share/fakehost beside it)."""
import os
import sys

__version__ = "@VERSION@"
BINARY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bin", "fakehost")


def main():
    """The `fakehost` console script: execs the binary with this process's arguments."""
    try:
        os.execv(BINARY, [sys.argv[0]] + sys.argv[1:])
    except OSError as e:
        sys.stderr.write("fakehost: cannot run %s: %s\\n" % (BINARY, e))
        return 3  # fakehost's exit status when its environment fails
'''
WHEEL_MAIN = '''import sys

from fakehost import main

sys.exit(main())
'''


def fail(message):
    sys.stderr.write("portable.py: %s\n" % message)
    sys.exit(1)


def stage(cmake, build, prefix):
    """`cmake --install` of the package's component into prefix, stripped (as CPack does)."""
    shutil.rmtree(prefix, ignore_errors=True)
    env = dict(os.environ)
    env.pop("DESTDIR", None)  # would move the install out of prefix
    r = subprocess.run([cmake, "--install", build, "--prefix", prefix, "--component", "fakehost",
                        "--strip"], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True)
    if r.returncode != 0:
        sys.stderr.write(r.stdout)
        fail("cmake --install failed (exit %d)" % r.returncode)
    if not os.access(os.path.join(prefix, "bin", "fakehost"), os.X_OK):
        fail("cmake --install left no bin/fakehost in " + prefix)


class Entry:
    """One file of a package: its path inside the package, its bytes and whether it executes."""

    def __init__(self, path, data, executable):
        self.path, self.data, self.executable = path, data, executable


def tree(prefix):
    """Every file under prefix, sorted by path. A package holds files only: a symlink or anything
    else in the staged install is refused rather than packed as something it is not."""
    entries = []
    for root, dirs, files in os.walk(prefix):
        dirs.sort()
        for name in sorted(files):
            full = os.path.join(root, name)
            st = os.lstat(full)
            if not stat.S_ISREG(st.st_mode):
                fail("%s is not a regular file: packages hold files only" % full)
            with open(full, "rb") as f:
                data = f.read()
            entries.append(Entry(os.path.relpath(full, prefix), data, bool(st.st_mode & 0o111)))
    return entries


def write_targz(path, entries, root, mtime):
    """A gzipped tar of entries under root/, as `npm pack` writes one: files only, owned by 0:0,
    modes 0755 or 0644, one mtime, no name or time in the gzip header."""
    tmp = path + ".tmp"
    with open(tmp, "wb") as raw:
        with gzip.GzipFile(filename="", mode="wb", fileobj=raw, compresslevel=9, mtime=0) as gz:
            with tarfile.open(fileobj=gz, mode="w", format=tarfile.PAX_FORMAT) as tar:
                for e in entries:
                    info = tarfile.TarInfo(root + "/" + e.path)
                    info.size = len(e.data)
                    info.mode = 0o755 if e.executable else 0o644
                    info.mtime = mtime
                    tar.addfile(info, io.BytesIO(e.data))
    os.replace(tmp, path)


def record_hash(data):
    digest = hashlib.sha256(data).digest()
    return "sha256=" + base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")


def write_wheel(path, entries, dist_info):
    """A wheel (PEP 427) of entries, with dist_info/RECORD (sha256 hashes and sizes) last."""
    record = []
    tmp = path + ".tmp"
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        for e in entries:
            info = zipfile.ZipInfo(e.path, ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            # pip gives an installed file the exec bit when its zip mode has one.
            info.external_attr = (stat.S_IFREG | (0o755 if e.executable else 0o644)) << 16
            z.writestr(info, e.data)
            record.append("%s,%s,%d" % (e.path, record_hash(e.data), len(e.data)))
        record_path = dist_info + "/RECORD"
        record.append(record_path + ",,")
        info = zipfile.ZipInfo(record_path, ZIP_TIME)
        info.compress_type = zipfile.ZIP_DEFLATED
        info.external_attr = (stat.S_IFREG | 0o644) << 16
        z.writestr(info, "".join(line + "\n" for line in record))
    os.replace(tmp, path)


def text(s):
    return s.encode("utf-8")


def npm_package(staged, version, readme):
    manifest = {
        "name": "fakehost",
        "version": version,
        "description": SUMMARY,
        "bin": {"fakehost": "bin/fakehost"},
        "os": ["linux"],
        "cpu": ["x64"],
        "files": ["bin/", "share/"],
    }
    return ([Entry("package.json", text(json.dumps(manifest, indent=2) + "\n"), False),
             Entry("README.md", readme, False)] + staged)


def dist_info_of(version):
    return "fakehost-%s.dist-info" % version


def wheel(staged, version, readme):
    dist_info = dist_info_of(version)
    metadata = ("Metadata-Version: 2.1\nName: fakehost\nVersion: %s\nSummary: %s\n"
                "Requires-Python: >=3.7\nDescription-Content-Type: text/markdown\n\n"
                % (version, SUMMARY)).encode("utf-8") + readme
    wheel_file = "Wheel-Version: 1.0\nGenerator: fakehost packaging/portable.py\n" \
                 "Root-Is-Purelib: false\n" + "".join("Tag: %s\n" % t for t in WHEEL_TAGS)
    package = [Entry("fakehost/__init__.py", text(WHEEL_INIT.replace("@VERSION@", version)), False),
               Entry("fakehost/__main__.py", text(WHEEL_MAIN), False)]
    package += [Entry("fakehost/" + e.path, e.data, e.executable) for e in staged]
    return package + [
        Entry(dist_info + "/METADATA", metadata, False),
        Entry(dist_info + "/WHEEL", text(wheel_file), False),
        Entry(dist_info + "/entry_points.txt",
              text("[console_scripts]\nfakehost = fakehost:main\n"), False),
    ]


def tarball(staged, readme):
    extra = [Entry("README", readme, False)]
    for name in sorted(os.listdir(SOURCE)):
        if name.upper().startswith(("LICENSE", "COPYING")):
            with open(os.path.join(SOURCE, name), "rb") as f:
                extra.append(Entry(name, f.read(), False))
    return staged + extra


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cmake", default="cmake")
    ap.add_argument("--build", required=True, help="the build folder (FAKEHOST_STATIC=ON)")
    ap.add_argument("--version", required=True)
    ap.add_argument("--readme", default=os.path.join(HERE, "README.md"))
    ap.add_argument("--out", required=True, help="where the three packages go")
    a = ap.parse_args()
    out = os.path.abspath(a.out)
    os.makedirs(out, exist_ok=True)
    prefix = os.path.join(out, "stage")
    stage(a.cmake, os.path.abspath(a.build), prefix)
    staged = tree(prefix)
    with open(a.readme, "rb") as f:
        readme = f.read().replace(b"@VERSION@", a.version.encode("ascii"))

    v = a.version
    packages = [
        ("fakehost-%s.tgz" % v, lambda p: write_targz(p, npm_package(staged, v, readme), "package",
                                                      NPM_MTIME)),
        ("fakehost-%s-%s.whl" % (v, "py3-none-" + ".".join(t.split("-")[2] for t in WHEEL_TAGS)),
         lambda p: write_wheel(p, wheel(staged, v, readme), dist_info_of(v))),
        ("fakehost-%s-linux-x86_64.tar.gz" % v,
         lambda p: write_targz(p, tarball(staged, readme), "fakehost-%s-linux-x86_64" % v,
                               int(os.environ.get("SOURCE_DATE_EPOCH", NPM_MTIME)))),
    ]
    for name, write in packages:
        path = os.path.join(out, name)
        write(path)
        print("portable.py: %s (%d KiB)" % (path, os.path.getsize(path) // 1024))
    shutil.rmtree(prefix)
    return 0


if __name__ == "__main__":
    sys.exit(main())
