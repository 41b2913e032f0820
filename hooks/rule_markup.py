"""The rule markup in MkDocs's build: the `rulebook.extension` Markdown extension, told which page it renders.

The extension (rulebook/extension.py) renders every page's markup in one
pass under any generator; MkDocs gives an extension no page context, so
this hook sets its options for each page (`src`, `url`) and once per build
(`docs`, `config`, `runtime`). It also reads every page before the first
is rendered (`on_files`), so a mistake fails the build with its page and
line as one sentence, and tells the page template what a page with a form
or a tracker needs in <head> (`calculator_runtime`: the worker starts
early; `calculator_anchor`: the skip link to the first form).
"""

from __future__ import annotations

from pathlib import Path

from mkdocs.exceptions import PluginError

from rulebook.extension import sources
from rulebook.forms import anchor
from rulebook.markup import MarkupError, relative_url
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
    config["mdx_configs"].setdefault(EXTENSION, {}).update(
        docs=str(config["docs_dir"]), config=str(config["config_file_path"]), runtime=runtime)
    return config


def on_files(files, config):
    try:
        _sources(config)
    except MarkupError as err:
        raise PluginError(str(err)) from err
    return files


def on_page_markdown(markdown, page, config, files):
    options = config["mdx_configs"][EXTENSION]
    options.update(src=page.file.src_uri, url=page.url)
    found = _sources(config)
    forms = [name for name, fence in found.calculators.items() if fence.src == page.file.src_uri]
    if forms or page.file.src_uri in found.trackers.values():
        page.meta["calculator_runtime"] = relative_url(found.runtime, page.url)
    if forms:
        page.meta["calculator_anchor"] = anchor(forms[0])
    return markdown


def _sources(config):
    options = config["mdx_configs"][EXTENSION]
    return sources(Path(options["docs"]), Path(options["config"]), options["runtime"])
