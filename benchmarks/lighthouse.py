"""Lighthouse scores of a page: accessibility, best practices and SEO.

Runs the pinned npm `lighthouse` (package.json) with its default mobile
settings (a phone screen, touch, throttling) against Debian's Chromium (or
$CHROMIUM / $CHROME_PATH), with the same flags the browser tests use. Nothing
is fetched from other hosts. About 20 seconds a page on two cores.

    from benchmarks.lighthouse import scores
    scores("http://127.0.0.1:8000/tell-tale/combat/")
    # {'accessibility': 100, 'best-practices': 100, 'seo': 100, 'failed': {...}}

Or from the shell: python -m benchmarks.lighthouse URL [URL ...]
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from conftest import CHROMIUM_FLAGS  # noqa: E402
CLI = ROOT / "node_modules" / "lighthouse" / "cli" / "index.js"
CATEGORIES = ("accessibility", "best-practices", "seo")
CHROME_FLAGS = ("--headless", *CHROMIUM_FLAGS)  # the same browser setup as the tests
GOALS = {"accessibility": 100, "best-practices": 100, "seo": 90}  # issue 7


def chrome_path() -> str:
    path = os.environ.get("CHROME_PATH") or os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if not path:
        raise RuntimeError("No Chromium found: set CHROME_PATH (make chromium installs one).")
    return path


def scores(url: str, timeout: float = 180) -> dict:
    """Category scores (0-100) for `url`, and under "failed" the weighted
    audits that did not pass in each category, {category: [audit id, ...]}."""
    if not CLI.exists():
        raise RuntimeError("The npm lighthouse package is missing: run `make setup` (it runs `npm ci`).")
    with tempfile.TemporaryDirectory(prefix="lighthouse-") as tmp:
        report = Path(tmp) / "report.json"
        cmd = [
            "node", str(CLI), url,
            "--output=json", f"--output-path={report}", "--quiet",
            f"--only-categories={','.join(CATEGORIES)}",
            f"--chrome-flags={' '.join(CHROME_FLAGS)}",
        ]
        env = dict(os.environ, CHROME_PATH=chrome_path(), TMPDIR=tmp)
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout)
        if proc.returncode or not report.exists():
            raise RuntimeError(f"lighthouse failed on {url} ({proc.returncode}):\n{proc.stderr[-3000:]}")
        data = json.loads(report.read_text())
    result: dict = {"failed": {}}
    for cat in CATEGORIES:
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
    for cat in CATEGORIES:
        goal = GOALS[cat]
        mark = "ok" if (result[cat] or 0) >= goal else f"below goal {goal}"
        failed = ", ".join(result["failed"][cat])
        parts.append(f"{cat} {result[cat]} ({mark}{'; failed: ' + failed if failed else ''})")
    return f"{url}: " + "; ".join(parts)


if __name__ == "__main__":
    for arg in sys.argv[1:]:
        print(format_scores(arg, scores(arg)))
