#!/usr/bin/env python3
"""Builds the fuzz seed corpora from the repository's own files.

Usage: make_seeds.py SOURCE_DIR OUT_DIR

OUT_DIR/json             every frame example in the protocol schemas, and small JSON files
OUT_DIR/length_prefixed  those examples framed as RIM v1 does (u32 LE length + payload)
OUT_DIR/ndjson           those examples as NDJSON lines
OUT_DIR/scenario         every scenario file of both suites
OUT_DIR/plugin_config    every fakehost.yaml (fixtures, examples)
OUT_DIR/manifest         every manifest of the fixtures and examples
Files under SOURCE_DIR/fuzz/regressions/<corpus>/ are copied in too: inputs that once crashed.
"""
import hashlib
import json
import pathlib
import shutil
import struct
import sys

MAX_SEED = 8192  # libFuzzer's default -max_len is the largest seed: keep runs fast


def examples(node):
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "examples" and isinstance(value, list):
                yield from value
            yield from examples(value)
    elif isinstance(node, list):
        for value in node:
            yield from examples(value)


def fdp_trailer(limit, pieces):
    """Bytes that wire_fuzz.cpp's FuzzedDataProvider reads back (from the end) as: limit in
    [0, 300], no huge limit, then the piece sizes, each in [0, 300]."""
    consumed = [limit >> 8, limit & 0xFF, 0, len(pieces)]
    for p in pieces:
        consumed += [p >> 8, p & 0xFF]
    return bytes(reversed(consumed))


def write(folder, data, limit=MAX_SEED):
    folder.mkdir(parents=True, exist_ok=True)
    if len(data) <= limit:
        (folder / hashlib.sha1(data).hexdigest()).write_bytes(data)


def main():
    src, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    if out.exists():
        shutil.rmtree(out)
    frames = []
    for schema in sorted(src.glob("schema/*/plugin-protocol-v1.schema.json")):
        frames += [json.dumps(e, separators=(",", ":")).encode() for e in
                   examples(json.loads(schema.read_text()))]
    for path in sorted(src.glob("schema/**/*.json")) + sorted(src.glob("fixtures/**/*.json")):
        write(out / "json", path.read_bytes())
    for i, frame in enumerate(frames):
        write(out / "json", frame)
        batch = frames[i:i + 3]
        pieces = [i % 7 + 1, 5, 40][: i % 4]
        write(out / "length_prefixed",
              b"".join(struct.pack("<I", len(f)) + f for f in batch) + fdp_trailer(300, pieces))
        write(out / "ndjson", b"".join(f + b"\n" for f in batch) + fdp_trailer(300, pieces))
        write(out / "content_length",
              b"".join(b"Content-Length: %d\r\n\r\n" % len(f) + f for f in batch) +
              fdp_trailer(300, pieces))
    for path in sorted(src.glob("scenarios/**/*.yaml")):
        write(out / "scenario", path.read_bytes())
    for path in sorted(src.glob("**/fakehost.yaml")):
        write(out / "plugin_config", path.read_bytes())
    for name in ("rim-plugin.json", "manifest.json"):
        for path in sorted(src.glob("fixtures/**/" + name)) + sorted(src.glob("examples/**/" + name)):
            write(out / "manifest", path.read_bytes())
    # The profiles are 26-40 KiB: fuzz_profile runs with -max_len=65536 (fuzz/CMakeLists.txt), and
    # without them as seeds it starts from nothing and rarely reaches a loadable profile.
    for path in sorted(src.glob("schema/*/profile.json")):
        write(out / "profile", path.read_bytes(), limit=65536)
    for case in (b"a\nb\n# comment\n\n./c\n/abs/d\n", b"../up\n  spaced  \n", b"x\r\ny\r\n"):
        write(out / "corpus_list", case)
    for path in sorted(src.glob("tests/golden/*.jsonl")):
        write(out / "transcript", path.read_bytes())
    # Template expansion: a line of variables, then a template (template_fuzz.cpp).
    for case in (b'{"big":"xxxxxxxx","n":[1,{"a":2}],"o":{"k":"v"}}\n'
                 b'{"a":"${big}${big}","b":["${n}","${o}",{"c":"${n}-${o}"}],"d":"$${x}"}',
                 b'{"s":"0123456789abcdef"}\n["${s}","${s}","${s}","${s}","${s}${s}${s}${s}"]',
                 b'{"deep":[[[[[[1]]]]]]}\n[[[[[[[[[["${deep}"]]]]]]]]]]',
                 b'{}\n{"unknown":"${nope}","bad":"${a b}"}'):
        write(out / "template", case)
    for path in sorted(src.glob("fuzz/regressions/*/*")):
        write(out / path.parent.name, path.read_bytes())
    (out / "stamp").write_text("")


if __name__ == "__main__":
    main()
