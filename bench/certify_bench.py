#!/usr/bin/env python3
"""`fakehost certify` on a generated corpus: wall time, peak memory, cost per plugin, against
running each plugin alone with `fakehost run`.

    cmake --build build -j2 --target fakehost rim-fixtures flash-fixtures
    bench/certify_bench.py --build build --count 100 --jobs 2

Peak memory is measured twice: fakehost's own high-water mark (VmHWM from /proc, read until it
exits; certify streams results, so this should not grow with the corpus), and wait4's
ru_maxrss, the largest of fakehost and every plugin it waited for. The scaling rows run the
same selection on the first 25, 50, ... plugins to show that memory stays flat. Timings are
wall clock on a shared machine: expect +-30% run to run.
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ONLY = {
    "rim-v1": ["handshake/accepts-offered-version", "heartbeat/answers-within-5s", "shutdown/*"],
    "flash-v1": ["initialize/*", "shutdown/*"],
}


def hwm_kib(pid):
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def measure(argv):
    """(wall s, fakehost VmHWM KiB, wait4 ru_maxrss KiB, exit code)."""
    t0 = time.monotonic()
    p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    hwm = 0
    while True:
        hwm = max(hwm, hwm_kib(p.pid))
        pid, status, usage = os.wait4(p.pid, os.WNOHANG)
        if pid == p.pid:
            break
        time.sleep(0.02)
    p.returncode = os.waitstatus_to_exitcode(status)
    return time.monotonic() - t0, hwm, usage.ru_maxrss, p.returncode


def only_flags(protocol):
    out = []
    for glob in ONLY[protocol]:
        out += ["--only", glob]
    return out


def main():
    a = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    a.add_argument("--build", default="build")
    a.add_argument("--protocol", choices=sorted(ONLY), default="rim-v1")
    a.add_argument("--count", type=int, default=100)
    a.add_argument("--jobs", type=int, default=2)
    a.add_argument("--alone", type=int, default=0,
                   help="run only this many plugins alone (0: all) and scale to the corpus")
    args = a.parse_args()
    fakehost = os.path.join(args.build, "bin", "fakehost")
    work = tempfile.mkdtemp(prefix="fakehost-certify-bench-")
    corpus = os.path.join(work, "corpus")
    subprocess.run([sys.executable, os.path.join(HERE, "make_corpus.py"), "--fixtures",
                    os.path.join(args.build, "fixtures"), "--protocol", args.protocol, "--count",
                    str(args.count), "--out", corpus], check=True, stdout=subprocess.DEVNULL)
    dirs = sorted(os.path.join(corpus, d) for d in os.listdir(corpus)
                  if os.path.isdir(os.path.join(corpus, d)))
    only = only_flags(args.protocol)
    print("%s: %d plugins, --only %s, --jobs %d" % (args.protocol, len(dirs),
                                                    " ".join(ONLY[args.protocol]), args.jobs))
    print("%-28s %9s %12s %14s %14s" % ("", "wall s", "s/plugin", "fakehost MiB", "max RSS MiB"))

    def row(label, wall, n, hwm, maxrss):
        print("%-28s %9.2f %12.3f %14.1f %14.1f" % (label, wall, wall / n, hwm / 1024,
                                                     maxrss / 1024))

    step = max(1, len(dirs) // 4)
    for n in list(range(step, len(dirs), step)) + [len(dirs)]:
        listing = os.path.join(work, "first-%d.txt" % n)
        with open(listing, "w") as f:
            f.writelines(d + "\n" for d in dirs[:n])
        wall, hwm, maxrss, code = measure([fakehost, "certify", listing, "--protocol",
                                           args.protocol, "--jobs", str(args.jobs), "--out",
                                           os.path.join(work, "out-%d" % n)] + only)
        if code not in (0, 1):
            print("certify exited %d" % code, file=sys.stderr)
            return 3
        row("certify, %d plugins" % n, wall, n, hwm, maxrss)

    alone = dirs if args.alone <= 0 else dirs[:: max(1, len(dirs) // args.alone)]
    total, peak_hwm, peak_max = 0.0, 0, 0
    for d in alone:
        wall, hwm, maxrss, _ = measure([fakehost, "run", "--protocol", args.protocol, "--plugin",
                                        d, "--jobs", str(args.jobs), "--out",
                                        os.path.join(work, "alone")] + only)
        total += wall
        peak_hwm, peak_max = max(peak_hwm, hwm), max(peak_max, maxrss)
    scaled = total * len(dirs) / len(alone)
    row("run alone, each of %d" % len(alone), scaled, len(dirs), peak_hwm, peak_max)
    subprocess.run(["rm", "-rf", work], check=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
