"""The rule markup as a Python-Markdown extension: `rulebook.extension` in mkdocs.yml.

Any generator that runs Python-Markdown extensions (MkDocs, ProperDocs,
Zensical) renders the rule pages through this one extension:

- a preprocessor, first of all (before whitespace is normalised and fences
  are read), that hands Python-Markdown the page's Markdown with the markup
  rendered (rulebook/render.py `markdown`);
- the ```calculator fence's format (`calculator_fence`, declared as a
  pymdownx.superfences custom fence), which draws the form;
- a postprocessor, last of all, that checks and finishes the HTML
  (rulebook/render.py `html`).

What the markup refers to (every rule, term, calculator and tracker, the
reading order, the runtime folder) is read once from docs/ (`sources`), and
again only when a page there changes. The page being rendered is named by
the generator: Zensical's rendering context when there is one, else the
options `src` and `url` (hooks/rule_markup.py sets them for each MkDocs page).
A mistake raises rulebook.MarkupError with the page and line.
"""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from markdown import Extension, Markdown
from markdown.postprocessors import Postprocessor
from markdown.preprocessors import Preprocessor

from calculators.registry import all_calculators, all_trackers

from . import render
from .forms import PREFIXES
from .book import Book, directory_url
from .config import nav_order
from .examples import check_examples
from .markup import CALCULATOR, MarkupError, Page
from .pages import read_page
from .render import Place, Sources

ROOT = Path(__file__).resolve().parent.parent
REDIRECTS = "rule-redirects.json"


@dataclass
class Rendering:
    """The page Python-Markdown is rendering: what the fence's format and the postprocessor read."""

    page: Page
    place: Place
    sources: Sources


class RulebookExtension(Extension):  # type: ignore[misc]  # Python-Markdown has no types
    def __init__(self, **kwargs: Any) -> None:
        self.config = {
            "docs": [str(ROOT / "docs"), "the Markdown sources"],
            "config": [str(ROOT / "mkdocs.yml"), "where the nav (the rule indexes' order) is"],
            "runtime": ["", "the runtime folder, relative to the site root (empty: asked of runtime/build.py)"],
            "src": ["", "the page, relative to docs/ (without the generator's rendering context)"],
            "url": ["", "its address, relative to the site root"],
        }
        super().__init__(**kwargs)

    def extendMarkdown(self, md: Markdown) -> None:
        md.preprocessors.register(_Pre(md, self), "rulebook", 40)  # before normalize_whitespace (30) and the fences
        md.postprocessors.register(_Post(md), "rulebook", 0)  # after the raw HTML is back (30) and unescaping


def makeExtension(**kwargs: Any) -> RulebookExtension:
    return RulebookExtension(**kwargs)


class _Pre(Preprocessor):  # type: ignore[misc]
    def __init__(self, md: Markdown, extension: RulebookExtension) -> None:
        super().__init__(md)
        self.extension = extension

    def run(self, lines: list[str]) -> list[str]:
        option = self.extension.getConfig
        src, place, docs, config = _page_named(self.md, option("src"), option("url"), Path(option("docs")), Path(option("config")))
        found = sources(docs, config, option("runtime"))
        page = read_page("\n".join(lines), src)
        self.md.rulebook = Rendering(page, place, found)
        return render.markdown(page, place, found).split("\n")


class _Post(Postprocessor):  # type: ignore[misc]
    def run(self, text: str) -> str:
        rendering: Rendering | None = getattr(self.md, "rulebook", None)
        if rendering is None:
            return text
        return render.html(text, rendering.page, rendering.place, rendering.sources)


def calculator_fence(source: str, language: str, class_name: str, options: object, md: Markdown, **kwargs: object) -> str:
    """The `format` mkdocs.yml gives pymdownx.superfences for ```calculator fences: the form."""
    rendering: Rendering | None = getattr(md, "rulebook", None)
    if rendering is None:
        from pymdownx.superfences import SuperFencesException  # only ever called inside a Markdown build

        raise SuperFencesException(f"a ```calculator fence ({source.strip()}) needs the rulebook.extension Markdown extension")
    return render.calculator_form(source.strip(), rendering.place.url, rendering.sources)


def _page_named(md: Markdown, src: str, url: str, docs: Path, config: Path) -> tuple[str, Place, Path, Path]:
    """The page being rendered (its source and Place), its docs folder and settings file: Zensical's
    rendering context (which rewrites raw HTML's links as written beside the source), else the options."""
    for processor in md.preprocessors:
        page = getattr(processor, "page", None)
        if type(processor).__name__ == "ContextPreprocessor" and page is not None:  # Zensical's
            settings = getattr(processor, "config", {})
            root = Path(settings.get("root_dir", "."))
            path = str(getattr(page, "path", "")).replace(os.sep, "/")
            address = str(getattr(page, "url", "") or directory_url(path)).lstrip("/")
            return path, Place(address, path), root / settings.get("docs_dir", "docs"), root / "mkdocs.yml"
    if not src:
        raise MarkupError("?", None, "rulebook.extension does not know which page it renders: give it src and url "
                                     "(hooks/rule_markup.py does under MkDocs)")
    return src, Place(url, url), docs, config


# ---------------------------------------------------------------- the sources, read once


def sources(docs: Path, config: Path, runtime: str = "") -> Sources:
    """Every rule, calculator and tracker of the pages in `docs`, checked; read again only when a page changes."""
    stamp = tuple((p.relative_to(docs).as_posix(), p.stat().st_mtime_ns, p.stat().st_size) for p in sorted(docs.rglob("*.md")))
    redirects = docs / REDIRECTS
    stamp += ((REDIRECTS, redirects.stat().st_mtime_ns, 0),) if redirects.exists() else ()
    return _read(docs.resolve(), config.resolve(), runtime, stamp)


@functools.lru_cache(maxsize=4)
def _read(docs: Path, config: Path, runtime: str, stamp: tuple[tuple[str, int, int], ...]) -> Sources:
    book = Book()
    book.load_redirects(docs / REDIRECTS)
    pages = sorted(docs.rglob("*.md"), key=lambda p: (p.parent.relative_to(docs).parts, p.name != "index.md", p.name))
    for path in pages:
        src = path.relative_to(docs).as_posix()
        text = path.read_text(encoding="utf-8")
        check_examples(text, src)  # at the line as written: rendering moves lines
        book.add(read_page(text, src, path), url=directory_url(src))
    book.check()
    if not runtime:
        from .site.runtime import folder  # runtime/build.py's plan: the folder the finishing step copies

        runtime = folder()
    found = Sources(book, nav_order(config), runtime)
    _check(found)
    return found


def _check(found: Sources) -> None:
    """Every calculator fence and tracker known and on one page, every rule a calculator cites there."""
    calcs, trackers = all_calculators(), all_trackers()
    for page in found.book.pages.values():
        for fence in page.calculators:
            where = (fence.src, fence.line)
            if fence.name not in calcs:
                raise MarkupError(*where, f"unknown calculator {fence.name!r}; known: {', '.join(calcs)}")
            if fence.name in found.calculators:
                home = found.calculators[fence.name]
                again = f"twice on that page, at lines {home.line} and {fence.line}" if home.src == fence.src else f"on {home.src}:{home.line} too"
                raise MarkupError(*where, f"calculator {fence.name} is {again}; a calculator has one home")
            found.calculators[fence.name] = fence
        for code in page.shortcodes:
            if code.name == "tracker":
                name = code.argument or ""
                if name not in trackers:
                    raise MarkupError(page.src, code.line, f"unknown tracker {name!r}; known: {', '.join(trackers) or 'none'}")
                if name in found.trackers:
                    raise MarkupError(page.src, code.line, f"tracker {name} is on {found.trackers[name]} already; a tracker has one home")
                found.trackers[name] = page.src
            elif code.name == "table-settings" and code.argument not in PREFIXES:
                raise MarkupError(page.src, code.line, f"table-settings needs one of {', '.join(PREFIXES)}, got {code.argument}")
    for name, fence in found.calculators.items():
        missing = [r for r in calcs[name].rules if r not in found.book.rules]
        if missing:
            raise MarkupError(fence.src, fence.line, f"calculator {name} cites unknown rule IDs: {', '.join(missing)}")


__all__ = ["CALCULATOR", "RulebookExtension", "calculator_fence", "makeExtension", "sources"]
