"""Rule IDs, cross-links, term links, rule indexes and rules.json.

The markup (documented in CONTRIBUTING.md) is read by the `rulebook` package
with a real Markdown parser, so anything inside code stays text:

    r[tt.combat.attack-table] Attack table        a rule: ID, then its title
    ruling[tt.ruling.adv-and-dis] Both at once    a ruling (boxed), same shape
    r[tt.keyword.trample] Trample | trample       a glossary term with aliases
    [[tt.combat.attack-table]]                    link, text = the rule's title
    [[tt.combat.attack-table|the table]]          link with its own text
    {{ rule-index tt }}                           every rule of a game, by chapter

A rule runs from its marker to the next marker, heading or calculator fence.
Rules whose ID has a `glossary` or `keyword` part define terms: the first use
of a term in any other rule of the same game links to it.

State: `config["rules_state"]` (`rulebook.STATE_KEY`) holds this build's
`rulebook.Book`: every rule with its page, URL and text. Other hooks read it
with `rulebook.book_of(config)`. Order, declared with event_priority:
on_files reads every page first (50), before hooks/calculator_forms.py
checks its fences against them; on_page_markdown runs after
hooks/worked_examples.py (100) and before hooks/calculator_forms.py (-50);
on_page_content links terms (50) before hooks/calculator_forms.py fills in
the table settings; on_post_build runs after the search plugin has written
its index (plugins come before hooks).

After the build: `rules.json` (every rule: id, game, title, url, short,
ruling, text); `rule-lookup.json`, every rule ID and old ID to the page that
holds it (docs/assets/rule-lookup.js reads it); `rule-previews.json`, each
rule's title, game and first sentences and each term's names, for that
script's link previews and its exact-name search hits; and the search index tuned
so a rule ID, whole or in part, finds its rules first and every result names
its game.
"""

from __future__ import annotations

import functools
import html
import importlib.util
import itertools
import json
import posixpath
import re
from collections.abc import Callable
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.utils import get_relative_url

from rulebook import GAME_NAMES, LINK, STATE_KEY, Book, MarkupError, Page, Rule, book_of, link_terms, read_page, short_url

# ---------------------------------------------------------------- data

State = Book  # this build's rules, under config["rules_state"] (a name tests use)
ROOT = Path(__file__).resolve().parent.parent
REDIRECTS = ROOT / "docs" / "rule-redirects.json"  # old ID -> new ID
RULING_TITLE = "Ruling, not in the rulebook"
MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]#])")  # characters a title must not turn into Markdown

LOOKUP = "rule-lookup.json"  # rule ID (or old ID) -> page URL, for rule-lookup.js
# For rule-lookup.js's previews and search: each rule's title (as its heading
# shows it), game and first sentences (what a chat unfurl of its short link
# shows), and each term's names (title and aliases, lowercase) -> its IDs.
PREVIEWS = "rule-previews.json"
SEARCH_INDEX = Path("search") / "search_index.json"
# Search fields for rule sections: the ID, boosted above titles (1000) by
# more than the 2.5 times Material gives whole pages over their sections, so
# typing an ID, whole or in part, puts its rules first; and the ID's topic
# (action in tal.action.table), so tal.action lists tal.action.* before
# tal.glossary.opposed-action: Material's search ignores word order. Each
# word of a query also matches longer words (week: weekend), so an exact ID
# can lose to a longer one; rule-lookup.js moves it to the top.
SEARCH_FIELDS = {"rule": 10_000, "topic": 10_000}
# Markup the rulebook did not read reaches the page as text: `[[ID]]`, or a
# marker `r[ID]` / `ruling[ID]`. Code shows markup on purpose; nothing else may.
LEFT_MARKUP = re.compile(rf"{LINK.pattern}|(?<![\w-])(?:r|ruling)\[[^\]\n<]*\]")
CODE_HTML = re.compile(r"<(pre|code|script|style)\b[^>]*>.*?</\1\s*>", re.S | re.I)
FILTER = """<div class="rule-index-filter" data-search-exclude="" hidden>
<label for="rule-filter-{p}">Find a rule by ID or title</label>
<input id="rule-filter-{p}" type="search" autocomplete="off" autocapitalize="off" spellcheck="false" enterkeyhint="done" aria-describedby="rule-count-{p}">
<p id="rule-count-{p}" class="rule-index-count" role="status">{n} rules</p>
</div>"""


# ---------------------------------------------------------------- hooks


def on_config(config):
    book = Book()
    book.load_redirects(REDIRECTS)
    config[STATE_KEY] = book
    return config


@event_priority(50)  # first: hooks/calculator_forms.py checks its fences against the pages read here
def on_files(files, config):
    book = book_of(config)
    try:
        for file in files.documentation_pages():
            book.add(read_page(file.content_string, file.src_uri), url=file.url)
        book.check()
    except MarkupError as err:
        raise PluginError(str(err)) from err
    return files


def on_nav(nav, config, files):
    book_of(config).order = [page.file.src_uri for page in nav.pages]
    return nav


@event_priority(50)  # after hooks/worked_examples.py (100), before hooks/calculator_forms.py (-50)
def on_page_markdown(markdown, page, config, files):
    try:
        return _render_markdown(read_page(markdown, page.file.src_uri), page.url, book_of(config))
    except MarkupError as err:
        raise PluginError(str(err)) from err


@event_priority(50)  # before hooks/calculator_forms.py fills in the table settings: no terms in forms
def on_page_content(content, page, config, files):
    _check_no_markup_left(content, page.file.src_uri, page.file.content_string)
    book = book_of(config)
    terms = book.terms(page.file.src_uri.split("/")[0])
    content, texts = link_terms(content, book.rules, terms, lambda rule: get_relative_url(rule.url, page.url) + "#" + rule.id)
    for rid, text in texts.items():
        book.rules[rid].text = text
    return content


def on_post_build(config):
    book = book_of(config)
    out = [
        {"id": r.id, "game": r.game, "title": r.title, "url": f"{r.url}#{r.id}", "short": short_url(r.id),
         "ruling": r.ruling, "text": r.text}
        for r in book.rules.values()
    ]
    site = Path(config["site_dir"])
    (site / "rules.json").write_text(json.dumps(out, ensure_ascii=False, indent=1), encoding="utf-8")
    redirects = {old: f"{book.rules[new].url}#{new}" for old, new in book.redirects.items()}
    (site / "rule-redirects.json").write_text(json.dumps(redirects), encoding="utf-8")
    lookup = {r.id: r.url for r in book.rules.values()} | redirects
    (site / LOOKUP).write_text(json.dumps(lookup, separators=(",", ":")), encoding="utf-8")
    (site / PREVIEWS).write_text(json.dumps(_previews(book), ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
    _tune_search(site / SEARCH_INDEX, book)


# ---------------------------------------------------------------- helpers


def _check_no_markup_left(content: str, src: str, source: str) -> None:
    """Fail the build when a link or a marker shows as text on the page.

    The rulebook reads a page with CommonMark, MkDocs with Python-Markdown:
    where they disagree (a `!!! note` paragraph after a blank line is code to
    the first, text to the second; so is Markdown inside an HTML block), the
    markup is never turned into a link or a heading and the reader sees it."""
    m = LEFT_MARKUP.search(CODE_HTML.sub("", content))
    if not m:
        return
    found = html.unescape(m.group(0))
    read = read_page(source, src)  # the markup that was read: the line to name is one of the others
    links, markers = {link.start for link in read.links}, {rule.line for rule in read.rules}
    line = None
    for at in (m.start() for m in re.finditer(re.escape(found), source)):
        n = source.count("\n", 0, at) + 1
        if at not in links and n not in markers:
            line = n
            break
    raise PluginError(str(MarkupError(
        src, line, f"{found} shows as text on the built page: the rulebook reads an indented block (a !!! note's "
                   "paragraph after a blank line) or an HTML block as code, so write it in the note's first paragraph or outside the block")))


def _render_markdown(page: Page, url: str, book: Book) -> str:
    """Markers become headings (a ruling's body indented into its box),
    links become Markdown links, rule indexes become lists."""
    lines = _with_links(page, book).split("\n")
    rules = {rule.line - 1: rule for rule in page.rules}
    indexes = {index.line - 1: index for index in page.indexes}
    boxed = {n for rule in page.rules if rule.ruling for n in range(rule.line, rule.end)}
    out: list[str] = []
    for n, line in enumerate(lines):
        if n in rules:
            out += _heading(rules[n])
        elif n in indexes:
            out += _index(indexes[n].prefix, page.src, url, book)
        else:
            out.append(("    " + line) if n in boxed and line else line)
    return "\n".join(out)


def _with_links(page: Page, book: Book) -> str:
    """The page's text with each `[[ID]]` a Markdown link (as many lines)."""
    text = page.text
    for link in reversed(page.links):
        text = text[:link.start] + _md_link(book.resolve(link.id), link.text, page.src) + text[link.end:]
    return text


def _md_link(rule: Rule, text: str | None, src: str) -> str:
    rel = posixpath.relpath(rule.src, posixpath.dirname(src) or ".")
    label = _md_text(rule.title) if text is None else text.replace("[", r"\[").replace("]", r"\]")
    return f"[{label}]({rel}#{rule.id})"


def _md_text(text: str) -> str:
    """Plain text as Markdown that shows exactly that text: no tag, no emphasis."""
    return MARKDOWN_SPECIAL.sub(r"\\\1", html.escape(text, quote=False))


def _heading(rule: Rule) -> list[str]:
    """A rule's heading (anchor = its ID), its ID badge, and a ruling's box."""
    css = ".rule .ruling" if rule.ruling else ".rule"
    prefix = "Ruling: " if rule.ruling else ""
    out = [f"{'#' * rule.level} {prefix}{_md_text(rule.title)} {{ #{rule.id} {css} }}", "", _id_badge(rule), ""]
    if rule.ruling:
        out += [f'!!! ruling "{RULING_TITLE}"', ""]
    return out


def _id_badge(rule: Rule) -> str:
    return f'<p class="rule-id"><a href="#{rule.id}" title="Link to this rule">{rule.id}</a></p>'


def _index(prefix: str, src: str, url: str, book: Book) -> list[str]:
    """Every rule of a game: a heading per page (in nav order) and per section,
    a list of rules under each, and a filter box that rule-lookup.js shows.
    Out of the search index: the rules themselves are in it."""
    order = {path: i for i, path in enumerate(book.order)}
    rules = sorted((r for r in book.rules.values() if r.id.startswith(prefix + ".")), key=lambda r: order.get(r.src, len(order)))
    out = ['<div class="rule-index" markdown>', "", FILTER.format(p=prefix, n=len(rules)), ""]
    for page, grouped in itertools.groupby(rules, key=lambda r: r.src):
        chapter = list(grouped)
        link = f"[{chapter[0].chapter}]({posixpath.relpath(page, posixpath.dirname(src) or '.')})"
        out += ['<section class="rule-index-chapter" markdown>', "", f"## {link} {{ data-search-exclude }}", ""]
        for section, group in itertools.groupby(chapter, key=lambda r: r.section):
            if section:
                out += [f"### {section} {{ data-search-exclude }}", ""]
            out += ['<ul class="rule-index-list">', *(_index_item(r, url) for r in group), "</ul>", ""]
        out += ["</section>", ""]
    return out + ["</div>", ""]


def _index_item(rule: Rule, url: str) -> str:
    """One rule in the index: its title, then its ID, which wraps only after a dot."""
    parts = rule.id.split(".")
    wrapped = "<wbr>".join(f"<span>{p}.</span>" for p in parts[:-1]) + f"<wbr><span>{parts[-1]}</span>"
    title = html.escape(("Ruling: " if rule.ruling else "") + rule.title)
    href = html.escape(get_relative_url(rule.url, url) + "#" + rule.id)
    return f'<li><a href="{href}"><span class="rule-index-title">{title}</span> <code class="rule-index-id">{wrapped}</code></a></li>'


def _previews(book: Book) -> dict:
    """What a rule link's preview shows, and which rules a term's name names."""
    first_sentences = _first_sentences()
    rules = {
        r.id: {"title": ("Ruling: " if r.ruling else "") + r.title, "game": GAME_NAMES.get(r.game, r.game),
               "text": first_sentences(r.text)}
        for r in book.rules.values()
    }
    names: dict[str, list[str]] = {}
    for r in book.rules.values():
        if r.is_term:
            for name in dict.fromkeys(n.lower() for n in (r.title, *r.aliases)):
                names.setdefault(name, []).append(r.id)
    return {"rules": rules, "names": names}


@functools.cache
def _first_sentences() -> Callable[[str], str]:
    """hooks/short_links.py's `description`: a preview shows the sentences a
    chat unfurl of the rule's short link shows. Hooks are no package: loaded
    from its file."""
    spec = importlib.util.spec_from_file_location("short_links_for_previews", Path(__file__).with_name("short_links.py"))
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.description


def _tune_search(path: Path, book: Book) -> None:
    """Rule sections get their ID in boosted fields; page titles get their
    game (a search result shows its page's title above its sections)."""
    if not path.exists():  # no search plugin
        return
    index = json.loads(path.read_text(encoding="utf-8"))
    index["config"]["fields"] |= {name: {"boost": boost} for name, boost in SEARCH_FIELDS.items()}
    for doc in index["docs"]:
        page, _, anchor = doc["location"].partition("#")
        game = GAME_NAMES.get(page.split("/")[0])
        if anchor in book.rules:
            doc["rule"] = anchor
            doc["topic"] = anchor.split(".")[1]
        elif not anchor and game and game.lower() not in doc["title"].lower():
            doc["title"] = f"{game} › {doc['title']}"
    path.write_text(json.dumps(index, separators=(",", ":")), encoding="utf-8")
