"""Lighthouse scores of a page: accessibility, best practices and SEO.

Runs the pinned npm `lighthouse` (package.json) with its default mobile
settings (a phone screen, touch, throttling) against Debian's Chromium (or
$CHROMIUM / $CHROME_PATH), with the same flags the browser tests use. Nothing
is fetched from other hosts. About 20 seconds a page on two cores; several
pages in one run share one Chromium and one Node process (scores_of).

    from benchmarks.lighthouse import scores
    scores("http://127.0.0.1:8000/tell-tale/combat/")
    # {'accessibility': 100, 'best-practices': 100, 'seo': 100, 'failed': {...}}

Or from the shell: python -m benchmarks.lighthouse URL [URL ...]
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
from benchmarks.goals import LIGHTHOUSE as GOALS  # noqa: E402  (the goals are benchmarks/goals.py's)
from tests.support.browser import CHROMIUM_FLAGS  # noqa: E402
CLI = ROOT / "node_modules" / "lighthouse" / "cli" / "index.js"  # there: the package is installed
RUNNER = ROOT / "benchmarks" / "lighthouse-run.mjs"
CATEGORIES = ("accessibility", "best-practices", "seo")
CHROME_FLAGS = ("--headless", *CHROMIUM_FLAGS)  # the same browser setup as the tests


def chrome_path() -> str:
    path = (os.environ.get("CHROME_PATH") or os.environ.get("CHROMIUM") or shutil.which("chromium")
            or shutil.which("chromium-browser"))
    if not path:
        raise RuntimeError("No Chromium found: set CHROME_PATH (make chromium installs one).")
    return path


def scores(url: str, timeout: float = 180) -> dict:
    """Category scores (0-100) for `url`, and under "failed" the weighted
    audits that did not pass in each category, {category: [audit id, ...]}."""
    return scores_of([url], timeout=timeout)[url]


def scores_of(urls: list[str], categories: tuple[str, ...] = CATEGORIES, screenshot: bool = True,
              timeout: float = 180) -> dict[str, dict]:
    """`scores` of each URL, {url: result}, in one run: one Node process and
    one Chromium for all (lighthouse-run.mjs). `timeout` is per page.
    `screenshot=False` leaves out the full-page screenshot, which no score
    reads (about 2 s a page)."""
    if not CLI.exists():
        raise RuntimeError("The npm lighthouse package is missing: run `make setup` (it runs `npm ci`).")
    # Chromium can still be writing its profile as the folder goes: not an error of the site.
    with (tempfile.TemporaryDirectory(prefix="lighthouse-", ignore_cleanup_errors=True) as tmp,
          chromium_on_a_port(Path(tmp) / "profile") as port):
        cmd = ["node", str(RUNNER), str(port), tmp, ",".join(categories), "1" if screenshot else "0", *urls]
        proc = subprocess.run(cmd, capture_output=True, text=True, env=dict(os.environ, TMPDIR=tmp),
                              timeout=timeout * len(urls))
        reports = [Path(tmp) / f"{n}.json" for n in range(len(urls))]
        if proc.returncode or not all(r.exists() for r in reports):
            raise RuntimeError(f"lighthouse failed on {urls} ({proc.returncode}):\n{proc.stderr[-3000:]}")
        return {url: summary(json.loads(r.read_text()), categories) for url, r in zip(urls, reports)}


@contextlib.contextmanager
def chromium_on_a_port(profile: Path):
    """A headless Chromium (the tests' flags) listening for DevTools on a free
    port; yields the port. Lighthouse drives it, a new tab for each page."""
    cmd = [chrome_path(), *CHROME_FLAGS, "--remote-debugging-port=0", f"--user-data-dir={profile}", "about:blank"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        active = profile / "DevToolsActivePort"
        deadline = time.monotonic() + 30
        while not (active.exists() and active.read_text().strip()):
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"Chromium did not open its DevTools port (exit code {proc.poll()})")
            time.sleep(0.05)
        yield int(active.read_text().split()[0])
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def summary(data: dict, categories: tuple[str, ...]) -> dict:
    result: dict = {"failed": {}}
    for cat in categories:
        category = data["categories"][cat]
        result[cat] = None if category["score"] is None else round(category["score"] * 100)
        result["failed"][cat] = [
            ref["id"] for ref in category["auditRefs"]
            if ref["weight"] > 0 and (data["audits"][ref["id"]]["score"] or 0) < 1
            and data["audits"][ref["id"]]["scoreDisplayMode"] not in ("notApplicable", "manual", "informative")
        ]
    return result


def format_scores(url: str, result: dict) -> str:
    parts = []
    for cat in (c for c in CATEGORIES if c in result):
        goal = GOALS[cat]
        mark = "ok" if (result[cat] or 0) >= goal else f"below goal {goal}"
        failed = ", ".join(result["failed"][cat])
        parts.append(f"{cat} {result[cat]} ({mark}{'; failed: ' + failed if failed else ''})")
    return f"{url}: " + "; ".join(parts)


if __name__ == "__main__":
    for url, result in scores_of(sys.argv[1:]).items():
        print(format_scores(url, result))
