#!/usr/bin/env python3
"""Checks reports written from hostile results (report_hostile_test.cpp) with real parsers.

Usage: report_hostile_check.py DIR   (DIR holds report.junit.xml, report.json, report.md,
report.html). Prints one line per problem and exits 1 if there is any.
"""
import json
import os
import shutil
import subprocess
import re
import sys
import xml.etree.ElementTree as ET

problems = []


def check(ok, what):
    if not ok:
        problems.append(what)


def junit(path):
    raw = open(path, "rb").read()
    check(b"<![CDATA[" not in raw, "junit: contains a CDATA section")
    check(re.search(rb"[\x00-\x08\x0b\x0c\x0e-\x1f]", raw) is None,
          "junit: contains a control character XML 1.0 forbids")
    root = ET.fromstring(raw)  # raises on anything that is not well-formed XML
    check(root.tag == "testsuites", "junit: root is " + root.tag)
    cases = root.findall("./testsuite/testcase")
    check(len(cases) == 6, "junit: %d testcases" % len(cases))
    for c in cases:
        check(c.get("name") and c.get("classname"), "junit: a testcase without name/classname")
    failed = [c for c in cases if c.find("failure") is not None]
    check(len(failed) == 1, "junit: %d failures" % len(failed))
    if failed:
        f = failed[0].find("failure")
        message = f.get("message")
        check("</script>" in message and "]]>" in message, "junit: hostile text lost: " + message[:80])
        check(len(f.text or "") > 1 << 20, "junit: the 1 MiB message was cut from the body")
        out = failed[0].find("system-out").text
        check("PWNED" in out and "<!--" in out, "junit: system-out lost the hostile text")
    check(len(root.findall(".//error")) == 1, "junit: harness error is not one <error>")
    check(len(root.findall(".//skipped")) == 2, "junit: skip and not-run are not both <skipped>")


def report_json(path):
    data = json.load(open(path, encoding="utf-8"))
    messages = [f["message"] for s in data["scenarios"] for f in s["failures"]]
    check(any(m.startswith("</script><script>") for m in messages), "json: hostile text lost")


# Code spans (CommonMark: a run of N backticks up to the next run of exactly N) hold only the
# report's own ids and paths; they are removed before looking for raw HTML.
CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`).*?(?<!`)\1(?!`)")
ALLOWED_TAGS = re.compile(r"</?(details|summary)>|<br>")


def markdown(path):
    text = open(path, encoding="utf-8").read()
    check(len(text.encode()) < 1 << 20, "markdown: over GitHub's 1 MiB step-summary limit")
    fence = None
    for n, line in enumerate(text.split("\n"), 1):
        if fence is None:
            m = re.match(r"^(`{3,})", line)
            if m:
                fence = m.group(1)
                continue
            rest = ALLOWED_TAGS.sub("", CODE_SPAN.sub("", line))
            check("<" not in rest, "markdown:%d: raw '<' outside a code block: %s" % (n, line[:100]))
            check(not re.match(r"^\s*(#|::|\* |- \*\*|>)", line) or line.startswith(("#### ", "### ", "## ", "- **")),
                  "markdown:%d: plugin text starts a block: %s" % (n, line[:100]))
        else:
            if re.match(r"^`{3,}\s*$", line) and len(line.strip()) >= len(fence):
                if line.strip() == fence:
                    fence = None
                else:
                    problems.append("markdown:%d: a longer fence inside a block" % n)
            elif line.startswith(fence):
                problems.append("markdown:%d: content line starts with the fence" % n)
    check(fence is None, "markdown: a code block is left open")


def rendered_markdown(path):
    """The Markdown as GitHub renders a step summary (cmark-gfm with its extensions): no link, no
    image, no raw HTML, and no @mention or autolinked address outside code."""
    cmark = shutil.which("cmark-gfm")
    if cmark is None:
        if os.environ.get("FAKEHOST_NEED_CMARK"):
            problems.append("markdown: cmark-gfm is not installed (./ci/test installs it)")
        return
    # --unsafe: raw HTML kept as GitHub keeps it (then sanitised), so any element is seen.
    out = subprocess.run([cmark, "--unsafe", "--extension", "autolink", "--extension", "table",
                          "--extension", "strikethrough", "--extension", "tagfilter", path],
                         capture_output=True, text=True, check=True).stdout
    check("<a " not in out and "<a>" not in out, "markdown rendered: a link: %s" % _around(out, "<a"))
    check("<img" not in out, "markdown rendered: an image: %s" % _around(out, "<img"))
    check("raw HTML omitted" not in out, "markdown rendered: raw HTML: %s" % _around(out, "raw HTML"))
    prose = re.sub(r"<code>.*?</code>|<pre>.*?</pre>", "", out, flags=re.S)
    for m in re.finditer(r"(?<![\w`])@[A-Za-z0-9_-]", prose):
        problems.append("markdown rendered: an @mention outside code: %s" % prose[max(0, m.start() - 40):m.end() + 20])
    # GitHub links more than cmark-gfm does (a host without a dot): no address outside code.
    for m in re.finditer(r"://|www\.|\b[\w.+-]+@[\w-]+\.", prose):
        problems.append("markdown rendered: an address outside code: %s" % prose[max(0, m.start() - 40):m.end() + 20])
    for tag in re.findall(r"<(/?[a-z0-9]+)", prose):
        check(tag.lstrip("/") in ("h2", "h3", "h4", "p", "strong", "em", "ul", "li", "table", "thead",
                                  "tbody", "tr", "th", "td", "details", "summary", "br", "code", "pre"),
              "markdown rendered: a <%s> element outside code" % tag)


def _around(text, needle):
    i = text.find(needle)
    return text[max(0, i - 60):i + 80] if i >= 0 else ""


def html(path):
    text = open(path, encoding="utf-8").read()
    check(text.count("<script") == 2, "html: %d <script tags" % text.count("<script"))
    check(text.count("</script") == 2, "html: %d </script tags" % text.count("</script"))
    check("<!--" not in text, "html: contains <!--")
    m = re.search(r'<script type="application/json" id="fakehost-data">(.*?)</script>', text, re.S)
    check(m is not None, "html: no data element")
    if m:
        data = json.loads(m.group(1))
        check(data["plugin"]["id"].startswith("</script>"), "html: data lost the hostile text")


def main():
    d = sys.argv[1]
    for f, name in ((junit, "report.junit.xml"), (report_json, "report.json"),
                    (markdown, "report.md"), (rendered_markdown, "report.md"),
                    (html, "report.html")):
        try:
            f(d + "/" + name)
        except Exception as e:  # a parse error is the finding
            problems.append("%s: %s: %s" % (name, type(e).__name__, e))
    for p in problems:
        print(p)
    print("%d problems" % len(problems))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
