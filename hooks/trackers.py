"""Tracker pages: a fight or a season kept across many rolls (issue 16).

A page asks for a tracker with a line of its own:

    {{ tracker tell_tale.encounter }}

which becomes an empty container the page script fills (docs/assets/
<tracker>.js, loaded by docs/assets/rules.js when the container is there).
The container carries the tracker's vocabulary (`Tracker.vocabulary`: its
kinds, keywords, divisions, points... as JSON in `data-vocabulary`, read
with JSON.parse, never as HTML) and its limits (`data-limits`: the longest
state and share link, from `Tracker.max_state_chars` and `max_link_chars`),
so the script declares none of them. The
page starts the calculators' worker from <head>, as a calculator form does
(overrides/main.html reads `calculator_runtime`). The
rules logic is all in Python (`registry.Tracker`, reached through the
worker's `compute("track:<name>", ...)`); the page only draws the state.

An unknown tracker, or one on two pages, fails the build; one on no page fails
the finishing step (rulebook/site).
"""

from __future__ import annotations

import html
import json
import re

from mkdocs.exceptions import PluginError
from mkdocs.utils import get_relative_url

from calculators.registry import all_trackers

MARKER = re.compile(r"^\{\{\s*tracker\s+([a-z_]+\.[a-z_]+)\s*\}\}[ \t]*$", re.M)


# ---------------------------------------------------------------- hooks


def on_config(config):
    config["tracker_homes"] = {}  # tracker name -> the page src it is on
    return config


def on_page_markdown(markdown, page, config, files):
    trackers = all_trackers()
    src = page.file.src_uri
    homes = config["tracker_homes"]

    def container(m):
        name = m.group(1)
        line = markdown.count("\n", 0, m.start()) + 1
        if name not in trackers:
            raise PluginError(f"{src}:{line}: unknown tracker {name!r}; known: {', '.join(trackers) or 'none'}.")
        if name in homes:
            raise PluginError(f"{src}:{line}: tracker {name} is on {homes[name]} already; a tracker has one home.")
        homes[name] = src
        page.meta["calculator_runtime"] = get_relative_url(config["pyodide_runtime"], page.url)
        tracker = trackers[name]
        words = json.dumps(tracker.vocabulary() if tracker.vocabulary else {}, ensure_ascii=False, separators=(",", ":"))
        limits = json.dumps({"state": tracker.max_state_chars, "link": tracker.max_link_chars}, separators=(",", ":"))
        return (
            f'<div class="tracker" data-tracker="{html.escape(name, quote=True)}" '
            f'data-runtime="{html.escape(page.meta["calculator_runtime"], quote=True)}" '
            f'data-vocabulary="{html.escape(words, quote=True)}" '
            f'data-limits="{html.escape(limits, quote=True)}">'
            f'<p class="tracker-status" role="status">{html.escape(tracker.title)}: this tracker needs JavaScript '
            f"and keeps its record on this device.</p></div>"
        )

    return MARKER.sub(container, markdown)
