"""A content security policy for every page (issue 13).

overrides/main.html puts `<meta http-equiv="Content-Security-Policy"
content="CONTENT-SECURITY-POLICY">` in every page's head (the placeholder
is the template global `csp_placeholder`, so a build without this hook
declares no policy rather than a broken one). This hook reads
every page as written (`on_post_page`, last; `on_post_template` for
404.html), takes the sha256 of each inline script (Material's: the storage
helper, whose text changes with the page's depth, the palette and the tab
restorer), and at the end (`on_post_build`) writes one policy for the whole
site into every page and into `_headers`, the header file of Netlify and
Cloudflare Pages. One policy everywhere: Material's instant navigation keeps
the first page's head, so a page reached that way runs its inline scripts
under the first page's policy.

The policy: scripts only from this site or with a listed hash (no
'unsafe-inline'), WebAssembly compiled (Pyodide, and the snapshot's
Zstandard decoder), workers from this site (the calculators, the snapshot
helper, search, the service worker), fetches from this site or of data: URLs
(the decoder's wasm and the empty standard library are data: URLs), no
plugins, no <base>. Styles from this site only: Material sets styles
through the DOM, which a policy does not block. The header in `_headers`
adds what a <meta> cannot carry: `frame-ancestors 'self'`, no other site
shows the pages in a frame.

Under `mkdocs serve` the pages get the live-reload script, inline and new
on every request, so no hash can allow it: there, and only there, inline
scripts are allowed instead of hashed.
"""

from __future__ import annotations

import base64
import hashlib
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority

PLACEHOLDER = "CONTENT-SECURITY-POLICY"
HEADERS_FILE = "_headers"
POLICY = {
    "default-src": ["'self'"],
    "script-src": ["'self'", "'wasm-unsafe-eval'"],  # + the inline scripts' hashes
    "style-src": ["'self'"],
    "img-src": ["'self'", "data:"],  # Material's icons are data: URLs in its stylesheet
    "font-src": ["'self'"],
    "connect-src": ["'self'", "data:"],
    "worker-src": ["'self'"],
    "manifest-src": ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
}
# In the header only: a <meta> policy cannot say who may frame the page
# (browsers ignore frame-ancestors there, with a warning in the console).
HEADER_ONLY = {
    "frame-ancestors": ["'self'"],  # no other site shows the pages in a frame (clickjacking)
}
# Types of <script> that run (an empty type is JavaScript); data blocks such
# as Material's application/json config do not, and need no hash.
RUNNING = {"", "text/javascript", "application/javascript", "module", "importmap"}


class CspState:
    """Per build: the inline scripts' hashes seen so far."""

    def __init__(self, serving: bool) -> None:
        self.hashes: set[str] = set()
        self.serving = serving

    def policy(self, header: bool = False) -> str:
        """The policy of the pages' <meta>, or with `header` the one a host sends."""
        inline = ["'unsafe-inline'"] if self.serving else sorted(self.hashes)  # a hash would disable 'unsafe-inline'
        directives = dict(POLICY, **{"script-src": [*POLICY["script-src"], *inline]}, **(HEADER_ONLY if header else {}))
        return "; ".join(f"{name} {' '.join(values)}" for name, values in directives.items())


_command = {"name": "build"}  # the mkdocs command: one per process, so not per-build state


# ---------------------------------------------------------------- hooks


def on_startup(command, dirty):
    _command["name"] = command


def on_config(config):
    config["csp"] = CspState(serving=_command["name"] == "serve")
    return config


def on_env(env, config, files):
    env.globals["csp_placeholder"] = PLACEHOLDER
    return env


@event_priority(-100)  # last: the page as it will be written
def on_post_page(output, page, config):
    _collect(output, page.file.src_uri, config["csp"])
    return output


@event_priority(-100)
def on_post_template(output_content, template_name, config):
    if template_name.endswith(".html"):
        _collect(output_content, template_name, config["csp"])
    return output_content


@event_priority(-50)  # after the pages are written, before hooks/offline.py lists and hashes them
def on_post_build(config):
    site = Path(config["site_dir"])
    policy = config["csp"].policy()
    for path in site.rglob("*.html"):
        text = path.read_text(encoding="utf-8")
        if PLACEHOLDER in text:
            path.write_text(text.replace(PLACEHOLDER, policy), encoding="utf-8")
    header = config["csp"].policy(header=True)
    (site / HEADERS_FILE).write_text(headers_file(header, urlsplit(config["site_url"] or "/").path), encoding="utf-8")


# ---------------------------------------------------------------- helpers


def headers_file(policy: str, base: str) -> str:
    base = "/" + base.strip("/") + "/" if base.strip("/") else "/"
    return (
        "# Written by hooks/csp.py for this build: the headers a host should send\n"
        "# (Netlify and Cloudflare Pages read this file; see README, Deploying).\n"
        f"{base}*\n"
        f"  Content-Security-Policy: {policy}\n"
        f"{base}sw.js\n"
        "  Cache-Control: no-cache\n"
        f"{base}pyodide/*\n"
        "  Cache-Control: public, max-age=31536000, immutable\n"
    )


def inline_scripts(html: str) -> list[str]:
    """The text of every inline script that runs, exactly as written."""
    parser = _Scripts()
    parser.feed(html)
    parser.close()
    return parser.found


def script_hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode() + "'"


def _collect(html: str, where: str, state: CspState) -> None:
    if PLACEHOLDER not in html:
        raise PluginError(f"{where} has no content security policy: overrides/main.html must put its meta in every page.")
    state.hashes.update(script_hash(text) for text in inline_scripts(html))


class _Scripts(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.found: list[str] = []
        self._text: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        if tag == "script":
            values = dict(attrs)
            runs = (values.get("type") or "").strip().lower() in RUNNING
            self._text = [] if runs and "src" not in values else None

    def handle_data(self, data):
        if self._text is not None:
            self._text.append(data)

    def handle_endtag(self, tag):
        if tag == "script" and self._text is not None:
            self.found.append("".join(self._text))
            self._text = None
