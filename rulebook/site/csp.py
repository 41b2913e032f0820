"""The content security policy of every page.

overrides/main.html puts `<meta http-equiv="Content-Security-Policy"
content="CONTENT-SECURITY-POLICY">` in every page's head: a site not
finished has no policy (browsers ignore that one word), rather than a broken one. The finishing step reads every
page once as the generator wrote it (built.py), `collect` takes the sha256 of
each inline script (Material's: the storage helper, whose text changes with
the page's depth, the palette and the tab restorer), then `write` puts one
policy for the whole site into every page, as each is written for the only
time, and into `_headers`, the header file of Netlify and Cloudflare Pages.
The placeholder stays because the policy is known only once every page is
built (it holds every page's hashes), and no generator lets a hook write a
page's head after all pages are rendered; the steps between the reading and
the writing change no inline script (tests/test_csp.py checks every page's
scripts against its policy). One policy everywhere: Material's instant
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

from .errors import SiteError

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


def collect(html: str, scripts: list[str], where: str, state: CspState) -> None:
    """The inline scripts of one page (`scripts`, as the finishing step read them: built.py), whose HTML must carry
    the placeholder."""
    if PLACEHOLDER not in html:
        raise SiteError(f"{where} has no content security policy: overrides/main.html must put its meta "
                        f"(content={PLACEHOLDER!r}) in every page, and a site is finished once.")
    state.hashes.update(script_hash(text) for text in scripts)


def write(site: Path, pages: list[tuple[Path, str]], state: CspState, site_url: str) -> None:
    """Each page (its file, its HTML as read by `collect`) with the policy in, and the header a host
    sends into `_headers`."""
    policy = state.policy()
    for path, html in pages:
        path.write_text(html.replace(PLACEHOLDER, policy), encoding="utf-8")
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

