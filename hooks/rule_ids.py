"""Rule IDs, cross-links, glossary links, rule indexes and rules.json.

Markup read in the rule pages (the syntax is documented in CONTRIBUTING.md):

    r[tt.combat.attack-table] Attack table        a rule: ID, then its title
    ruling[tt.ruling.adv-and-dis] Both at once    a ruling (boxed), same shape
    r[tt.keyword.trample] Trample | trample       a glossary term with aliases
    [[tt.combat.attack-table]]                    link, text = the rule's title
    [[tt.combat.attack-table|the table]]          link with its own text
    {{ rule-index tt }}                           every rule of a game, by chapter

A rule runs from its marker to the next marker or heading. Rules whose ID has
a `glossary` or `keyword` part define terms: the first use of a term in any
other rule of the same game links to it.

After the build, two things for finding a rule (docs/assets/rule-lookup.js
reads the first): `rule-lookup.json`, every rule ID and old ID to the page
that holds it; and the search index tuned so a rule ID, whole or in part,
finds its rules first and every result names its game.
"""

from __future__ import annotations

import html
import itertools
import json
import posixpath
import re
from dataclasses import dataclass, field
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.utils import get_relative_url

# ---------------------------------------------------------------- data

GAMES = {"tt": "tell-tale", "tal": "talislanta", "rpgdl": "rpgdl"}
GAME_NAMES = {"tell-tale": "Tell-Tale", "talislanta": "Talislanta", "rpgdl": "RPGDL TCG"}
ROOT = Path(__file__).resolve().parent.parent
REDIRECTS = ROOT / "docs" / "rule-redirects.json"  # old ID -> new ID

ID = r"[a-z][a-z0-9]*(?:\.[a-z0-9][a-z0-9-]*)+"
MARKER = re.compile(rf"^(r|ruling)\[({ID})\][ \t]+(.+?)[ \t]*$")
FENCE = re.compile(r"^\s*(```|~~~)")
HEADING = re.compile(r"^(#{1,6})\s")
XREF = re.compile(r"\[\[([^\]|]+?)(?:\|([^\]]+))?\]\]")
INDEX = re.compile(r"^\{\{\s*rule-index\s+(\w+)\s*\}\}\s*$")
TERM_KINDS = ("glossary", "keyword")

# Terms are linked in the rendered HTML, where code, links and headings are
# easy to tell apart from running text.
SKIP = {"a", "code", "pre", "h1", "h2", "h3", "h4", "h5", "h6", "script", "style", "button", "kbd", "summary"}
TEXT_SKIP = {"h1", "h2", "h3", "h4", "h5", "h6", "pre"}
RULING_TITLE = "Ruling, not in the rulebook"
RULE_HEADING = re.compile(r'<h[1-6]\b(?=[^>]*\bclass="[^"]*\brule\b)[^>]*\bid="([^"]+)"')

LOOKUP = "rule-lookup.json"  # rule ID (or old ID) -> page URL, for rule-lookup.js
SEARCH_INDEX = Path("search") / "search_index.json"
# Search fields for rule sections: the ID, boosted above titles (1000) by
# more than the 2.5 times Material gives whole pages over their sections, so
# typing an ID, whole or in part, puts its rules first; and the ID's topic
# (action in tal.action.table), so tal.action lists tal.action.* before
# tal.glossary.opposed-action: Material's search ignores word order. Each
# word of a query also matches longer words (week: weekend), so an exact ID
# can lose to a longer one; rule-lookup.js moves it to the top.
SEARCH_FIELDS = {"rule": 10_000, "topic": 10_000}
FILTER = """<div class="rule-index-filter" data-search-exclude="" hidden>
<label for="rule-filter-{p}">Find a rule by ID or title</label>
<input id="rule-filter-{p}" type="search" autocomplete="off" autocapitalize="off" spellcheck="false" enterkeyhint="done" aria-describedby="rule-count-{p}">
<p id="rule-count-{p}" class="rule-index-count" role="status">{n} rules</p>
</div>"""


@dataclass
class Rule:
    id: str
    title: str
    src: str  # source path of the page, e.g. tell-tale/combat.md
    ruling: bool
    aliases: tuple[str, ...] = ()
    url: str = ""  # page URL relative to the site root, e.g. tell-tale/combat/
    text: str = ""
    chapter: str = ""  # the page's title (its first heading)
    section: str = ""  # the heading the rule sits under, if any

    @property
    def game(self) -> str:
        return GAMES[self.id.split(".")[0]]

    @property
    def is_term(self) -> bool:
        return self.id.split(".")[1] in TERM_KINDS


@dataclass
class State:
    rules: dict[str, Rule] = field(default_factory=dict)
    redirects: dict[str, str] = field(default_factory=dict)
    pages: list[str] = field(default_factory=list)  # source paths in nav order


# ---------------------------------------------------------------- hooks


def on_config(config):
    config["rules_state"] = State(redirects=_load_redirects())
    return config


def on_files(files, config):
    state = config["rules_state"]
    for file in files.documentation_pages():
        for rule in _scan(file.content_string, file.src_uri):
            if rule.id in state.rules:
                other = state.rules[rule.id].src
                raise PluginError(f"Rule ID {rule.id} is used twice: in {other} and in {rule.src}.")
            prefix = rule.id.split(".")[0]
            if prefix not in GAMES or not rule.src.startswith(GAMES[prefix] + "/"):
                raise PluginError(f"Rule ID {rule.id} in {rule.src}: IDs start with tt., tal. or rpgdl. and live in that game's folder.")
            rule.url = file.url
            state.rules[rule.id] = rule
    for old, new in state.redirects.items():
        if old in state.rules or new not in state.rules:
            raise PluginError(f"Redirect {old} -> {new}: the old ID must be gone and the new one must exist.")
    return files


def on_nav(nav, config, files):
    config["rules_state"].pages = [page.file.src_uri for page in nav.pages]
    return nav


def on_page_markdown(markdown, page, config, files):
    state = config["rules_state"]
    return _render_markdown(markdown, page.file.src_uri, page.url, state)


def on_page_content(content, page, config, files):
    state = config["rules_state"]
    return _link_terms(content, page, state)


def on_post_build(config):
    state = config["rules_state"]
    out = [
        {"id": r.id, "game": r.game, "title": r.title, "url": f"{r.url}#{r.id}", "ruling": r.ruling, "text": r.text}
        for r in state.rules.values()
    ]
    site = Path(config["site_dir"])
    (site / "rules.json").write_text(json.dumps(out, ensure_ascii=False, indent=1), encoding="utf-8")
    redirects = {old: f"{state.rules[new].url}#{new}" for old, new in state.redirects.items()}
    (site / "rule-redirects.json").write_text(json.dumps(redirects), encoding="utf-8")
    lookup = {r.id: r.url for r in state.rules.values()} | redirects
    (site / LOOKUP).write_text(json.dumps(lookup, separators=(",", ":")), encoding="utf-8")
    _tune_search(site / SEARCH_INDEX, state)


# ---------------------------------------------------------------- helpers


def _load_redirects() -> dict[str, str]:
    if not REDIRECTS.exists():
        return {}
    return json.loads(REDIRECTS.read_text(encoding="utf-8"))


def _lines_outside_fences(markdown: str):
    """Yield (index, line, in_fence) for every line."""
    fence = None
    for i, line in enumerate(markdown.split("\n")):
        m = FENCE.match(line)
        if fence is None and m:
            fence = m.group(1)
            yield i, line, True
            continue
        if fence is not None:
            if line.strip().startswith(fence):
                fence = None
            yield i, line, True
            continue
        yield i, line, False


def _heading_text(line: str) -> str:
    """The text of a Markdown heading line, without its #s and attribute list."""
    return re.sub(r"\s*(\{[^}]*\})?\s*#*\s*$", "", line.lstrip("#").strip())


def _scan(markdown: str, src: str) -> list[Rule]:
    rules = []
    chapter, section = posixpath.splitext(posixpath.basename(src))[0].replace("-", " ").capitalize(), ""
    seen_title = False
    for _, line, in_fence in _lines_outside_fences(markdown):
        heading = not in_fence and HEADING.match(line)
        if heading and len(heading.group(1)) == 1 and not seen_title:
            chapter, seen_title = _heading_text(line), True
        elif heading:
            section = _heading_text(line)
        m = not in_fence and MARKER.match(line)
        if m:
            kind, rid, title = m.groups()
            title, _, aliases = title.partition("|")
            aliases = tuple(a.strip() for a in aliases.split(",") if a.strip())
            rules.append(Rule(rid, title.strip(), src, kind == "ruling", aliases, chapter=chapter, section=section))
    return rules


def _resolve(rid: str, state: State, where: str) -> Rule:
    rid = state.redirects.get(rid, rid)
    if rid not in state.rules:
        raise PluginError(f"{where}: link to unknown rule ID {rid}.")
    return state.rules[rid]


def _md_link(rule: Rule, text: str | None, src: str) -> str:
    rel = posixpath.relpath(rule.src, posixpath.dirname(src) or ".")
    label = (text or rule.title).replace("[", r"\[").replace("]", r"\]")
    return f"[{label}]({rel}#{rule.id})"


def _render_markdown(markdown: str, src: str, url: str, state: State) -> str:
    out: list[str] = []
    section_level = 1  # level of the last heading that is not a rule
    ruling_open = False
    for _, line, in_fence in _lines_outside_fences(markdown):
        if in_fence:
            if line.startswith("```calculator"):
                ruling_open = False  # a calculator follows the rules, it is never part of a ruling's box
            out.append(("    " + line) if ruling_open and line else line)
            continue
        marker = MARKER.match(line)
        heading = HEADING.match(line)
        index = INDEX.match(line)
        if (marker or heading) and ruling_open:
            ruling_open = False
        if heading:
            section_level = len(heading.group(1))
            out.append(line)
        elif marker:
            rule = state.rules[marker.group(2)]
            level = "#" * min(section_level + 1, 6)
            css = ".rule.ruling" if rule.ruling else ".rule"
            prefix = "Ruling: " if rule.ruling else ""
            out += [f"{level} {prefix}{rule.title} {{ #{rule.id} {css} }}", "", _id_badge(rule), ""]
            if rule.ruling:
                out += [f'!!! ruling "{RULING_TITLE}"', ""]
                ruling_open = True
        elif index:
            out += _index(index.group(1), src, url, state)
        else:
            line = XREF.sub(lambda m: _md_link(_resolve(m.group(1).strip(), state, src), m.group(2), src), line)
            out.append(("    " + line) if ruling_open and line else line)
    return "\n".join(out)


def _id_badge(rule: Rule) -> str:
    return f'<p class="rule-id"><a href="#{rule.id}" title="Link to this rule">{rule.id}</a></p>'


def _index(prefix: str, src: str, url: str, state: State) -> list[str]:
    """Every rule of a game: a heading per page (in nav order) and per section,
    a list of rules under each, and a filter box that rule-lookup.js shows.
    Out of the search index: the rules themselves are in it."""
    if prefix not in GAMES:
        raise PluginError(f"{src}: rule-index needs one of {', '.join(GAMES)}, got {prefix}.")
    order = {path: i for i, path in enumerate(state.pages)}
    rules = sorted((r for r in state.rules.values() if r.id.startswith(prefix + ".")), key=lambda r: order.get(r.src, len(order)))
    out = ['<div class="rule-index" markdown>', "", FILTER.format(p=prefix, n=len(rules)), ""]
    for page, chapter in itertools.groupby(rules, key=lambda r: r.src):
        chapter = list(chapter)
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


def _tune_search(path: Path, state: State) -> None:
    """Rule sections get their ID in boosted fields; page titles get their
    game (a search result shows its page's title above its sections)."""
    if not path.exists():  # no search plugin
        return
    index = json.loads(path.read_text(encoding="utf-8"))
    index["config"]["fields"] |= {name: {"boost": boost} for name, boost in SEARCH_FIELDS.items()}
    for doc in index["docs"]:
        page, _, anchor = doc["location"].partition("#")
        game = GAME_NAMES.get(page.split("/")[0])
        if anchor in state.rules:
            doc["rule"] = anchor
            doc["topic"] = anchor.split(".")[1]
        elif not anchor and game and game.lower() not in doc["title"].lower():
            doc["title"] = f"{game} › {doc['title']}"
    path.write_text(json.dumps(index, separators=(",", ":")), encoding="utf-8")


def _term_pattern(rules) -> tuple[re.Pattern | None, dict[str, Rule]]:
    by_word: dict[str, Rule] = {}
    for rule in rules:
        for word in (rule.title, *rule.aliases):
            by_word[word] = rule
    if not by_word:
        return None, by_word
    words = sorted(by_word, key=len, reverse=True)
    return re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, words)) + r")(?![\w-])"), by_word


def _link_terms(content: str, page, state: State) -> str:
    src = page.file.src_uri
    game = src.split("/")[0]
    terms, by_word = _term_pattern(r for r in state.rules.values() if r.is_term and r.game == game)
    pieces = re.split(r"(<[^>]+>)", content)
    stack: list[str] = []
    current: Rule | None = None
    linked: set[str] = set()
    texts: dict[str, list[str]] = {}
    for i, piece in enumerate(pieces):
        if piece.startswith("<"):
            m = RULE_HEADING.match(piece)
            if m and m.group(1) in state.rules:
                current, linked = state.rules[m.group(1)], set()
                texts[current.id] = []
            elif re.match(r"<h[1-6][ >]", piece):
                current = None
            name = re.match(r"</?([a-zA-Z0-9]+)", piece)
            if name and name.group(1).lower() in SKIP and not piece.endswith("/>"):
                tag = name.group(1).lower()
                if piece.startswith("</"):
                    while stack and stack.pop() != tag:
                        pass
                else:
                    stack.append(tag)
            continue
        if current is None:
            continue
        if not any(tag in TEXT_SKIP for tag in stack):  # headings and code are not rule text
            texts[current.id].append(piece)
        if terms is None or stack:
            continue

        def link(m, current=current, linked=linked):
            rule = by_word[m.group(1)]
            if rule.id == current.id or rule.id in linked:
                return m.group(0)
            linked.add(rule.id)
            href = get_relative_url(rule.url, page.url) + "#" + rule.id
            return f'<a class="term" href="{href}" data-preview>{m.group(0)}</a>'

        pieces[i] = terms.sub(link, piece)
    for rid, parts in texts.items():
        text = html.unescape(" ".join(parts))
        text = text.replace(rid, "", 1).replace(RULING_TITLE, "", 1)  # the ID badge, the box title
        state.rules[rid].text = re.sub(r"\s+", " ", text).replace("¶", "").strip()
    return "".join(pieces)
