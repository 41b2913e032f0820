"""What a chat shows of a rule link, and what bots read: clean sentences.

Each rule's short link page (r/<id>/) carries an og:description made from the
rule's text, and rules.json carries the text itself: text from a link or in
bold is not spaced apart ("( see Voters )"), and a description does not stop
at a colon, mid-sentence.
"""

from __future__ import annotations

import html
import json
import re

import pytest

SPACED = re.compile(r"\( | \)| [,.;:!?](?:\s|$)")


@pytest.fixture(scope="module")
def rules(site):
    return json.loads((site / "rules.json").read_text(encoding="utf-8"))


def test_rule_texts_keep_the_spacing_of_their_sentences(rules):
    bad = [(r["id"], SPACED.search(r["text"]).group(0)) for r in rules if SPACED.search(r["text"])]
    assert not bad, f"{len(bad)} of {len(rules)} rule texts are spaced apart around links or bold: {bad[:5]}"


def test_every_link_preview_is_whole_sentences_or_ends_in_an_ellipsis(site, rules):
    bad = []
    for rule in rules:
        page = (site / "r" / rule["id"] / "index.html").read_text(encoding="utf-8")
        about = html.unescape(re.search(r'<meta property="og:description" content="([^"]*)"', page).group(1))
        if SPACED.search(about) or not re.search(r"([.!?)]|…)$", about):
            bad.append((rule["id"], about[-40:]))
    assert not bad, f"{len(bad)} og:descriptions stop mid-sentence or keep link spacing: {bad[:5]}"
