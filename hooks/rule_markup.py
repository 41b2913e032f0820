"""The rule markup in MkDocs's build: the `rulebook.extension` Markdown extension, given its book and its page.

The extension (rulebook/extension.py) renders every page's markup in one
pass under any generator. MkDocs gives an extension no page context and
makes a new `Markdown` for each page from `mdx_configs`, so this hook
makes one `BookBuild` per build and puts it in the extension's options
once (`on_config`: the one line that writes `mdx_configs`), and names each
page on it before the page is rendered (`on_page_markdown`). It reads the
book before the first page (`on_files`), so a mistake fails the build with
its page and line as one sentence, and tells the page template what a page
with a form or a tracker needs in <head> (`calculator_runtime`: the worker
starts early; `calculator_anchor`: the skip link to the first form).
hooks/finish.py hands the same book to the finishing step (`book_build`).
"""

from __future__ import annotations

from pathlib import Path

from mkdocs.exceptions import PluginError

from rulebook.extension import BookBuild
from rulebook.forms import anchor
from rulebook.markup import MarkupError, relative_url
from rulebook.render import Place
from rulebook.site.errors import SiteError
from rulebook.site.runtime import folder

EXTENSION = "rulebook.extension"


def on_config(config):
    if EXTENSION not in config["markdown_extensions"]:
        raise PluginError(f"mkdocs.yml: markdown_extensions needs {EXTENSION}, which renders the rule markup.")
    try:
        runtime = folder()  # runtime/build.py's plan: the folder's name, nothing built
    except SiteError as err:
        raise PluginError(str(err)) from err
    build = BookBuild(Path(config["docs_dir"]), Path(config["config_file_path"]), runtime, config["site_url"] or "/")
    config["mdx_configs"][EXTENSION] = {"build": build}  # the extension's one option, for every page's Markdown
    return config


def on_files(files, config):
    try:
        book_build(config).sources()
    except MarkupError as err:
        raise PluginError(str(err)) from err
    return files


def on_page_markdown(markdown, page, config, files):
    build = book_build(config)
    src = page.file.src_uri
    build.page = Place(page.url, page.url, src)  # MkDocs leaves raw HTML's links as written: from the address
    found = build.sources()
    forms = [name for name, fence in found.calculators.items() if fence.src == src]
    if forms or src in found.trackers.values():
        page.meta["calculator_runtime"] = relative_url(found.runtime, page.url)
    if forms:
        page.meta["calculator_anchor"] = anchor(forms[0])
    return markdown


def book_build(config) -> BookBuild:
    """This build's BookBuild, which on_config made."""
    return config["mdx_configs"][EXTENSION]["build"]
