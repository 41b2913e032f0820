"""The rulebook refuses what would publish a broken link or a live title, naming the file and line: a
duplicate rule ID, a link to an unknown rule, a title with HTML, an unknown calculator or one used twice, a
wrong shortcode, markup the reader would see as text (called directly: `refused`). Pages are rendered by the
rulebook's Markdown extension under Python-Markdown (`rendered`: markup in code left as text, a ruling's box
and its term links, a calculator fence closing the box, a link in a note). Three MkDocs mini builds keep the
adapter honest: a mistake fails the build with the rulebook's sentence; a title is plain text through the
build and the finishing command; each page is read once by markdown-it, and each built page once by
html.parser."""

from __future__ import annotations

import io
import json
import logging
import re
import subprocess
import sys
import traceback
from pathlib import Path

import pytest
from support.rulepages import ROOT

from calculators.games import GAMES

CONFIG = """site_name: Mini
site_url: http://127.0.0.1:8000/
docs_dir: docs
theme: {theme}
hooks:
  - {root}/hooks/rule_markup.py
{extra_hooks}markdown_extensions:
  - rulebook.extension
  - attr_list
  - admonition
  - md_in_html
  - tables
  - toc
  - pymdownx.details
  - pymdownx.superfences:
      custom_fences:
        - name: calculator
          class: calculator
          format: !!python/name:rulebook.extension.calculator_fence
nav:
  - tell-tale/index.md
  - tell-tale/b.md
"""
GOOD_A = "# A\n\nr[tt.mini.one] One\nThe first rule. See [[tt.mini.two]].\n"
GOOD_B = "# B\n\nr[tt.mini.two] Two\nThe second rule, after [[tt.mini.one|the first]].\n"


def haste_pages() -> dict[str, str]:
    """The rules the Haste calculator cites, the rulings its game's settings
    name, and that game's table settings page: what a site with it needs."""
    from calculators.registry import all_calculators

    calcs = all_calculators()
    cited = set(calcs["tell_tale.haste_speed"].rules)
    cited |= {p.ruling for name, calc in calcs.items() if name.startswith("tell_tale.") for p in calc.params if p.ruling}
    rules = "".join(f"r[{rid}] Rule {rid.split('.')[-1]}\nText.\n\n" for rid in sorted(cited))
    return {"cited.md": f"# Cited\n\n{rules}", "table-settings.md": "# Settings\n\n{{ table-settings tt }}\n"}


def write_site(tmp_path: Path, a: str, b: str, pages: dict[str, str] | None = None, extra_hooks: str = "",
               theme: str = f"{{name: material, custom_dir: {ROOT}/overrides}}") -> Path:
    """The mini site's docs/tell-tale/ (index.md is `a`, b.md `b`, and `pages`) and its mkdocs.yml."""
    docs = tmp_path / "docs" / "tell-tale"
    docs.mkdir(parents=True)
    (docs / "index.md").write_text(a)
    (docs / "b.md").write_text(b)
    for name, text in (pages or {}).items():
        (docs / name).write_text(text)
    hooks = "".join(f"  - {ROOT}/hooks/{hook}\n" for hook in extra_hooks.split())
    (tmp_path / "mkdocs.yml").write_text(CONFIG.format(root=ROOT, extra_hooks=hooks, theme=theme))
    return tmp_path / "mkdocs.yml"


def build(tmp_path: Path, a: str, b: str, pages: dict[str, str] | None = None, extra_hooks: str = "",
          theme: str = f"{{name: material, custom_dir: {ROOT}/overrides}}") -> subprocess.CompletedProcess:
    return mkdocs_build(write_site(tmp_path, a, b, pages, extra_hooks, theme))


def refused(tmp_path: Path, a: str, b: str, pages: dict[str, str] | None = None) -> str:
    """What the rulebook says of the mini site as a build reads it, before any page is rendered: the sentence
    of its MarkupError, which MkDocs's build fails with (test_a_mistake_fails_the_build_with_the_rulebooks_sentence)."""
    from rulebook.extension import read_sources
    from rulebook.markup import MarkupError

    config = write_site(tmp_path, a, b, pages)
    with pytest.raises(MarkupError) as err:
        read_sources(tmp_path / "docs", config, runtime="pyodide/mini/")
    return str(err.value)


def mkdocs_build(config: Path) -> subprocess.CompletedProcess:
    """`mkdocs build --strict` of `config`, run in this process: what the command does (mkdocs/__main__.py's
    build_command) and what it would print, its log and its error, as the command's exit status and stderr.
    A mini build in a process of its own cost a second of imports, 28 times over."""
    from mkdocs.commands.build import build as mkdocs
    from mkdocs.config import load_config
    from mkdocs.exceptions import MkDocsException

    said = io.StringIO()
    handler = logging.StreamHandler(said)
    handler.setFormatter(logging.Formatter("%(levelname)-7s -  %(message)s"))
    handler.setLevel(logging.WARNING)
    log = logging.getLogger("mkdocs")
    log.addHandler(handler)
    status = 0
    try:
        cfg = load_config(str(config), strict=True)
        cfg.plugins.on_startup(command="build", dirty=False)
        try:
            mkdocs(cfg)
        finally:
            cfg.plugins.on_shutdown()
    except MkDocsException as err:  # the command prints its message and exits with 1
        status = 1
        said.write(f"{err}\n")
    except Exception:  # the command would show the traceback; so does stderr here
        status = 1
        said.write(traceback.format_exc())
    finally:
        log.removeHandler(handler)
    return subprocess.CompletedProcess(["mkdocs", "build", "--strict"], status, "", said.getvalue())


def finished(tmp_path: Path) -> dict[str, dict]:
    """The mini site finished (rulebook.site, without the runtime: no Node here) and its rules.json by ID."""
    done = subprocess.run([sys.executable, "-m", "rulebook.site", "finish", "site", "--docs", "docs", "--config", "mkdocs.yml",
                           "--no-calculators"], cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return {r["id"]: r for r in json.loads((tmp_path / "site" / "rules.json").read_text())}


def rendered(tmp_path: Path, a: str, b: str, pages: dict[str, str] | None = None,
             src: str = "tell-tale/index.md") -> tuple[str, str]:
    """Page `src` of the mini site as the rulebook's extension renders it under Python-Markdown, with the
    extensions mkdocs.yml names (no MkDocs: its links to .md files stay so): its HTML and table of contents."""
    import markdown

    from rulebook.book import directory_url
    from rulebook.extension import BookBuild, calculator_fence
    from rulebook.pages import without_front_matter
    from rulebook.render import Place

    config = write_site(tmp_path, a, b, pages)
    book_build = BookBuild(tmp_path / "docs", config, runtime="pyodide/mini/")
    url = directory_url(src)
    book_build.page = Place(url, url, src)
    fence = {"name": "calculator", "class": "calculator", "format": calculator_fence}
    md = markdown.Markdown(extensions=["rulebook.extension", "attr_list", "admonition", "md_in_html", "tables", "toc",
                                       "pymdownx.details", "pymdownx.superfences"],
                           extension_configs={"rulebook.extension": {"build": book_build},
                                              "pymdownx.superfences": {"custom_fences": [fence]}})
    html = md.convert(without_front_matter((tmp_path / "docs" / src).read_text(encoding="utf-8")))
    return html, md.toc


def built(tmp_path: Path, page: str) -> str:
    return (tmp_path / "site" / "tell-tale" / page / "index.html").read_text()


def test_a_mistake_fails_the_build_with_the_rulebooks_sentence(tmp_path):
    """MkDocs's adapter turns the rulebook's refusal into the build's one-sentence error; the tests below call the
    rulebook itself."""
    proc = build(tmp_path, GOOD_A + "\nr[tt.mini.one] Again\nText.\n", GOOD_B)
    assert proc.returncode != 0
    assert "tell-tale/index.md:6: rule ID tt.mini.one is used twice" in proc.stderr and "Traceback" not in proc.stderr


def test_duplicate_rule_id_on_one_page_names_both_lines(tmp_path):
    said = refused(tmp_path, GOOD_A + "\nr[tt.mini.one] Again\nText.\n", GOOD_B)
    assert "tell-tale/index.md:6: rule ID tt.mini.one is used twice: on this page, at lines 3 and 6" in said


def test_duplicate_rule_id_on_two_pages_names_both(tmp_path):
    said = refused(tmp_path, GOOD_A, GOOD_B.replace("tt.mini.two] Two", "tt.mini.one] Two"))
    assert "tell-tale/b.md:3: rule ID tt.mini.one is used twice: also at tell-tale/index.md:3" in said


def test_link_to_unknown_rule_is_refused_with_its_line(tmp_path):
    said = refused(tmp_path, GOOD_A.replace("[[tt.mini.two]]", "[[tt.mini.three]]"), GOOD_B)
    assert "tell-tale/index.md:4: link to unknown rule ID tt.mini.three" in said


def test_rule_in_another_games_folder_is_refused(tmp_path):
    said = refused(tmp_path, GOOD_A.replace("tt.mini.one", "tal.mini.one").replace("[[tt.mini.two]]", ""), GOOD_B.replace("[[tt.mini.one|the first]]", ""))
    assert "tell-tale/index.md:3: rule ID tal.mini.one" in said and "docs/talislanta/" in said


def test_a_malformed_id_is_refused_with_its_line(tmp_path):
    said = refused(tmp_path, GOOD_A + "\nr[TT.Mini] Shouting\nText.\n", GOOD_B)
    assert "tell-tale/index.md:6: malformed rule ID 'TT.Mini'" in said


def test_links_in_code_stay_text(tmp_path):
    code = ("\nWrite `[[tt.mini.nowhere]]` for a link.\n\n```text\n[[tt.mini.nowhere]]\n```\n\n"
            "    [[tt.mini.nowhere|indented]]\n\nAnd ``[[tt.mini.two]]`` too, but [[tt.mini.two]] links.\n")
    html, _ = rendered(tmp_path, GOOD_A + code, GOOD_B)  # an unknown ID in code is no link, so no error
    assert "<code>[[tt.mini.nowhere]]</code>" in html and "<code>[[tt.mini.two]]</code>" in html
    assert "<code>[[tt.mini.nowhere]]\n" in html and "<pre><code>[[tt.mini.nowhere|indented]]" in html  # fenced, indented
    assert html.count('href="b.md#tt.mini.two"') == 2  # the links outside code: in the first rule, and after the code


@pytest.mark.parametrize("title", ["<img src=x onerror=alert(1)>", "Bold <b>move</b>", "Sneaky <!-- comment -->"])
def test_a_title_with_html_is_refused_with_its_line(tmp_path, title):
    said = refused(tmp_path, GOOD_A.replace("] One", f"] One {title}"), GOOD_B)
    assert "tell-tale/index.md:3: the title of tt.mini.one has HTML in it" in said and "plain text" in said


def test_a_title_is_plain_text_in_its_heading_links_and_rules_json_and_its_text_leaves_out_examples(tmp_path):
    """Through MkDocs and the finishing command: a title shows exactly as written; rules.json gives a rule's
    words without its folded examples, and its short address."""
    title = r"Fire & *ice* [1] _x_ \o/ {#id} &lt;b&gt;"
    example = "\n```pycon\n>>> 1 + 1\n2\n```\n\nAfter the example.\n"
    proc = build(tmp_path, GOOD_A + example, GOOD_B.replace("] Two", f"] {title}"))
    assert proc.returncode == 0, proc.stderr
    heading = re.search(r"<h2 [^>]*id=\"tt\.mini\.two\"[^>]*>(.*?)</h2>", built(tmp_path, "b")).group(1)
    link = re.search(r'<a [^>]*href="b/#tt\.mini\.two"[^>]*>(.*?)</a>', built(tmp_path, "")).group(1)
    escaped = r"Fire &amp; *ice* [1] _x_ \o/ {#id} &amp;lt;b&amp;gt;"
    assert heading == link == escaped  # shown exactly as written: no tag, no emphasis, no entity
    rules = finished(tmp_path)
    assert rules["tt.mini.two"]["title"] == title
    text = rules["tt.mini.one"]["text"]
    assert text.startswith("The first rule.") and text.endswith("After the example.") and "Checked example" not in text
    assert rules["tt.mini.one"]["short"] == "r/tt.mini.one/"


RULING = """ruling[tt.ruling.both] Both at once
**The text:** silent. **Ruling:** pick **Fighter mode**. **Alternative:** a Fighter decides.
"""
TERM = "r[tt.glossary.fighter] Fighter\nOne who fights.\n"


def test_a_ruling_heading_has_both_classes_and_bold_labels_link_no_terms(tmp_path):
    html, _ = rendered(tmp_path, GOOD_A + "\n" + RULING, GOOD_B + "\n" + TERM)
    assert re.search(r'<h2 class="rule ruling" id="tt\.ruling\.both"', html)
    assert "<strong>Fighter mode</strong>" in html  # a form's label, quoted: not a term
    assert 'a <a class="term" href="b/#tt.glossary.fighter">Fighter</a> decides' in html


def test_a_calculator_fence_closes_the_ruling_box_and_has_its_heading(tmp_path):
    fence = "\n```calculator\ntell_tale.haste_speed\n```\n\nAfter the form.\n"
    html, toc = rendered(tmp_path, GOOD_A + "\n" + RULING + fence, GOOD_B, haste_pages())
    box = html.index('<div class="admonition ruling">')
    heading = html.index('<h2 class="calc-heading" id="calc-tell-tale-haste-speed">Calculator: ')
    form = html.index('<form class="calc" data-calculator="tell_tale.haste_speed"')
    assert box < html.index("</div>", box) < heading < form, "the form is inside the ruling's box"
    assert 'href="#calc-tell-tale-haste-speed"' in toc
    assert "```calculator" not in html and "tell_tale.haste_speed</code>" not in html


@pytest.mark.parametrize("name", ["tell_tale.no_such_thing", "nothing"])
def test_unknown_calculator_is_refused_with_its_line(tmp_path, name):
    said = refused(tmp_path, GOOD_A + f"\n```calculator\n{name}\n```\n", GOOD_B)
    assert f"tell-tale/index.md:6: unknown calculator '{name}'" in said


def test_a_calculator_used_twice_is_refused_with_its_line(tmp_path):
    fence = "\n```calculator\ntell_tale.haste_speed\n```\n"
    said = refused(tmp_path, GOOD_A + fence + fence, GOOD_B)
    assert "tell-tale/index.md:10: calculator tell_tale.haste_speed is twice on that page, at lines 6 and 10" in said


def test_an_unclosed_example_is_refused_with_its_line(tmp_path):
    said = refused(tmp_path, GOOD_A + "\n```pycon\n>>> 1\n", GOOD_B)
    assert "tell-tale/index.md:6: a ```pycon fence is never closed" in said


@pytest.mark.parametrize("markup, line, said", [
    ('!!! note "Note"\n    First paragraph.\n\n    ruling[tt.mini.three] Three\n', 9, "ruling[tt.mini.three] would show as text"),
    ("See r[tt.mini.one] here.\n", 6, "r[tt.mini.one] would show as text"),
    ("A heading with {{ rule-index tt }} in it\n", 6, "{{ would show as text"),
    ('<div markdown="1">\n{{ calculator-index }}\n</div>\n', 7, "{{ is inside an HTML block"),
    ("<p>\nSee [[tt.mini.two]].\n</p>\n", 7, "[[tt.mini.two]] is inside an HTML block"),
    ('!!! note "See [[tt.mini.two]]"\n    Body.\n', 6, "a note's title is plain text"),
], ids=["marker in a note", "marker mid-line", "shortcode mid-line", "shortcode in an HTML block", "link in an HTML block",
        "link in a note's title"])
def test_markup_the_reader_would_see_as_text_is_refused_with_its_line(tmp_path, markup, line, said):
    """Markup that neither parser reads as markup (a marker or shortcode not on a line of its own, or in a note;
    markup in an HTML block, raw HTML to the rulebook's parser) is refused as the page is read: no check of the
    rendered page is needed."""
    assert f"tell-tale/index.md:{line}: {said}" in refused(tmp_path, GOOD_A + "\n" + markup, GOOD_B)


def test_markup_in_a_note_or_in_code_builds(tmp_path):
    """The rulebook reads a note as Python-Markdown does (paragraphs, not an indented code block): a link in any
    of its paragraphs is a link; markup in code stays text."""
    note = ('\n!!! note "Note"\n    See [[tt.mini.two]].\n\n    Write `[[tt.mini.two]]` or `r[tt.mini.x] X` to mark one.\n'
            "\n    Then [[tt.mini.two|the second]] here.\n")
    html, _ = rendered(tmp_path, GOOD_A + note, GOOD_B)
    assert html.count('href="b.md#tt.mini.two"') == 3 and "<code>r[tt.mini.x] X</code>" in html
    assert '>the second</a> here.' in html


@pytest.mark.parametrize("line,said", [
    ("{{ nonsense }}", "tell-tale/index.md:6: unknown shortcode {{ nonsense }}; known: rule-index, tracker"),
    ("{{ tracker }}", "tell-tale/index.md:6: {{ tracker }} takes a tracker's name"),
    ("{{ calculator-index tt }}", "tell-tale/index.md:6: {{ calculator-index }} takes no argument, got tt"),
    ("{{ tracker tell_tale.no_such }}", "tell-tale/index.md:6: unknown tracker 'tell_tale.no_such'"),
    ("{{ table-settings xx }}", f"tell-tale/index.md:6: table-settings needs one of {', '.join(g.prefix for g in GAMES)}, got xx"),
], ids=["unknown", "no argument", "an argument too many", "unknown tracker", "unknown game"])
def test_a_wrong_shortcode_is_refused_with_its_line(tmp_path, line, said):
    """One grammar for every {{ shortcode }} (rulebook.render.SHORTCODES), checked before any page
    is rendered: a sentence with the page and line, no traceback."""
    assert said in refused(tmp_path, GOOD_A + "\n" + line + "\n", GOOD_B)


def test_each_page_is_read_once_by_markdown_it_and_each_built_page_once_by_html_parser(tmp_path, monkeypatch):
    """The book is read once per build, and the pages are rendered and finished from that one reading; the
    finishing step reads each built page's HTML once (its checks, its rules' words, its inline scripts)."""
    from html.parser import HTMLParser

    from rulebook import pages, read_docs, terms
    from rulebook.site import Build, finish

    parsed: list[str] = []
    parse = pages.PARSER.parse
    monkeypatch.setattr(pages.PARSER, "parse", lambda text, env=None: parsed.append(text) or parse(text, env))
    rendered: list[str] = []

    class Counted(terms.Pieces):
        def __init__(self, content: str):
            rendered.append(content)
            super().__init__(content)

    monkeypatch.setattr(terms, "Pieces", Counted)
    proc = build(tmp_path, GOOD_A, GOOD_B, pages={"c.md": "---\ntitle: C\n---\n# C\n\nNo rule here.\n"})
    assert proc.returncode == 0, proc.stderr
    assert len(parsed) == 3  # index.md, b.md, c.md: each once, though MkDocs renders each
    # The rendered HTML of each page with rules read once to link its terms; not each heading's words again, which
    # the toc extension runs through the postprocessors.
    assert len(rendered) == 2 and all('id="tt.mini.' in html for html in rendered), rendered
    monkeypatch.undo()
    monkeypatch.setattr(pages.PARSER, "parse", lambda text, env=None: parsed.append(text) or parse(text, env))
    html = built(tmp_path, "b")
    assert 'id="tt.mini.two"' in html and 'href="../#tt.mini.one"' in html  # MkDocs's links: to the page's address
    book = read_docs(tmp_path / "docs")
    parsed.clear()
    site = tmp_path / "site"
    generated = sorted(p.read_text(encoding="utf-8") for p in site.rglob("*.html"))
    fed: list[str] = []
    feed = HTMLParser.feed
    monkeypatch.setattr(HTMLParser, "feed", lambda self, data: fed.append(data) or feed(self, data))
    finish(Build(site=site, docs=tmp_path / "docs", site_url="/", site_name="Mini", calculators=False, book=book))
    assert parsed == []
    assert len(generated) >= 4 and sorted(fed) == generated  # index, b, c and 404: each read once, whole
    assert "tt.mini.two" in (tmp_path / "site" / "rules.json").read_text()
