#!/usr/bin/env python3
"""The house rules a reviewer would otherwise count by hand (issue 32's measures, kept true):

1. No C++ function body is over 60 lines. Data tables (a `= {` initializer) are not functions;
   a lambda counts in the function that holds it.
2. A C++ file over 500 lines says why in its first 15 lines ("Over 500 lines").
3. docs/ARCHITECTURE.md names only what exists: every `path.cpp`-like name in backticks is a file
   of the tree, and every `Class::Member`, `Function()` or CamelCase name in backticks occurs in
   the sources.

Usage: house_rules.py SOURCE_DIR, exit 1 with each problem as file:line. house_rules.py
--self-test writes a tree that breaks each rule once (and keeps each bound exactly) and exits 0
only when the check finds exactly those problems: the check is shown to catch what it is for.
The C++ reading is lexical (comments and string literals blanked, braces counted), which the
house's clang-format layout makes reliable; a function it misreads is reported with its line.
"""
import os
import re
import sys
import tempfile

FUNCTION_MAX = 60
FILE_MAX = 500
CPP_DIRS = ("harness", "tests", "bench", "fuzz", "fixtures")
CPP_EXT = (".cpp", ".hpp", ".h", ".cc")
SOURCE_DIRS = CPP_DIRS + ("ci", "schema", "scenarios", "examples", "packaging")
SKIP_DIRS = {"node_modules", ".git", "__pycache__"}

# Comments and literals, blanked to "" with their newlines kept, so braces in them do not count.
LEXEMES = re.compile(r'R"(\w*)\((.*?)\)\1"|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|'
                     r'//[^\n]*|/\*.*?\*/', re.S)
SCOPE = re.compile(r"\b(namespace|class|struct|enum|union)\b")
# What precedes a function body's brace: the parameter list's `)` with its qualifiers and
# trailing return type, or a constructor's member initializers.
FUNCTION_HEAD = re.compile(r"\)\s*(const\s*)?(noexcept\s*)?(override\s*)?(final\s*)?"
                           r"(->\s*[\w:<>,&*\s]+)?$|\)\s*:[^;]*$")


def walk(root, dirs, exts=None):
    for top in dirs:
        for d, subdirs, files in os.walk(os.path.join(root, top)):
            subdirs[:] = sorted(x for x in subdirs if x not in SKIP_DIRS and not x.startswith("build"))
            for f in sorted(files):
                if exts is None or f.endswith(exts):
                    yield os.path.join(d, f)


def long_functions(text):
    """(first line, length) of each namespace- or class-level function body over FUNCTION_MAX."""
    code = LEXEMES.sub(lambda m: '""' + "\n" * m.group(0).count("\n"), text)
    stack, line, found = [], 1, []
    for i, c in enumerate(code):
        if c == "\n":
            line += 1
        elif c == "{":
            head = re.split(r"[;{}]", code[max(0, i - 400):i])[-1]
            if SCOPE.search(head) and "(" not in head:
                kind = "scope"
            elif "=" not in head.split(")")[-1] and FUNCTION_HEAD.search(head.rstrip()):
                kind = "function"
            else:
                kind = "block"
            stack.append((kind, line))
        elif c == "}" and stack:
            kind, start = stack.pop()
            if kind == "function" and all(k == "scope" for k, _ in stack):
                if line - start + 1 > FUNCTION_MAX:
                    found.append((start, line - start + 1))
    return found


def check_cpp(root, problems):
    for path in walk(root, CPP_DIRS, CPP_EXT):
        rel = os.path.relpath(path, root)
        text = open(path, encoding="utf-8", errors="replace").read()
        for start, length in long_functions(text):
            problems.append(f"{rel}:{start}: a function of {length} lines (at most {FUNCTION_MAX})")
        lines = text.splitlines()
        if len(lines) > FILE_MAX and not any("Over 500 lines" in l for l in lines[:15]):
            problems.append(f"{rel}:1: {len(lines)} lines, and its first 15 lines do not say why "
                            f"it is over {FILE_MAX} (\"Over 500 lines ...\")")


def check_architecture(root, problems):
    page = os.path.join(root, "docs", "ARCHITECTURE.md")
    files, sources = set(), []
    for path in walk(root, SOURCE_DIRS):
        rel = os.path.relpath(path, root)
        if os.path.basename(path) == os.path.basename(__file__):
            continue  # this script's own examples name nothing of the tree
        files.add(rel)
        files.add(os.path.basename(rel))
        try:
            sources.append(open(path, encoding="utf-8").read())
        except (UnicodeDecodeError, OSError):
            pass  # binaries
    corpus = "\n".join(sources)
    known = set(re.findall(r"\w+", corpus))
    fence = False
    for n, line in enumerate(open(page, encoding="utf-8"), 1):
        if line.startswith("```"):
            fence = not fence
        if fence:
            continue
        for name in re.findall(r"`([^`\n]+)`", line):
            if re.fullmatch(r"[\w./-]+\.(cpp|hpp|h|py|cmake|json|yaml)", name):
                if name not in files and not any(f.endswith("/" + name) for f in files):
                    problems.append(f"docs/ARCHITECTURE.md:{n}: `{name}` names no file of the tree")
                continue
            m = re.fullmatch(r"([A-Za-z_][\w:]*)(\(.*\))?", name)
            if not m or not ("::" in name or m.group(2) or re.search(r"[a-z][A-Z]|^[A-Z][a-z]", name)):
                continue
            ident = m.group(1).split("::")[-1]
            if ident and ident not in known:
                problems.append(f"docs/ARCHITECTURE.md:{n}: `{name}`: no `{ident}` in the sources")


def check(root):
    problems = []
    check_cpp(root, problems)
    check_architecture(root, problems)
    return problems


def self_test():
    body = lambda n: "".join(f"  x += {i};\n" for i in range(n - 2))  # n lines with the braces
    tree = {
        "harness/a.cpp": (
            "namespace a {\n"
            "int Fits(int x) {\n" + body(FUNCTION_MAX) + "}\n"            # exactly 60: kept
            "int TooLong(int x) noexcept {\n" + body(FUNCTION_MAX + 1) + "}\n"  # line 62: 61 lines
            "const int kTable[] = {\n" + "  1,\n" * 80 + "};\n"           # data: kept
            "}  // namespace a\n"),
        "harness/big.cpp": "// Over 500 lines, on purpose: one table.\n" + "int v;\n" * 600,
        "harness/huge.cpp": "int w;\n" * (FILE_MAX + 1),
        "docs/ARCHITECTURE.md": "`a.cpp` and `Fits()` exist; `gone.cpp` and `a::Vanished` do not.\n",
    }
    expected = {
        f"harness/a.cpp:{FUNCTION_MAX + 2}: a function of {FUNCTION_MAX + 1} lines",
        "harness/huge.cpp:1: 501 lines",
        "docs/ARCHITECTURE.md:1: `gone.cpp` names no file",
        "docs/ARCHITECTURE.md:1: `a::Vanished`: no `Vanished`",
    }
    with tempfile.TemporaryDirectory() as root:
        for rel, text in tree.items():
            os.makedirs(os.path.dirname(os.path.join(root, rel)), exist_ok=True)
            with open(os.path.join(root, rel), "w", encoding="utf-8") as f:
                f.write(text)
        problems = check(root)
    caught = {e for e in expected if any(p.startswith(e) for p in problems)}
    extra = [p for p in problems if not any(p.startswith(e) for e in expected)]
    for e in sorted(expected - caught):
        print(f"self-test: not caught: {e}")
    for p in extra:
        print(f"self-test: reported though the tree keeps the rule: {p}")
    print(f"house_rules self-test: {len(caught)} of {len(expected)} problems caught, {len(extra)} extra")
    return 0 if caught == expected and not extra else 1


if __name__ == "__main__":
    if sys.argv[1:] == ["--self-test"]:
        sys.exit(self_test())
    problems = check(os.path.abspath(sys.argv[1]))
    for p in problems:
        print(p)
    print(f"house_rules: {len(problems)} problems")
    sys.exit(1 if problems else 0)
