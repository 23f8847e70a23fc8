#!/usr/bin/env python3
"""README.md and docs/: every relative link names a file of the repository (and, with #anchor, a
heading of that file), and no page points outside the repository (an absolute path on someone's
machine, or ../ out of the tree); nor does any file the package installs (schema/, scenarios/) or
a fixture's README. Usage: docs_links.py SOURCE_DIR. Exit 1 with each problem as file:line."""
import os
import re
import sys

root = os.path.abspath(sys.argv[1])
pages = [os.path.join(root, "README.md")]
for d, _, files in os.walk(os.path.join(root, "docs")):
    pages += [os.path.join(d, f) for f in files if f.endswith(".md")]

LINK = re.compile(r"\]\(([^)\s]+)\)")
OUTSIDE = re.compile(r"(?<![\w.])(/work/|/home/|/root/|\.\./shared/)")


def slug(heading):
    s = heading.strip().lower()
    s = re.sub(r"[`*_]", "", s)
    s = re.sub(r"[^\w\- ]", "", s)
    return s.replace(" ", "-")


def anchors(path):
    found, fence = set(), False
    for line in open(path, encoding="utf-8"):
        if line.startswith("```"):
            fence = not fence
        elif not fence and line.startswith("#"):
            found.add(slug(line.lstrip("#")))
    return found


problems = []
others = []
for sub in ("schema", "scenarios", "fixtures", "examples", "ci/templates"):
    for d, dirs, files in os.walk(os.path.join(root, sub)):
        # Installed packages (ci/mcp-servers' node_modules) are not the project's text.
        dirs[:] = [x for x in dirs if x != "node_modules"]
        others += [os.path.join(d, f) for f in files
                   if f.endswith((".json", ".yaml", ".yml", ".md", ".cmake", ".sh"))]
for path in sorted(others):
    with open(path, encoding="utf-8", errors="replace") as f:
        for n, line in enumerate(f, 1):
            if OUTSIDE.search(line) or "../../../shared/" in line:
                problems.append(f"{os.path.relpath(path, root)}:{n}: a path outside the repository")

for page in sorted(pages):
    rel = os.path.relpath(page, root)
    fence = False
    for n, line in enumerate(open(page, encoding="utf-8"), 1):
        if OUTSIDE.search(line):
            problems.append(f"{rel}:{n}: a path outside the repository: {line.strip()}")
        if line.startswith("```"):
            fence = not fence
        if fence:
            continue
        for target in LINK.findall(line):
            if re.match(r"[a-z]+:", target):
                continue  # https:, mailto:
            path, _, anchor = target.partition("#")
            dest = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
            if not dest.startswith(root + os.sep):
                problems.append(f"{rel}:{n}: {target} leaves the repository")
            elif not os.path.exists(dest):
                problems.append(f"{rel}:{n}: {target}: no such file")
            elif anchor and dest.endswith(".md") and anchor not in anchors(dest):
                problems.append(f"{rel}:{n}: {target}: no heading #{anchor} in {os.path.relpath(dest, root)}")

for p in problems:
    print(p)
print(f"docs_links: {len(pages)} pages and {len(others)} other files, {len(problems)} problems")
sys.exit(1 if problems else 0)
