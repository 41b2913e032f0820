"""Players see checked examples and form labels, never Python.

The worked examples stay doctests in the Markdown (tests/test_doc_examples.py
runs them); rulebook/examples.py folds each into a collapsed box. Here:
every example of every page is in a closed <details> of the built HTML, no
page of the site shows `>>>` or a traceback to a reader on a phone (in
Chromium: innerText leaves out closed <details>), rules.json and the search
index quote no code, rulings name the form's fields and choices by their
labels rather than by parameter names, and the worker's status speaks of the
calculator, not of Python.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from markdown_it import MarkdownIt
from support.helpers import follow, sitemap_pages

from calculators.registry import all_calculators, all_trackers

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PYTHON_MARKS = (">>>", "Traceback", "python -m calculators", ".venv/bin")  # the last two: command-line help is for the README
PHONE = {"width": 360, "height": 740}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
RULING_LABELS = {"The text:", "Ruling:", "Alternative:"}  # the three paragraphs every ruling has

PARAMS = [p for calc in all_calculators().values() for p in calc.params]
REGISTRY_WORDS = {p.name for p in PARAMS} | {value for p in PARAMS for value, _ in p.choices}
FORM_LABELS = {p.label for p in PARAMS} | {label for p in PARAMS for _, label in p.choices}


def _tracker_labels(value) -> set[str]:
    """The labels a tracker's published vocabulary gives its forms: each "label" string, and the label of
    each (value, label) pair (its actions, fields and choices, as the page draws them)."""
    if isinstance(value, dict):
        found = {value["label"]} if isinstance(value.get("label"), str) else set()
        return found.union(*(_tracker_labels(v) for v in value.values()))
    if isinstance(value, (list, tuple)):
        pair = {value[1]} if len(value) == 2 and all(isinstance(v, str) for v in value) else set()
        return pair.union(*(_tracker_labels(v) for v in value))
    return set()


FORM_LABELS |= set().union(*(_tracker_labels(t.vocabulary()) for t in all_trackers().values() if t.vocabulary))


class Page(HTMLParser):
    """What a reader can see of one built page, and where its examples are."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, dict]] = []
        self.examples: list[bool] = []  # per example block: inside a closed <details>?
        self.ruling_code: list[str] = []  # <code> texts inside ruling boxes
        self.ruling_strong: list[str] = []  # <strong> texts inside ruling boxes
        self.shown: list[str] = []  # text outside closed <details> and scripts
        self._pre: list[str] | None = None
        self._inline: tuple[str, list[str]] | None = None

    def handle_starttag(self, tag, attrs):
        if tag in VOID:
            return
        attrs = {k: v or "" for k, v in attrs}
        self.stack.append((tag, attrs))
        if tag == "pre":
            self._pre = []
        elif tag in ("code", "strong") and self._in_ruling() and self._pre is None:
            self._inline = (tag, [])

    def handle_endtag(self, tag):
        if tag not in (t for t, _ in self.stack):
            return
        while self.stack:
            closed, _ = self.stack.pop()
            self._close(closed)
            if closed == tag:
                break

    def _close(self, tag):
        if tag == "pre" and self._pre is not None:
            text = "".join(self._pre)
            if re.search(r"^>>> ", text, re.M):
                self.examples.append(self._hidden())
            self._pre = None
        elif self._inline and tag == self._inline[0]:
            text = " ".join("".join(self._inline[1]).split())
            (self.ruling_code if tag == "code" else self.ruling_strong).append(text)
            self._inline = None

    def handle_data(self, data):
        if self._pre is not None:
            self._pre.append(data)
        if self._inline:
            self._inline[1].append(data)
        if not self._hidden() and not any(t in ("script", "style", "template") for t, _ in self.stack):
            self.shown.append(data)

    def _hidden(self) -> bool:
        """Inside a closed <details>, but not its <summary> (which stays in view)?"""
        for i, (tag, attrs) in enumerate(self.stack):
            if tag == "details" and "open" not in attrs:
                return not (i + 1 < len(self.stack) and self.stack[i + 1][0] == "summary")
        return False

    def _in_ruling(self) -> bool:
        return any(t == "div" and {"admonition", "ruling"} <= set(a.get("class", "").split()) for t, a in self.stack)


def parse(path: Path) -> Page:
    page = Page()
    page.feed(path.read_text(encoding="utf-8"))
    page.close()
    return page


def examples_in_source(md: Path) -> int:
    tokens = MarkdownIt("commonmark").parse(md.read_text(encoding="utf-8"))
    return sum(1 for t in tokens if t.type == "fence" and t.info.strip() == "pycon")


def built(site: Path, md: Path) -> Path:
    rel = md.relative_to(DOCS).with_suffix("")
    return site / (rel.parent if rel.name == "index" else rel) / "index.html"


def html_pages(site: Path) -> list[Path]:
    # Not the runtime, nor the r/<id>/ short links, which move on to their page at once.
    return sorted(p for p in site.rglob("*.html") if p.relative_to(site).parts[0] not in ("pyodide", "r"))


SOURCES = [md for md in sorted(DOCS.rglob("*.md")) if examples_in_source(md)]


@pytest.fixture(scope="module")
def parsed(site):
    return {path: parse(path) for path in html_pages(site)}


# ---------------------------------------------------------------- the hook


def test_an_indented_example_stays_in_its_list_item():
    from rulebook import examples as hook

    source = "1. A step:\n\n   ```pycon\n   >>> 1 + 1\n   2\n   ```\n\nAfter."
    assert hook.fold_examples(source, "x.md").split("\n") == [
        "1. A step:",
        "",
        f'   ??? example "{hook.TITLE}"',
        "",
        f"       ```{hook.PYCON_ATTRS}",
        "       >>> 1 + 1",
        "       2",
        "       ```",
        "",
        "",
        "After.",
    ]


# ---------------------------------------------------------------- the built HTML


@pytest.mark.parametrize("md", SOURCES, ids=lambda p: str(p.relative_to(DOCS)))
def test_every_example_is_folded_away(site, parsed, md):
    page = parsed[built(site, md)]
    assert len(page.examples) == examples_in_source(md), "an example was lost or doubled on its way to the page"
    assert all(page.examples), "an example is in view instead of in a closed box"


def test_no_page_shows_python_in_its_html(parsed, site):
    shown = {path.relative_to(site).as_posix(): "".join(page.shown) for path, page in parsed.items()}
    bad = [(path, mark) for path, text in shown.items() for mark in PYTHON_MARKS if mark in text]
    assert not bad


def test_rulings_name_form_labels_not_parameters(parsed, site):
    code, unknown = [], []
    for path, page in parsed.items():
        where = path.relative_to(site).as_posix()
        code += [(where, c) for c in page.ruling_code if c.split("=")[0].strip() in REGISTRY_WORDS]
        # a label may be said with a capital, as a ruling names it ("Votes on cards" for "Ana's votes on cards")
        unknown += [(where, s) for s in page.ruling_strong if s not in RULING_LABELS | FORM_LABELS and s[:1].lower() + s[1:] not in FORM_LABELS]
    assert not code, "a ruling names a parameter or a choice value; use the form's label"
    assert not unknown, "bold text in a ruling that is no label of any form (a label changed?)"


def test_rules_json_and_search_quote_no_code(site):
    rules = json.loads((site / "rules.json").read_text(encoding="utf-8"))
    assert not [r["id"] for r in rules if any(mark in r["text"] for mark in PYTHON_MARKS)]
    index = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))
    assert not [d["location"] for d in index["docs"] if any(m in d["text"].replace("&gt;", ">") for m in PYTHON_MARKS)]


def test_the_worker_speaks_of_the_calculator_not_of_python():
    statuses = [
        text
        for name in ("calc-worker.mjs", "late-stdlib.mjs")
        for text in re.findall(r'progress\(\s*"([^"]*)"', (ROOT / "runtime" / name).read_text(encoding="utf-8"))
    ]
    assert statuses and not [s for s in statuses if re.search(r"python|pyodide|snapshot|stdlib", s, re.I)]


# ---------------------------------------------------------------- in Chromium


@pytest.mark.browser
def test_no_page_shows_python_on_a_phone(browser, site, base_url):
    # No calculator runtime and no service worker: only what the pages show counts.
    context = browser.new_context(viewport=PHONE)
    context.route(re.compile(r"/pyodide/"), lambda route: route.abort())
    page = context.new_page()
    swapped = sitemap_pages(site)  # reached by a link, as a reader moves about (Material swaps them in)
    bad = []
    try:
        for k, path in enumerate(html_pages(site)):
            rel = path.relative_to(site).as_posix().removesuffix("index.html")
            url = base_url + rel
            if k and rel in swapped:
                follow(page, url)
            else:
                page.goto(url)
            text = page.evaluate("document.body.innerText")
            bad += [(url, mark) for mark in PYTHON_MARKS if mark in text] + [(url, "nothing shown")] * (not text.strip())
    finally:
        context.close()
    assert not bad


@pytest.mark.browser
def test_a_link_preview_keeps_the_example_folded(page, base_url):
    # Hovering a link (a desktop pointer) previews the rule it points to,
    # here Fractions round down, whose section holds two examples.
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(base_url + "tell-tale/keywords/")
    page.locator('a[href$="combat/#tt.combat.rounding"]').first.hover()
    preview = page.locator(".rule-preview", has_text="tt.combat.rounding")  # the site's own preview: first sentences
    preview.wait_for()
    text = preview.evaluate("el => el.innerText")
    assert not [mark for mark in PYTHON_MARKS if mark in text]
