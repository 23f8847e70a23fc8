#!/usr/bin/env python3
"""Every sentence a scenario cites is in the text of each revision it is cited for.

A scenario of a protocol with revisions (its profile lists `revisions`) says, in `cites:`, which
sentence of which revision it holds a plugin to:

    cites:
      - revisions: ["2025-06-18", "2025-11-25"]
        section: "Server Features › Tools › Error Handling"
        sentence: "Invalid cursors SHOULD result in an error with code -32602 (Invalid params)."

This test reads the texts (TEXTS/REV/**.mdx, markup removed: emphasis, code spans, links, HTML
tags, whitespace runs) and fails a scenario when

- a cited sentence is not found in the text of a revision it is cited for (" ... " joins
  excerpts of one passage: each must be found, in order, in one file);
- the level fakehost gives it is not the keyword of the sentence (RFC 2119: MUST, MUST NOT,
  REQUIRED, SHALL, SHALL NOT are must; SHOULD, SHOULD NOT, RECOMMENDED, NOT RECOMMENDED are
  should; MAY, OPTIONAL are may): the cite's `level` must be one of the sentence's keywords, and a
  sentence without one is no requirement at all;
- a step's own `level:` (other than a `use:` step's, the handshake's) is not the keyword of
  some sentence the scenario cites for that revision;
- a scenario of such a protocol cites nothing, or names a revision the profile does not know;
- a sentence the profile's always-on checks quote ('...' in a check's text, as worded for each
  revision by its `by_revision`) is not in the text of a revision it can be raised under
  (`before-handshake` only under a revision with a handshake), and so is each sentence of the
  profile's handshake.announced_before.

Usage: cited_sentences.py SUITE_DIR PROFILE_JSON TEXTS_DIR
Exit 0: every citation found; 1: the problems, one a line, FILE: what.
"""

import json
import pathlib
import re
import sys

import yaml

KEYWORDS = [  # longest first, so that "MUST NOT" is read before "MUST"
    ("NOT RECOMMENDED", "should"), ("MUST NOT", "must"), ("SHALL NOT", "must"),
    ("SHOULD NOT", "should"), ("REQUIRED", "must"), ("RECOMMENDED", "should"),
    ("MUST", "must"), ("SHALL", "must"), ("SHOULD", "should"), ("MAY", "may"),
    ("OPTIONAL", "may"),
]
KEYWORD_RE = re.compile(r"\b(" + "|".join(k for k, _ in KEYWORDS) + r")\b")
LEVEL_OF = dict(KEYWORDS)


def normalise(text):
    """The words of a text as a reader sees them: no markup, one space between words."""
    text = re.sub(r"<[^>\n]*>", " ", text)  # HTML and MDX tags
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)  # [text](url)
    text = re.sub(r"\[([^\]]*)\]\[[^\]]*\]", r"\1", text)  # [text][ref]
    text = text.replace("**", "").replace("`", "")
    text = re.sub(r"\\([\\`*_{}\[\]()#+\-.!|<>])", r"\1", text)  # markdown escapes: "\_" is "_"
    text = re.sub(r"(?<![\w*])\*(?=\S)([^*\n]+?)(?<=\S)\*(?![\w*])", r"\1", text)  # *emphasis*
    text = re.sub(r"(?<!\w)_(?=\S)([^_\n]+?)(?<=\S)_(?!\w)", r"\1", text)  # _emphasis_
    for a, b in (("\u2018", "'"), ("\u2019", "'"), ("\u201c", '"'), ("\u201d", '"'),
                 ("\u2026", "...")):
        text = text.replace(a, b)
    text = re.sub(r"^\s*(?:[-*+]|\d+\.|>|#+)\s+", " ", text, flags=re.M)  # list marks, headings
    return re.sub(r"\s+", " ", text).strip()


def levels_in(sentence):
    return {LEVEL_OF[m.group(1)] for m in KEYWORD_RE.finditer(normalise(sentence))}


class Texts:
    def __init__(self, root):
        self.root = pathlib.Path(root)
        self.cache = {}

    def files(self, revision):
        if revision not in self.cache:
            d = self.root / revision
            self.cache[revision] = [(p.relative_to(d).as_posix(), normalise(p.read_text()))
                                    for p in sorted(d.rglob("*.mdx"))] if d.is_dir() else None
        return self.cache[revision]

    def find(self, revision, sentence):
        """The file holding every excerpt of the sentence in order, or None."""
        parts = [normalise(p) for p in re.split(r"\s*(?:\.\.\.|\u2026)\s*", sentence)]
        parts = [p for p in parts if p]
        for name, text in self.files(revision) or []:
            at = 0
            for part in parts:
                at = text.find(part, at)
                if at < 0:
                    break
                at += len(part)
            else:
                return name
        return None


def step_levels(steps):
    """The explicit `level:` of every step but `use:`, inside for_each too."""
    for step in steps or []:
        if not isinstance(step, dict):
            continue
        if "level" in step and "use" not in step:
            yield step["level"]
        if isinstance(step.get("for_each"), dict):
            yield from step_levels(step["for_each"].get("steps"))


def check_scenario(path, doc, known, texts, problems):
    def problem(what):
        problems.append(f"{path}: {what}")

    cites = doc.get("cites")
    if not isinstance(cites, list) or not cites:
        problem("cites nothing: a scenario of a protocol with revisions cites the sentence of "
                "each revision it applies to (cites: [{revisions, section, sentence}])")
        return
    levels_by_revision = {}
    for i, cite in enumerate(cites):
        where = f"cites[{i}]"
        revisions, sentence = cite.get("revisions"), cite.get("sentence")
        if not isinstance(revisions, list) or not revisions or not isinstance(sentence, str):
            problem(f"{where} needs revisions (a list) and sentence")
            continue
        if not isinstance(cite.get("section"), str) or not cite["section"]:
            problem(f"{where} needs section (where the sentence is, as the text's headings say)")
        found = levels_in(sentence)
        if not found:
            problem(f"{where}: \"{sentence[:80]}\" has no keyword (MUST, SHOULD, MAY, ...): a "
                    "sentence without one is no requirement, at most a note")
            continue
        level = cite.get("level")
        if level is None and len(found) > 1:
            problem(f"{where}: the sentence has keywords of levels {sorted(found)}; say which one "
                    "this scenario checks with level:")
            continue
        level = level or next(iter(found))
        if level not in found:
            problem(f"{where}: level {level} is not a keyword of the sentence (it has "
                    f"{sorted(found)})")
        for rev in revisions:
            if rev not in known:
                problem(f"{where}: revision {rev} is not one the profile knows ({', '.join(known)})")
                continue
            if texts.files(rev) is None:
                problem(f"{where}: no text of revision {rev} under {texts.root}")
                continue
            if not texts.find(rev, sentence):
                problem(f"{where}: not in the text of {rev}: \"{normalise(sentence)}\"")
            levels_by_revision.setdefault(rev, set()).add(level)
    for level in set(step_levels(doc.get("steps"))):
        for rev, cited in sorted(levels_by_revision.items()):
            if level not in cited:
                problem(f"a step is {level}-level, but no sentence the scenario cites for {rev} "
                        f"has that keyword (cited: {sorted(cited)})")


QUOTE_RE = re.compile(r"(?<![A-Za-z])'([^']+?)'(?![A-Za-z])")


def check_wordings(profile, texts, problems):
    """Every sentence an always-on check quotes, found in each revision it is worded for."""
    count = 0
    for check, entry in profile.get("checks", {}).items():
        if check.startswith("$"):
            continue
        for rev in profile["revisions"]["known"]:
            if check == "before-handshake" and rev.get("handshake", True) is False:
                continue  # no handshake under that revision: never raised
            wording = next((w for w in entry.get("by_revision", []) if rev["name"] in w["revisions"]),
                           entry)
            for quoted in QUOTE_RE.findall(wording["text"]):
                if quoted.startswith("${"):
                    continue  # a sentence the engine fills in: checked where the profile holds it
                count += 1
                if texts.files(rev["name"]) is None:
                    problems.append(f"profile checks/{check}: no text of {rev['name']}")
                elif not texts.find(rev["name"], quoted):
                    problems.append(f"profile checks/{check}: '{quoted}' is not in the text of "
                                    f"{rev['name']} (word it for that revision in by_revision)")
    # What the plugin must have announced before a notification: each sentence, every revision.
    before = profile.get("handshake", {}).get("announced_before", {})
    for method, rule in before.items():
        if method.startswith("$"):
            continue
        for rev in profile["revisions"]["known"]:
            count += 1
            if not texts.find(rev["name"], rule["sentence"]):
                problems.append(f"profile handshake.announced_before/{method}: '{rule['sentence']}'"
                                f" is not in the text of {rev['name']}")
    return count


def main(argv):
    if len(argv) != 4:
        print(__doc__.split("\n\n")[-2], file=sys.stderr)
        return 2
    suite, profile, texts_dir = pathlib.Path(argv[1]), json.load(open(argv[2])), argv[3]
    known = [r["name"] for r in profile.get("revisions", {}).get("known", [])]
    if not known:
        print(f"{argv[2]}: the profile lists no revisions", file=sys.stderr)
        return 2
    texts, problems, count = Texts(texts_dir), [], 0
    for path in sorted(suite.rglob("*.yaml")):
        if "fragments" in path.relative_to(suite).parts:
            continue
        count += 1
        check_scenario(path.relative_to(suite.parent), yaml.safe_load(path.read_text()), known,
                       texts, problems)
    quotes = check_wordings(profile, texts, problems)
    for p in problems:
        print(p)
    print(f"{count} scenarios, {quotes} sentences quoted by checks, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
