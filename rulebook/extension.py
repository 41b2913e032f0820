"""The rule markup as a Python-Markdown extension: `rulebook.extension` in mkdocs.yml.

Any generator that runs Python-Markdown extensions (MkDocs, ProperDocs,
Zensical) renders the rule pages through this one extension:

- a preprocessor, first of all (before whitespace is normalised and fences
  are read), that hands Python-Markdown the page's Markdown with the markup
  rendered (rulebook/render.py `markdown`), from the page as the book read it;
- the ```calculator fence's format (`calculator_fence`, declared as a
  pymdownx.superfences custom fence), which draws the form;
- a postprocessor, last of all, that checks and finishes the HTML
  (rulebook/render.py `html`).

What the markup refers to (every rule, term, calculator and tracker, the
reading order, the runtime folder) is one `BookBuild`: the book read once
(rulebook/book.py `read_docs`, one markdown-it reading of each page) and
handed to every page's rendering and to the finishing step. Under MkDocs
and ProperDocs the hook hooks/rule_markup.py makes it for each build and
gives it to the extension in its one option, `build`, and names the page
before each is rendered (`BookBuild.page`); under Zensical, which runs no
hooks, the extension makes one per process and takes the page from
Zensical's rendering context (`ContextPreprocessor.from_markdown`). A page
whose text is not the one the book read (a live server's edit) has the
book read again. A mistake raises rulebook.MarkupError with the page and line.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from markdown import Extension, Markdown
from markdown.postprocessors import Postprocessor
from markdown.preprocessors import Preprocessor

from calculators.registry import all_calculators

from . import render
from .book import directory_url, read_docs
from .config import nav_order
from .markup import CALCULATOR, MarkupError, Page
from .pages import without_front_matter
from .render import Place, Sources

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class BookBuild:
    """One build's book and what the markup refers to, read once; and the page being rendered."""

    docs: Path
    config: Path
    runtime: str = ""  # the runtime folder, relative to the site root (empty: asked of runtime/build.py)
    site_url: str = "/"  # the address the site is deployed to (the generator's site_url)
    page: Place | None = None  # the page MkDocs renders next (hooks/rule_markup.py); Zensical's comes from its context
    _sources: Sources | None = field(default=None, repr=False)

    def sources(self) -> Sources:
        """Every rule, calculator and tracker of the pages in `docs`, checked: read on first use."""
        if self._sources is None:
            self._sources = read_sources(self.docs, self.config, self.runtime, self.site_url)
        return self._sources

    def page_read(self, src: str, text: str) -> Page:
        """The book's reading of page `src`, whose text the generator gives as `text` (front matter
        taken out); the book read again first when the page is not as the book read it."""
        page = self.sources().book.pages.get(src)
        if page is None or without_front_matter(page.text).strip("\n") != text.strip("\n"):
            self._sources = None
            page = self.sources().book.pages.get(src)
        if page is None:
            raise MarkupError(src, None, f"rulebook.extension renders {src}, which is not in {self.docs}")
        return page


_PROCESS_BUILDS: dict[tuple[Path, Path], BookBuild] = {}  # a generator without hooks: one BookBuild per docs folder


@dataclass
class Rendering:
    """The page Python-Markdown is rendering: what the fence's format and the postprocessor read."""

    page: Page
    place: Place
    sources: Sources


class RulebookExtension(Extension):  # type: ignore[misc]  # Python-Markdown has no types
    def __init__(self, **kwargs: Any) -> None:
        self.config = {
            # an object, so not None (Python-Markdown reads a None default's value as a boolean)
            "build": ["", "the BookBuild (hooks/rule_markup.py gives one per MkDocs build)"],
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
        build, place = _build_and_page(self.md, self.extension.getConfig("build") or None)
        page = build.page_read(place.src, "\n".join(lines))
        found = build.sources()
        self.md.rulebook = Rendering(page, place, found)
        return render.markdown(page, place, found).split("\n")


class _Post(Postprocessor):  # type: ignore[misc]
    def run(self, text: str) -> str:
        rendering: Rendering | None = getattr(self.md, "rulebook", None)
        if rendering is None:
            return text
        return render.html(text, rendering.page, rendering.place, rendering.sources)


def calculator_fence(source: str, language: str, class_name: str, options: object, md: Markdown,
                     **kwargs: object) -> str:
    """The `format` mkdocs.yml gives pymdownx.superfences for ```calculator fences: the form."""
    rendering: Rendering | None = getattr(md, "rulebook", None)
    if rendering is None:
        from pymdownx.superfences import SuperFencesException  # only ever called inside a Markdown build

        raise SuperFencesException(
            f"a ```calculator fence ({source.strip()}) needs the rulebook.extension Markdown extension")
    return render.calculator_form(source.strip(), rendering.place.url, rendering.sources)


def _build_and_page(md: Markdown, build: BookBuild | None) -> tuple[BookBuild, Place]:
    """The build and the page being rendered: Zensical's rendering context (which rewrites raw HTML's
    links as written beside the source), else the page the hook named."""
    context = _zensical_context(md)
    if context is not None:
        settings = context.config
        root = Path(settings.get("root_dir", "."))
        path = str(context.page.path).replace(os.sep, "/")
        address = str(context.page.url or directory_url(path)).lstrip("/")
        docs, config = (root / settings.get("docs_dir", "docs")).resolve(), (root / "mkdocs.yml").resolve()
        site_url = str(settings.get("site_url") or "/")
        build = build or _PROCESS_BUILDS.setdefault((docs, config), BookBuild(docs, config, site_url=site_url))
        return build, Place(address, path, path)
    if build is None or build.page is None:
        raise MarkupError("?", None, "rulebook.extension does not know which page it renders: under MkDocs, "
                                     "hooks/rule_markup.py gives it the build and names each page")
    return build, build.page


def _zensical_context(md: Markdown) -> Any:
    """Zensical's rendering context of this Markdown, as its own extensions find it; None under another generator."""
    try:
        from zensical.extensions.context import ContextPreprocessor
    except ImportError:
        return None
    return ContextPreprocessor.from_markdown(md)


# ---------------------------------------------------------------- the sources, read once


def read_sources(docs: Path, config: Path, runtime: str = "", site_url: str = "/") -> Sources:
    """Every rule, calculator and tracker of the pages in `docs`, checked; `site_url`, the address the site is
    deployed to."""
    book = read_docs(docs)
    if not runtime:
        from .site.runtime import folder  # runtime/build.py's plan: the folder the finishing step copies

        runtime = folder()
    found = Sources(book, nav_order(config), runtime, docs=docs, site_url=site_url)
    _check(found)
    return found


def _check(found: Sources) -> None:
    """Every calculator fence and tracker known and on one page, every rule a calculator cites there."""
    calcs = all_calculators()
    for page in found.book.pages.values():
        for fence in page.calculators:
            where = (fence.src, fence.line)
            if fence.name not in calcs:
                raise MarkupError(*where, f"unknown calculator {fence.name!r}; known: {', '.join(calcs)}")
            if fence.name in found.calculators:
                home = found.calculators[fence.name]
                again = (f"twice on that page, at lines {home.line} and {fence.line}" if home.src == fence.src
                         else f"on {home.src}:{home.line} too")
                raise MarkupError(*where, f"calculator {fence.name} is {again}; a calculator has one home")
            found.calculators[fence.name] = fence
        for code in page.shortcodes:
            if code.name == "tracker":  # known, as the page was read: one page each
                name = code.argument or ""
                if name in found.trackers:
                    raise MarkupError(page.src, code.line,
                                      f"tracker {name} is on {found.trackers[name]} already; a tracker has one home")
                found.trackers[name] = page.src
    for name, fence in found.calculators.items():
        missing = [r for r in calcs[name].rules if r not in found.book.rules]
        if missing:
            raise MarkupError(fence.src, fence.line, f"calculator {name} cites unknown rule IDs: {', '.join(missing)}")


__all__ = ["CALCULATOR", "BookBuild", "RulebookExtension", "calculator_fence", "makeExtension", "read_sources"]
