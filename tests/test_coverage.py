"""The rules coverage page and its two checks (issue 35; rulebook/coverage.py).

A rule a calculator cites must be cited by a test (by its ID, as a string),
and every ID a test cites must be a rule of the site, or a retired one: a
typo in a test's rule ID would otherwise guard nothing. The modules in
coverage.FIXTURE_MODULES build mini sites of their own with made-up IDs.
"""

from __future__ import annotations

import re

import pytest

from calculators.registry import all_calculators
from rulebook import coverage, read_docs
from rulepages import DOCS

BOOK = read_docs(DOCS)

# IDs a test writes on purpose although no rule has them, with why.
NOT_RULES_ON_PURPOSE = {
    "tt.combat.nukes": "helpers_encounter.py: a hostile saved fight whose log cites a rule the tracker does not apply",
}


@pytest.fixture(scope="module")
def found():
    return coverage.coverage(BOOK)


def test_every_rule_a_calculator_cites_has_a_test_citing_it(found):
    cited = {rid for calc in all_calculators().values() for rid in calc.rules}
    untested = sorted(rid for rid in cited if not found.rows[rid].tests)
    assert not untested, f"{len(untested)} rules a calculator cites have no test citing them (write a case in tests/test_cited_rules.py): {untested}"


def test_every_id_a_test_cites_is_a_rule(found):
    wrong = {rid: [c.label for c in cited] for rid, cited in found.unknown.items() if rid not in NOT_RULES_ON_PURPOSE}
    assert not wrong, f"tests cite IDs that are no rule of the site (a typo, or a rule gone without a redirect): {wrong}"
    assert set(NOT_RULES_ON_PURPOSE) <= set(found.unknown) | set(found.rows), "an ID kept on purpose is no longer written: drop it here"


def test_citations_are_read_by_test_function():
    cited = coverage.citations()
    assert any(c.module == "test_cited_rules.py" and c.where == "OWN_CASES" for c in cited["tt.deck.copies"])
    assert "rpgdl.season" not in cited  # a tracker's name, two parts: not a rule ID


def test_a_ruling_is_followed_by_the_rule_before_it_and_the_rules_it_links(found):
    assert "tt.ruling.npc-initiative-roll" in found.rows["tt.combat.npc-initiative"].rulings
    assert "tt.ruling.npc-initiative-roll" in found.rows["tt.ruling.four-d6"].rulings  # it links there
    assert found.rows["tt.combat.attack-table"].computed and not found.rows["tt.overview.goal"].computed


@pytest.mark.site
def test_the_coverage_page_shows_the_counts_and_every_rule(site, found):
    page = (site / "rules-coverage" / "index.html").read_text(encoding="utf-8")
    counts = re.search(r'<table class="coverage coverage-counts".*?</table>', page, re.S).group(0)
    for folder, name in (("tell-tale", "Tell-Tale"), ("talislanta", "Talislanta"), ("rpgdl", "RPGDL TCG")):
        c = found.counts(folder)
        row = f'<tr><th scope="row">{name}</th><td>{c["rules"]}</td><td>{c["computed"]}</td><td>{c["tested"]}</td><td>{c["narrated"]}</td>'
        assert row in counts, name
    for rid in BOOK.rules:
        assert f'#{rid}">{rid}</a>' in page, rid
