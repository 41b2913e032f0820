"""The tests' static host: the built site on a loopback port, served as the
README asks a host to serve it, plus an empty page at the site's origin."""

from __future__ import annotations

import functools
import http.server
import io
import json
import re
import sys
import threading
from pathlib import Path
from typing import ClassVar

# An empty page at the site's origin, served by the tests' server: a test
# puts things in the site's storage there before it opens the page under
# test. A page of the site would load Material and, on a calculator page,
# start the runtime only to be left: about 2 s of CPU.
BLANK = "__blank__.html"


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """A static host as the README asks for: right MIME types, no caching games."""

    extensions_map: ClassVar[dict[str, str]] = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm",
        ".mjs": "text/javascript",
        ".js": "text/javascript",
        ".json": "application/json",
        ".webmanifest": "application/manifest+json",
    }

    def end_headers(self):
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def send_head(self):
        """Serve sitemap.xml as if the site had been built for this address,
        and BLANK, an empty page at the site's origin.

        Material's instant navigation only takes links that are in the
        sitemap, and it compares ports: a deployment sets SITE_URL to its own
        address; this server plays that deployment on a random port."""
        if self.path.split("?")[0] == "/" + BLANK:
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return io.BytesIO(b"")
        if self.path.split("?")[0].endswith("/sitemap.xml"):
            path = Path(self.translate_path(self.path))
            here = f"http://127.0.0.1:{self.server.server_address[1]}/"
            return self.answer(re.sub(r"<loc>https?://[^/<]+/", f"<loc>{here}", path.read_text()).encode(), "application/xml")
        return super().send_head()

    def answer(self, body: bytes, kind: str):
        """Answer with `body` as `kind` (for send_head to return)."""
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return io.BytesIO(body)

    def log_message(self, *args):  # keep test output readable
        pass


class LeanHandler(SiteHandler):
    """The site as the tests' Chromium contexts have it unless a test asks (support/browser.py's `Browser`), for an
    engine Playwright cannot route: no service worker (sw.js answers 404: the page says offline use is not
    available, and precaches nothing) and Material's search index with no pages (its worker builds nothing)."""

    def send_head(self):
        path = self.path.split("?")[0]
        if path.endswith("/sw.js"):
            self.send_error(404)
            return None
        if path.endswith("/search/search_index.json"):
            return self.answer(empty_search_index(Path(self.translate_path(path))), "application/json")
        return super().send_head()


@functools.cache
def empty_search_index(index: Path) -> bytes:
    """The site's search index with no pages in it (its config kept)."""
    return json.dumps({"config": json.loads(index.read_text(encoding="utf-8"))["config"], "docs": []}).encode()


def silent(name: str, count: int | None = None, base: type[SiteHandler] = SiteHandler) -> type[SiteHandler]:
    """A host whose answers for the script `name` (e.g. "calc-worker.mjs") are a module that starts and never says
    a word, the first `count` of them (None: every one), and the real script after; `asked` lists every request.
    The rest as `base` serves it."""

    class SilentHandler(base):  # type: ignore[valid-type,misc]
        asked: ClassVar[list[str]] = []

        def send_head(self):
            if self.path.split("?")[0].endswith("/" + name):
                SilentHandler.asked.append(self.path)
                if count is None or len(SilentHandler.asked) <= count:
                    return self.answer(b"// says nothing, ever\n", "text/javascript")
            return super().send_head()

    return SilentHandler


def silent_workers(count: int, base: type[SiteHandler] = SiteHandler) -> type[SiteHandler]:
    """The calculators' worker silent `count` times (as Firefox's worker that stalled before its script ran)."""
    return silent("calc-worker.mjs", count, base)


class QuietServer(http.server.ThreadingHTTPServer):
    """A browser that closes a connection mid-answer (a page left, a request
    aborted on purpose) is no fault of the site: not printed as a traceback."""

    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            super().handle_error(request, client_address)


def serve(directory: Path, handler=SiteHandler):
    server = QuietServer(("127.0.0.1", 0), functools.partial(handler, directory=str(directory)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"
