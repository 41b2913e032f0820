"""Rule IDs, cross-links, term links and rule indexes in MkDocs's pages.

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
`rulebook.Book`: every rule with its page and URL. Other hooks read it
with `rulebook.book_of(config)`. Order, declared with event_priority:
on_files reads every page first (50), before hooks/calculator_forms.py
checks its fences against them; on_page_markdown runs after
hooks/worked_examples.py (100) and before hooks/calculator_forms.py (-50);
on_page_content links terms (50) before hooks/calculator_forms.py fills in
the table settings.

What is made from the whole book after the build (rules.json, the previews,
the lookup, the short links, the search index tuned) is the finishing
step's: rulebook/site, called by hooks/finish.py.
"""

from __future__ import annotations

import html
import itertools
import posixpath
import re
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.utils import get_relative_url

from rulebook import LINK, STATE_KEY, Book, MarkupError, Page, Rule, book_of, link_terms, read_page

# ---------------------------------------------------------------- data

State = Book  # this build's rules, under config["rules_state"] (a name tests use)
ROOT = Path(__file__).resolve().parent.parent
REDIRECTS = ROOT / "docs" / "rule-redirects.json"  # old ID -> new ID
RULING_TITLE = "Ruling, not in the rulebook"
MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]#])")  # characters a title must not turn into Markdown

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
    content, _ = link_terms(content, book.rules, terms, lambda rule: get_relative_url(rule.url, page.url) + "#" + rule.id)
    return content


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
