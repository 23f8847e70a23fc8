#!/usr/bin/env python3
"""Writes a corpus of N plugin directories for `fakehost certify`, from the built fixtures.

    bench/make_corpus.py --fixtures build/fixtures --protocol rim-v1 --count 100 --out /tmp/corpus

Every plugin is a variant of a fixture laid out by the build (fixtures/<protocol>/): the
reference and its conforming variants (three plugins in four), the broken fixtures (the
fourth; each with its `faults` file), and every twentieth plugin a manifest from the source
tree's broken-manifest/ (a plugin its host refuses). Each directory holds the manifest, the
fixture's fakehost.yaml and faults, and a hard link to the built program, so nothing is copied
but text. Flash plugins get their own ids (dev.corpus.NNN-name); RIM plugins keep the
reference's id, because the RIM fixture program answers only to that id (the matrix then keys
them by directory). Also writes OUT/corpus.txt, listing the directories one a line.
"""
import argparse
import json
import os
import shutil
import sys

MANIFEST = {"rim-v1": "rim-plugin.json", "flash-v1": "manifest.json"}


def program_of(protocol, manifest):
    """The manifest's program path, relative to its directory."""
    if protocol == "rim-v1":
        return manifest["entrypoint"]
    return manifest["exec"][0]


def sources(fixtures, source_tree, protocol):
    root = os.path.join(fixtures, protocol)
    good = [os.path.join(root, "reference")]
    for kind in ("variants",):
        d = os.path.join(root, kind)
        if os.path.isdir(d):
            good += [os.path.join(d, n) for n in sorted(os.listdir(d))]
    broken_dir = os.path.join(root, "broken")
    broken = [os.path.join(broken_dir, n) for n in sorted(os.listdir(broken_dir))]
    refused_dir = os.path.join(source_tree, "fixtures", protocol, "broken-manifest")
    refused = []
    if os.path.isdir(refused_dir):
        refused = [os.path.join(refused_dir, n) for n in sorted(os.listdir(refused_dir))]
    return good, broken, refused


def write_plugin(protocol, src, dst, index, program_from):
    manifest_name = MANIFEST[protocol]
    os.makedirs(dst)
    try:
        with open(os.path.join(src, manifest_name)) as f:
            manifest = json.load(f)
    except ValueError:  # a broken-manifest fixture that is not even JSON: copied as it is
        shutil.copyfile(os.path.join(src, manifest_name), os.path.join(dst, manifest_name))
        return
    name = os.path.basename(src)
    if protocol == "flash-v1" and isinstance(manifest.get("id"), str):
        manifest["id"] = "dev.corpus.%03d-%s" % (index, name)
    with open(os.path.join(dst, manifest_name), "w") as f:
        json.dump(manifest, f, indent=2)
    for extra in ("fakehost.yaml", "faults"):
        if os.path.exists(os.path.join(src, extra)):
            shutil.copyfile(os.path.join(src, extra), os.path.join(dst, extra))
    try:
        program = program_of(protocol, manifest)
    except (KeyError, IndexError, TypeError):
        return  # a broken manifest without a program: refused before anything runs
    if not isinstance(program, str) or "/" in program.lstrip("./") or program.startswith("/"):
        return
    target = os.path.join(program_from, program)
    if os.path.exists(target):
        # A hard link, not a symlink: an entrypoint that leads out of the plugin directory is
        # refused (entrypoint-inside resolves symlinks). A copy where linking is not possible.
        try:
            os.link(os.path.realpath(target), os.path.join(dst, program))
        except OSError:
            shutil.copy2(os.path.realpath(target), os.path.join(dst, program))


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--fixtures", required=True, help="build/fixtures")
    p.add_argument("--source", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    p.add_argument("--protocol", choices=sorted(MANIFEST), default="rim-v1")
    p.add_argument("--count", type=int, default=100)
    p.add_argument("--out", required=True)
    a = p.parse_args()
    good, broken, refused = sources(a.fixtures, a.source, a.protocol)
    reference = os.path.join(a.fixtures, a.protocol, "reference")
    if os.path.exists(a.out):
        shutil.rmtree(a.out)
    os.makedirs(a.out)
    dirs = []
    for i in range(a.count):
        if refused and i % 20 == 19:
            src = refused[(i // 20) % len(refused)]
            program_from = reference
        elif i % 4 == 3:
            src = broken[(i // 4) % len(broken)]
            program_from = src
        else:
            src = good[i % len(good)]
            program_from = src
        dst = os.path.join(a.out, "%03d-%s" % (i, os.path.basename(src)))
        write_plugin(a.protocol, src, dst, i, program_from)
        dirs.append(dst)
    with open(os.path.join(a.out, "corpus.txt"), "w") as f:
        f.write("# %d %s plugins written by bench/make_corpus.py\n" % (a.count, a.protocol))
        f.writelines(os.path.basename(d) + "\n" for d in dirs)
    print("%d plugins in %s" % (len(dirs), a.out))


if __name__ == "__main__":
    sys.exit(main())
