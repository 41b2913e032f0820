"""The finishing step at the end of MkDocs's build (rulebook/site/__init__.py).

After MkDocs has written the pages (and the search plugin its index: plugins
run before hooks), `rulebook.site.finish` adds the runtime, the data files,
the content security policy, the short links and the service worker. It is
handed the book the pages were rendered from (hooks/rule_markup.py's
`BookBuild`), not a second reading of docs/.
"""

from __future__ import annotations

import logging
from pathlib import Path

from mkdocs.exceptions import PluginError

from rulebook.site import Build, SiteError, finish

log = logging.getLogger("mkdocs.hooks.finish")
_command = {"name": "build"}  # the mkdocs command: one per process, so not per-build state


def on_startup(command, dirty):
    _command["name"] = command


def on_post_build(config):
    book_build = config["mdx_configs"].get("rulebook.extension", {}).get("build")
    build = Build(site=Path(config["site_dir"]), docs=Path(config["docs_dir"]), site_url=config["site_url"] or "/",
                  site_name=config["site_name"], serving=_command["name"] == "serve", say=log.info,
                  book=book_build.sources().book if book_build is not None else None)
    try:
        finish(build)
    except SiteError as err:
        raise PluginError(str(err)) from err
