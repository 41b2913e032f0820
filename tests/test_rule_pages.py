"""The rule pages, read as Markdown: IDs, links, rulings, and the tables
checked against the numbers in the source texts."""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest
from support.rulepages import DOCS, GAME_DIRS, NO_RULEBOOKS, RULEBOOKS, VALID_ID, all_rules, read, rule_pages, rules_in, tables_after

RULES = all_rules()
IDS = {r.id for r in RULES}
PUBLISHED = DOCS / "rule-ids.txt"
REDIRECTS = json.loads((DOCS / "rule-redirects.json").read_text()) if (DOCS / "rule-redirects.json").exists() else {}


def test_every_game_has_rules_and_rulings():
    for prefix in GAME_DIRS:
        mine = [r for r in RULES if r.id.startswith(prefix + ".")]
        assert len(mine) >= 20, f"{prefix}: only {len(mine)} rules"
        assert any(r.ruling for r in mine), f"{prefix}: no rulings"


def test_ids_are_well_formed_and_in_their_game_folder():
    for rule in RULES:
        assert VALID_ID.match(rule.id), f"{rule.page.name}:{rule.line}: malformed ID {rule.id}"
        folder = GAME_DIRS[rule.id.split(".")[0]]
        assert rule.page.relative_to(DOCS).parts[0] == folder, f"{rule.id} lives outside docs/{folder}/"
        assert rule.title, f"{rule.id} has no title"


def test_ids_are_unique():
    twice = [rid for rid, n in Counter(r.id for r in RULES).items() if n > 1]
    assert not twice


def test_rulings_use_the_ruling_namespace_and_say_text_ruling_alternative():
    for rule in (r for r in RULES if r.ruling):
        assert ".ruling." in rule.id, rule.id
        labels = re.findall(r"\*\*(The text|Ruling|Alternative):\*\*", rule.body)
        assert labels == ["The text", "Ruling", "Alternative"], f"{rule.id}: found {labels}"


def test_every_cross_link_resolves():
    links = [(page, link) for page in [*rule_pages(), *DOCS.glob("*.md")] for link in read(page).links]
    assert len(links) > 100
    for page, link in links:
        rid = REDIRECTS.get(link.id, link.id)
        assert rid in IDS, f"{page.relative_to(DOCS)}:{link.line} links unknown rule {rid}"


def test_published_ids_never_disappear():
    published = [line.strip() for line in PUBLISHED.read_text().splitlines() if line.strip() and not line.startswith("#")]
    gone = [rid for rid in published if rid not in IDS and rid not in REDIRECTS]
    assert not gone, f"Published rule IDs vanished without a redirect in docs/rule-redirects.json: {gone}"
    unlisted = sorted(IDS - set(published))
    assert not unlisted, "New rule IDs: run `make rule-ids` to publish them:\n" + "\n".join(unlisted)


def test_redirects_point_from_gone_ids_to_live_ones():
    for old, new in REDIRECTS.items():
        assert old not in IDS and new in IDS, (old, new)


# ---------------------------------------------------------------- Tell-Tale


def source_text(name: str) -> str:
    """A source text with no-break spaces made plain; skips the test without it."""
    if not (RULEBOOKS / name).exists():
        pytest.skip(NO_RULEBOOKS)
    return (RULEBOOKS / name).read_text(encoding="utf-8").replace("\xa0", " ")


def source_keywords() -> list[str]:
    """The 24 numbered keyword entries of the Tell-Tale mechanics glossary."""
    if not (RULEBOOKS / "tell-tale.txt").exists():
        return []  # the parametrized test below is then skipped with NO_RULEBOOKS
    text = source_text("tell-tale.txt")
    section = text.split("\nMechanics\n", 1)[1]
    return [m.group(2).strip() for m in re.finditer(r"^(\d+)\. (.+?) - ", section, re.M)]


def test_source_lists_24_keyword_entries():
    source_text("tell-tale.txt")  # skips without the source texts
    names = source_keywords()
    assert len(names) == 23 and names[0] == "Deathtouch"  # entry 1 is the list of MTG keywords


@pytest.mark.skipif(not (RULEBOOKS / "tell-tale.txt").exists(), reason=NO_RULEBOOKS)
@pytest.mark.parametrize("name", source_keywords() or ["(no source text)"])
def test_every_tell_tale_keyword_has_its_rule(name):
    first = re.split(r"[ /(]", name)[0].lower()
    matches = [r for r in RULES if r.id.startswith("tt.keyword.") and r.id.split(".")[2].startswith(first)]
    assert matches, f"no tt.keyword.* rule for {name}"


def test_mtg_identical_keywords_each_defined():
    line = re.search(r"function identically with MTG: (.+)", source_text("tell-tale.txt")).group(1)
    titles = {r.title for r in RULES if r.id.startswith("tt.")}
    names = [re.sub(r"\s*\(.*\)", "", k).strip() for k in line.split(",")]
    assert len(names) == 26
    missing = [k for k in names if k not in titles]
    assert not missing, f"MTG keywords without a rule titled after them: {missing}"


def parse_band(cell: str) -> tuple[int, int]:
    numbers = [int(n) for n in re.findall(r"\d+", cell)]
    return (numbers[0], numbers[-1])


def test_attack_table_matches_source():
    text = source_text("tell-tale.txt")
    source = [(int(a), int(b or a)) for a, b in re.findall(r"^\s*- (\d+)(?:-(\d+))? = ", text, re.M)]
    assert source == [(1, 5), (6, 14), (15, 19), (20, 20)]
    tables = tables_after(DOCS / "tell-tale" / "combat.md", "tt.combat.attack-table")
    assert tables, "tt.combat.attack-table has no table"
    rows = tables[0][1:]
    assert [parse_band(row[0]) for row in rows] == source
    assert "miss" in rows[0][1].lower()
    assert "half" in rows[1][1].lower()
    assert "full" in rows[2][1].lower()
    assert "1d4" in " ".join(rows[3]).lower() or "d4" in " ".join(rows[3]).lower()


# ---------------------------------------------------------------- Talislanta


def test_action_table_matches_the_published_bands():
    readme = source_text("README.md")
    assert "0 or less = Mishap, 1-5 = Failure" in readme
    page = next(p for p in rule_pages() if any(r.id == "tal.action.table" for r in rules_in(p)))
    rows = tables_after(page, "tal.action.table")[0][1:]
    bands = []
    for row in rows:
        cell = row[0].lower()
        numbers = [int(n) for n in re.findall(r"(?<!\d)[-−]?\d+", cell.replace("−", "-"))]
        if "or less" in cell or "or lower" in cell:
            bands.append((None, numbers[0]))
        elif "or more" in cell or "+" in cell or "or higher" in cell:
            bands.append((numbers[0], None))
        else:
            bands.append((numbers[0], numbers[-1]))
    assert bands == [(None, 0), (1, 5), (6, 10), (11, 19), (20, None)]
    outcomes = [row[1].lower() for row in rows]
    for word, cell in zip(["mishap", "failure", "partial", "full", "critical"], outcomes):
        assert word in cell
