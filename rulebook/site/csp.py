"""The content security policy of every page.

The finishing step reads every page once as the generator wrote it
(built.py); `collect` takes the sha256 of each inline script (Material's:
the storage helper, whose text changes with the page's depth, the palette
and the tab restorer); then `write` puts one policy for the whole site into
every page, as each is written for the only time, and into `_headers`, the
header file of Netlify and Cloudflare Pages. The page's <meta> is written
there and only there, right after its <meta charset> and before any script,
with the build its scripts go with (`<meta name="asset-build">`, assets.py),
from one macro (templates/site_fill.html `head`): the policy holds every
page's hashes, so it is known only once every page is built, after the
last page a generator's hook could write. The steps between the reading
and the writing change no inline script (tests/test_csp.py checks every
page's scripts against its policy). One policy everywhere: Material's instant
navigation keeps the first page's head, so a page reached that way runs its
inline scripts under the first page's policy.

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
on every request, so no hash can allow it: there, and only there
(`serving`), inline scripts are allowed instead of hashed.
"""

from __future__ import annotations

import base64
import hashlib
from pathlib import Path
from urllib.parse import urlsplit

from ..templating import macro
from .built import Page
from .errors import SiteError

TEMPLATE = "site_fill.html"  # the <meta> written into each page's head (templates/site_fill.html, autoescaped)
HEADERS_FILE = "_headers"
POLICY = {
    "default-src": ["'self'"],
    "script-src": ["'self'", "'wasm-unsafe-eval'"],  # + the inline scripts' hashes
    "style-src": ["'self'"],
    "img-src": ["'self'", "data:"],  # Material's icons are data: URLs in its stylesheet
    "font-src": ["'self'"],
    "connect-src": ["'self'", "data:"],
    "worker-src": ["'self'"],
    # No manifest-src: it falls back to default-src 'self', which says the same in every engine that knows it, and
    # WebKit, which does not, logged "Unrecognized Content-Security-Policy directive 'manifest-src'" on every page.
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
}
# In the header only: a <meta> policy cannot say who may frame the page
# (browsers ignore frame-ancestors there, with a warning in the console).
HEADER_ONLY = {
    "frame-ancestors": ["'self'"],  # no other site shows the pages in a frame (clickjacking)
}


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


def collect(page: Page, state: CspState) -> None:
    """The inline scripts of one page, as the finishing step read it (built.py), which has no policy yet."""
    if page.policy:
        raise SiteError(f"{page.rel} has a content security policy already: a site is finished once.")
    if not page.charset:
        raise SiteError(f"{page.rel} has no charset meta tag, after which its policy goes: is it a generator's page?")
    state.hashes.update(script_hash(text) for text in page.scripts)


def write(site: Path, pages: list[Page], state: CspState, site_url: str, build: str) -> None:
    """Each page with the policy and the asset build (`build`) right after its <meta charset>, and the header a
    host sends into `_headers`."""
    head = macro(TEMPLATE, "head", state.policy(), build)
    for page in pages:
        at = page.html.index(page.charset) + len(page.charset)
        page.path.write_text(page.html[:at] + head + page.html[at:], encoding="utf-8")
    (site / HEADERS_FILE).write_text(headers_file(state.policy(header=True), urlsplit(site_url or "/").path), encoding="utf-8")


# ---------------------------------------------------------------- helpers


def headers_file(policy: str, base: str) -> str:
    base = "/" + base.strip("/") + "/" if base.strip("/") else "/"
    return (
        "# Written by rulebook/site/csp.py for this build: the headers a host should send\n"
        "# (Netlify and Cloudflare Pages read this file; see README, Deploying).\n"
        f"{base}*\n"
        f"  Content-Security-Policy: {policy}\n"
        f"{base}sw.js\n"
        "  Cache-Control: no-cache\n"
        f"{base}pyodide/*\n"
        "  Cache-Control: public, max-age=31536000, immutable\n"
    )


def script_hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode() + "'"

