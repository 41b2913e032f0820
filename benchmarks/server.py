"""The bench's web server: the built site over loopback, gzipped as a real
host would, counting the bytes it sends by path, optionally through a slow
shared link (Link). `serving` starts one and stops it when done.
"""

from __future__ import annotations

import contextlib
import gzip
import http.server
import io
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

from tests.support.server import SiteHandler

RESULT_BEACON = "/__bench/first-result"  # the page asks for it when its first result shows
COMPRESSIBLE = {".html", ".js", ".mjs", ".css", ".json", ".wasm", ".zip", ".bin", ".py", ".svg", ".xml", ".txt"}


class Link:
    """A slow downlink shared by all requests, as a phone on mobile data has:
    `mbps` in all, and `latency_ms` before each answer starts. Done by the
    server, so the worker's downloads are slowed too (Chromium's own network
    throttling leaves a worker's requests alone)."""

    CHUNK = 16 * 1024

    def __init__(self, mbps: float, latency_ms: float):
        self.bytes_per_s = mbps * 1e6 / 8
        self.latency = latency_ms / 1000
        self.lock = threading.Lock()
        self.free_at = 0.0  # when the link has sent everything queued so far

    def send(self, write, data: bytes) -> None:
        time.sleep(self.latency)
        for at in range(0, len(data), self.CHUNK):
            chunk = data[at:at + self.CHUNK]
            with self.lock:
                now = time.monotonic()
                self.free_at = max(now, self.free_at) + len(chunk) / self.bytes_per_s
                wait = self.free_at - now
            time.sleep(wait)
            write(chunk)


class BenchHandler(SiteHandler):
    """Gzip like a real host, count bytes sent, let the browser cache."""

    sent: dict[str, int]
    at_result: dict[str, int]
    link: Link | None = None
    gz_cache: ClassVar[dict[Path, bytes]] = {}  # shared by every request: a file is compressed once
    lock = threading.Lock()

    def end_headers(self):
        immutable = "/pyodide/" in self.path
        self.send_header("Cache-Control", "public, max-age=31536000, immutable" if immutable else "no-cache")
        http.server.SimpleHTTPRequestHandler.end_headers(self)

    def send_head(self):
        if self.path.split("?")[0] == RESULT_BEACON:  # the page's first result: what was sent by now
            with self.lock:
                self.at_result.clear()
                self.at_result.update(self.sent)
            self.send_response(204)
            self.end_headers()
            return None
        if self.path.split("?")[0].endswith("/sitemap.xml"):
            return super().send_head()  # rewritten for this address, see SiteHandler
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            path = path / "index.html"
        accepts = "gzip" in self.headers.get("Accept-Encoding", "")
        if not (accepts and path.is_file() and path.suffix in COMPRESSIBLE):
            return super().send_head()
        if self.headers.get("If-None-Match") == f'"{path.stat().st_mtime_ns}"':
            self.send_response(304)
            self.end_headers()
            return None
        with self.lock:
            if path not in self.gz_cache:
                self.gz_cache[path] = gzip.compress(path.read_bytes(), 6)
            body = self.gz_cache[path]
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("ETag", f'"{path.stat().st_mtime_ns}"')
        self.end_headers()
        return io.BytesIO(body)

    def copyfile(self, source, outputfile):
        data = source.read()
        try:
            if self.link:
                self.link.send(outputfile.write, data)
            else:
                outputfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            return  # the browser context closed mid-download: nothing to count
        with self.lock:
            self.sent[self.path.split("?")[0]] = self.sent.get(self.path.split("?")[0], 0) + len(data)


@contextlib.contextmanager
def serving(directory: Path, link: Link | None = None
            ) -> Iterator[tuple[http.server.ThreadingHTTPServer, str, dict[str, int]]]:
    """A server for `directory` while the block runs: (server, its base URL,
    the bytes sent by path so far). server.at_result: those bytes when the
    page last sent RESULT_BEACON; server.handler.link: the link, which may be
    changed between visits; server.site: `directory`."""
    sent: dict[str, int] = {}
    handler = type("Handler", (BenchHandler,), {"sent": sent, "at_result": {}, "link": link})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), lambda *a: handler(*a, directory=str(directory)))
    server.at_result = handler.at_result
    server.handler = handler  # its `link` may be changed between visits
    server.site = directory
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server, f"http://127.0.0.1:{server.server_address[1]}/", sent
    finally:
        server.shutdown()
        server.server_close()
