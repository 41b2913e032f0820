"""Material's search worker started late (rulebook/site/search-later.js).

Material's pages name their search worker in their config (`"search": "…/
workers/search.<hash>.min.js"` in the `__config` JSON). The finishing step
writes search-later.js beside that worker, under the same hash (the file is
as fingerprinted as the one it starts: offline.py caches it first), and
points every page's config at it (where the page's reading found the config:
built.py). A site without Material's worker (another generator's search) is
left as it is.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from .built import Edit, Page

TEMPLATE = Path(__file__).resolve().parent / "search-later.js"
WORKERS = Path("assets") / "javascripts" / "workers"
MATERIAL = re.compile(r"^search\.([0-9a-f]{8})\.min\.js$")
CHANNEL = "table-rules-search-start"  # docs/assets/search-start.js says it there


def write(site: Path) -> str | None:
    """Write the late worker beside Material's; its file name, or None when the site has no Material worker."""
    folder = site / WORKERS
    found = [m for p in sorted(folder.glob("search.*.min.js")) if (m := MATERIAL.match(p.name))] if folder.is_dir() else []
    if len(found) != 1:
        return None
    material = found[0].group(0)
    name = f"search-later.{found[0].group(1)}.min.js"
    text = TEMPLATE.read_text(encoding="utf-8").replace('"MATERIAL-SEARCH-WORKER"', json.dumps(material), 1)
    text = text.replace('"SEARCH-START-CHANNEL"', json.dumps(CHANNEL), 1)
    (folder / name).write_text(text, encoding="utf-8")
    return name


def point(page: Page, late: str | None) -> list[Edit]:
    """The page's Material config naming the late worker (`late`, from write) instead of Material's."""
    if late is None or page.config is None:
        return []
    start, end = page.config
    config = json.loads(page.html[start:end])
    worker = config.get("search")
    if not isinstance(worker, str) or not MATERIAL.match(worker.rsplit("/", 1)[-1]):
        return []
    config["search"] = worker.rsplit("/", 1)[0] + "/" + late
    return [(start, end, json.dumps(config, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/"))]
