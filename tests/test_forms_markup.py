"""The build's HTML comes from templates with autoescape (rulebook/templates/, rendered by rulebook/templating.py):
no module of the build (rulebook/, hooks/, runtime/) holds a tag in a string literal, builds HTML by f-strings,
`.format`, `%` or `+`, or escapes a value by hand; what the registry says, and a rule's title and text, reach the page
as text."""

from __future__ import annotations

import ast
import copy
import html.parser
import re
import subprocess
from pathlib import Path

import markdown
import pytest
from support.rulepages import DOCS

import rulebook
from calculators.types import Calculator, Param, Report
from rulebook import forms, gm_screen, read_docs, render
from rulebook.site import built, gm_screens, print_footer, short_links
from rulebook.templating import macro

FORMS = Path(forms.__file__)
PACKAGE = Path(rulebook.__file__).parent
ROOT = PACKAGE.parent
MODULES = sorted([*PACKAGE.rglob("*.py"), *(ROOT / "hooks").glob("*.py"), *(ROOT / "runtime").glob("*.py")])  # the build's code
# The start of an HTML element (or its end) in a string: the elements the build writes, and the rest a page may hold.
ELEMENTS = [
    "a", "abbr", "article", "aside", "b", "blockquote", "body", "br", "button", "caption", "code", "col", "colgroup",
    "dd", "del", "details", "dfn", "div", "dl", "dt", "em", "fieldset", "figcaption", "figure", "footer", "form", "h1",
    "h2", "h3", "h4", "h5", "h6", "head", "header", "hr", "html", "i", "img", "input", "ins", "kbd", "label", "legend",
    "li", "link", "main", "mark", "meta", "nav", "ol", "optgroup", "option", "output", "p", "picture", "pre", "progress",
    "q", "s", "samp", "script", "section", "select", "small", "source", "span", "strong", "style", "sub", "summary",
    "sup", "svg", "table", "tbody", "td", "template", "textarea", "tfoot", "th", "thead", "time", "title", "tr", "u",
    "ul", "var", "video", "wbr",
]
TAG = re.compile(rf"</?(?:{'|'.join(ELEMENTS)})[\s>/]")
# Escapes that are no HTML: `_md_text` escapes a title into Markdown source (Python-Markdown renders it), not into a page.
MARKDOWN_ESCAPES = {("render.py", "_md_text")}
HOSTILE = """<script>alert("t")</script> Q&A 'one' "two" &amp; <img src=x onerror=alert(1)>"""


def test_forms_py_builds_no_html_by_hand():
    tree = ast.parse(FORMS.read_text(encoding="utf-8"))
    tagged = [node.lineno for node in ast.walk(tree) if isinstance(node, ast.JoinedStr)
              and any(isinstance(v, ast.Constant) and "<" in str(v.value) for v in node.values)]
    assert not tagged, f"f-strings with markup at lines {tagged} of {FORMS.name}: write it in templates/forms.html"
    escapes = [node.lineno for node in ast.walk(tree) if isinstance(node, ast.Attribute) and node.attr == "escape"]
    assert not escapes, f"hand-written escapes at lines {escapes}: the template's autoescape does it"
    literals = [node.lineno for node in ast.walk(tree) if isinstance(node, ast.Constant) and isinstance(node.value, str)
                and "</" in node.value]
    assert not literals, f"markup in string literals at lines {literals}"


def _builders(path: Path) -> list[tuple[int, str]]:
    """Where a module builds HTML by hand: an f-string, `.format`, `%` or `+` on a string holding a tag, an
    html/markupsafe escape (lines, with what is there)."""
    def tagged(node: ast.AST) -> bool:
        return isinstance(node, ast.Constant) and isinstance(node.value, str) and bool(TAG.search(node.value))

    found = []
    tree = ast.parse(path.read_text(encoding="utf-8"))
    scopes = {n: f.name for f in ast.walk(tree) if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)) for n in ast.walk(f)}
    docstrings = {id(n.body[0].value) for n in ast.walk(tree) if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                  and n.body and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
    # Parts of an f-string are reported as the f-string.
    not_literals = {id(v) for n in ast.walk(tree) if isinstance(n, ast.JoinedStr) for v in n.values}
    for node in ast.walk(tree):
        if tagged(node) and id(node) not in docstrings | not_literals:
            why = "markup in a string literal"
        elif isinstance(node, ast.JoinedStr) and any(tagged(v) for v in node.values):
            why = "an f-string with markup"
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format" and tagged(node.func.value):
            why = "markup filled by .format"
        elif isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Mod)) and (tagged(node.left) or tagged(node.right)):
            why = "markup joined to a value"
        elif ((isinstance(node, ast.Attribute) and node.attr == "escape" and not (isinstance(node.value, ast.Name) and node.value.id == "re"))
              or (isinstance(node, ast.Name) and node.id == "escape")
              or (isinstance(node, ast.ImportFrom) and node.module in ("html", "markupsafe") and any(a.name == "escape" for a in node.names))):
            if (path.name, scopes.get(node)) in MARKDOWN_ESCAPES:
                continue
            why = "a hand-written escape"
        else:
            continue
        found.append((node.lineno, f"{path.name}:{node.lineno}: {why}: {ast.unparse(node)[:80]}"))
    return found


@pytest.mark.parametrize("path", MODULES, ids=[str(p.relative_to(ROOT)) for p in MODULES])
def test_no_module_of_the_build_writes_html_by_hand(path):
    found = [said for _, said in _builders(path)]
    assert not found, "write the markup in a template of rulebook/templates/ (rulebook/templating.py renders it):\n" + "\n".join(found)


def test_the_static_check_finds_each_kind_of_html_builder(tmp_path):
    """The check above can fail: each way of writing HTML by hand is found, a tag in a plain string literal too,
    and one in a regular expression (the finishing step finds its places in a page's one reading: built.py);
    docstrings and messages naming a <placeholder> are not."""
    sample = tmp_path / "sample.py"
    sample.write_text("\n".join([
        "import html, re",
        "from markupsafe import escape",  # 2
        "a = f'<td>{x}</td>'",  # 3
        "b = '<p class=\"{}\">'.format(x)",  # 4
        "c = '<li>' + x",  # 5
        "d = '<span>%s' % x",  # 6
        "e = html.escape(x)",  # 7
        "f = re.escape(x)",
        "g = f'add {{{{ tracker <name> }}}} to a page: {x}'",
        "h = rf'(?<![\\w-]){x}'",
        "i = f'{x} and {y}'",
        "j = '<ul>'",  # 12
        "k = re.compile(r'<p>(.*?)</p>')",  # 13
        "def f():",
        "    'A <p> in a docstring.'",
    ]), encoding="utf-8")
    assert sorted({line for line, _ in _builders(sample)}) == [2, 3, 4, 5, 6, 7, 12, 13]


class _Texts(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.texts: list[str] = []
        self.values: list[str] = []
        self.tags: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.values += [v or "" for _, v in attrs]

    def handle_data(self, data):
        self.texts.append(data)


def test_what_the_registry_says_reaches_the_page_as_text():
    hostile = '<img src=x onerror="alert(1)"> & \'quoted\''
    calc = Calculator(
        name="tell_tale.hostile", title=hostile, summary=hostile, adapter=lambda rng, **kw: Report("x", "x"),
        params=(Param("power", hostile, help=hostile, default=3, minimum=0, maximum=9),
                Param("mode", hostile, kind="choice", default="a", choices=(("a", hostile), ('"b', hostile))),
                Param("haste", hostile, kind="yes_no", default="no", help=hostile),
                Param("name", hostile, kind="text", group=hostile, short=hostile),
                Param("d20", hostile, kind="dice", help=hostile)),
    )
    page = forms.render_form(calc, {"x": hostile}, runtime=hostile, settings=hostile)
    parsed = _Texts()
    parsed.feed(page)
    assert "img" not in parsed.tags
    assert "".join(parsed.texts).count(hostile) >= 8  # labels, help, options, the summary, a legend: as text
    assert hostile in parsed.values and '"b' in parsed.values  # attributes keep the value whole, quotes and all
    assert "\n" not in page  # the template's lines are joined: one line of HTML, which Markdown passes through whole


class _Page(_Texts):
    """Texts, tags and attribute values of a page, with the text of each <script> and <style> apart."""

    def __init__(self, page: str):
        super().__init__()
        self.feed(page)
        self.close()

    @property
    def text(self) -> str:
        return "".join(self.texts)


@pytest.fixture(scope="module")
def hostile_book():
    """The site's book with every rule's title and text hostile: what a mistyped page could bring."""
    book = copy.deepcopy(read_docs(DOCS))
    for rule in book.rules.values():
        rule.title, rule.text, rule.url = HOSTILE, HOSTILE + ". " + HOSTILE, rule.url or rule.src.removesuffix(".md") + "/"
    return book


def _a_rule(book):
    """The first Tell-Tale rule, not named: these tests check the markup, they cite no rule (rulebook/coverage.py counts citations)."""
    return next(r for r in book.rules.values() if r.id.startswith("tt.") and not r.ruling)


def _only_as_text(page: str, at_least: int) -> _Page:
    parsed = _Page(page)
    assert not {"script", "img"} & set(parsed.tags), f"markup from a title reached the page: {page[:300]}"
    assert parsed.text.count(HOSTILE) >= at_least, page[:300]
    return parsed


def test_a_hostile_rule_title_reaches_the_rule_index_and_its_heading_only_as_text(hostile_book):
    rule = _a_rule(hostile_book)
    _only_as_text(render._index_item(rule, "tell-tale/rules/"), 1)
    heading = markdown.markdown("\n".join(render._heading(rule)), extensions=["attr_list", "admonition"])
    assert _only_as_text(heading, 1).tags[:2] == [f"h{rule.level}", "p"]  # the heading, then its ID badge
    _only_as_text(macro("render.html", "tracker", "tt", "../pyodide/", HOSTILE, HOSTILE, HOSTILE, HOSTILE), 1)


def test_a_hostile_rule_reaches_the_gm_screen_and_its_filled_text_only_as_text(hostile_book):
    drawn = "\n".join(gm_screen.screen("tt", hostile_book, "tell-tale/gm-screen/", "tell-tale/gm-screen/",
                                        "tell-tale/gm-screen.md", 1, site_url="https://example.org/", docs=DOCS))
    lines = drawn.count('class="gm-line')
    assert "https://example.org/tell-tale/gm-screen/" in _only_as_text(drawn, lines).text  # each line's title
    page = built.page_of(drawn, "tell-tale/gm-screen/index.html")
    filled = built.apply(drawn, gm_screens.fill(page, hostile_book))
    _only_as_text(filled, 2 * lines)  # each line's title, and its words


def test_a_hostile_rule_and_site_name_reach_the_short_link_and_the_print_footer_only_as_text(hostile_book):
    rule = _a_rule(hostile_book)
    page = short_links.page_html(HOSTILE, "https://example.org/", rule.id + "-retired", rule)  # a retired ID: the moved line too
    parsed = _only_as_text(page, 2)  # the title (with its game and ID after it) and the link; the description is cut
    assert f"{HOSTILE} (Tell-Tale rule {rule.id})" in parsed.values and HOSTILE in parsed.values  # og:title, og:site_name
    article = "<article><p>x</p></article>"
    page = built.page_of(article, "tell-tale/rules/index.html")
    footer = built.apply(article, print_footer.add(page, "https://example.org/", HOSTILE, DOCS, ("tell-tale",)))
    assert _only_as_text(footer, 1).tags == ["article", "p", "p", "span", "time"]  # the footer inside the article


def test_the_build_imports_no_game_package():
    """The rulebook draws what the games declare (their registries, their gm_panels) and imports no game's internals."""
    games = re.compile(r"^\s*(?:from|import)\s+calculators\.(?:tell_tale|talislanta|rpgdl)\b|"
                       r"^\s*from\s+calculators\s+import\s+.*\b(?:tell_tale|talislanta|rpgdl)\b", re.M)
    found = [f"{path.relative_to(ROOT)}: {m.group(0).strip()}" for path in MODULES
             for m in games.finditer(path.read_text(encoding="utf-8"))]
    assert found == []


# A project file named in a comment or docstring: a path under one of the project's folders, with a suffix.
NAMED_FILE = re.compile(r"(?<![\w./-])((?:hooks|rulebook|runtime|tests|calculators|scripts|benchmarks|overrides|types|"
                        r"docs/assets|\.ci)/[\w./-]*\w\.(?:py|js|mjs|html|css|json|yml|md|d\.ts|d\.mts|sh))\b")
WRITTEN_BY_THE_BUILD = {"types/trackers.d.ts"}  # made by `make lint` (calculators/typescript.py)


def test_no_file_names_a_project_file_that_does_not_exist():
    """What the code says names files that are there: a comment naming a module that moved or went away misleads."""
    listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    sources = [name for name in listed if name.endswith((".py", ".js", ".mjs", ".html", ".css", ".md", ".toml", ".yml"))
               and not (name.startswith("docs/") and name.endswith(".md"))]
    assert len(sources) > 100
    missing = [f"{name}: {m.group(1)}" for name in sources for m in NAMED_FILE.finditer((ROOT / name).read_text(encoding="utf-8"))
               if m.group(1) not in WRITTEN_BY_THE_BUILD and not (ROOT / m.group(1)).exists()]
    assert missing == []


def test_the_named_file_check_finds_a_missing_file():
    said = "# hooks/" + "trackers.py publishes it; rulebook/render.py draws it"  # in two parts: this file names no missing file
    assert [m.group(1) for m in NAMED_FILE.finditer(said) if not (ROOT / m.group(1)).exists()] == ["hooks/" + "trackers.py"]
