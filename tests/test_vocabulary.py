"""Each vocabulary lives once, in Python: the games' names, the
trackers' kinds, keywords, statuses, steps, divisions, Championship points,
goals and rulings are declared by the Python package and published with the
pages (table-settings.json; each tracker container's data-vocabulary), and
no page script declares a copy."""

from __future__ import annotations

import ast
import json
import re

import pytest
from support.helpers import DOCS, ROOT

from calculators.games import GAMES as RECORDS
from calculators.registry import all_trackers
from rulebook import GAME_NAMES

SCRIPTS = sorted((DOCS / "assets").glob("*.js"))


def words(value) -> set[str]:
    """Every string in a vocabulary entry (keys and labels alike), and every number as `key: n`."""
    found: set[str] = set()
    if isinstance(value, dict):
        for k, v in value.items():
            found.add(k)
            if isinstance(v, int):
                found.add(f"{k}: {v}")
            found |= words(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            found |= words(v)
    elif isinstance(value, str):
        found.add(value)
    return found


def action_words(actions) -> set[str]:
    """The words of the encounter's declared actions (encounter_actions.published): what each is called, its
    fields' labels, help and choices. Their names, keys, kinds and picks are the JSON the page sends and reads."""
    found: set[str] = set()

    def field(f):
        found.update(f.get(k) for k in ("label", "help", "blank", "refusal") if f.get(k))
        for value, label in f.get("choices", []):
            found.update((value, label))
        for e in f.get("each", []) + ([f["flag"]] if "flag" in f else []):
            field(e)
    for a in actions:
        found.add(a["label"])
        for f in a["fields"]:
            field(f)
    return found


def declared_in_scripts(vocabulary_words: set[str]) -> list[str]:
    """The scripts' string literals (and `key: number` pairs) that are one of the words."""
    hits = []
    for script in SCRIPTS:
        text = re.sub(r"/\*.*?\*/", "", script.read_text(encoding="utf-8"), flags=re.S)  # comments may name them
        text = re.sub(r"(^|\s)//.*", "", text)
        literals = set(re.findall(r'"([^"\\\n]{2,80})"', text)) | set(re.findall(r"'([^'\\\n]{2,80})'", text))
        literals |= {f"{k}: {n}" for k, n in re.findall(r'\b"?([a-z][a-z_-]*)"?\s*:\s*(\d+)\b', text)}
        for word in sorted(literals & vocabulary_words):
            hits.append(f"{script.name}: {word!r}")
    return hits


# Words a script may say for its own reasons: the JSON keys of states and actions
# (the names Python answers with, not a list of choices), and plain English.
SHARED_WITH_THE_STATE = {"first", "second", "standing", "actions", "end", "pc", "npc", "summon", "familiar", "draw",
                         "trample", "extort", "reach", "detain", "exiled", "dispelled", "successes", "championship",
                         "Extort",  # the action's name in the menu: the keyword gives the action
                         "actor", "target", "second_d20", "second_crit_d4", "target_d20",  # an action's JSON keys (its fields' needs)
                         "planeswalker",  # a combatant's JSON key (an action's needs), and its card's mark
                         "vitality", "speed",  # a combatant's JSON keys, and two stats a level-up raises (the party's vocabulary)
                         "party", "foes", "initiative", "hand",  # a combatant's side and the order's basis, as the state holds them
                         "Power", "Vitality", "Speed", "Initiative", "Keywords",  # the stats' names, as a card and a field both say them
                         "votes",  # a line-up row's JSON key, and a player's card field's (the season's card_fields)
                         "label",  # a published field's key, and the HTML element
                         "Undo", "Redo", "Show", "Name", "Rulings", "Turn order",  # plain words of any page
                         "Week"}  # a season table's column, and the Weekend action's field
# A tracker's name (the encounter publishes the party's): the loader in page-start.js is keyed by them, typed with the
# TrackerName that calculators/typescript.py writes from the registry, so tsc holds it to Python's.
SHARED_WITH_THE_STATE |= set(all_trackers())


@pytest.mark.parametrize("tracker", [t for t in all_trackers().values() if t.vocabulary], ids=lambda t: t.name)
def test_no_page_script_declares_a_trackers_vocabulary(tracker):
    vocabulary = tracker.vocabulary()
    json.dumps(vocabulary)  # JSON-ready, as published
    found = set().union(*(action_words(v) if k == "actions" else words(v) for k, v in vocabulary.items()))
    hits = declared_in_scripts(found - SHARED_WITH_THE_STATE)
    assert not hits, f"{tracker.name}'s vocabulary is copied into page scripts (read it from the container's data-vocabulary):\n" + "\n".join(hits)


def test_every_tracker_publishes_a_vocabulary():
    missing = [t.name for t in all_trackers().values() if not t.vocabulary]
    assert not missing, missing


def test_no_page_script_declares_the_games_names():
    hits = declared_in_scripts(set(GAME_NAMES.values()))
    assert not hits, "the games' names are copied into page scripts (read them from table-settings.json):\n" + "\n".join(hits)


def test_no_page_script_declares_a_trackers_limits():
    """The longest state and share link are Python's (Tracker.max_state_chars, max_link_chars), published in
    data-limits: the page scripts held 200000 and 8000 as their own numbers."""
    numbers = {n for t in all_trackers().values() for n in (t.max_state_chars, t.max_link_chars)}
    hits = []
    for script in SCRIPTS:
        text = re.sub(r"/\*.*?\*/|(^|\s)//.*", "", script.read_text(encoding="utf-8"), flags=re.S)
        hits += [f"{script.name}: {m}" for m in re.findall(r"\b\d[\d_]*\b", text) if int(m.replace("_", "")) in numbers]
    assert not hits, "a tracker's limit is written in a page script (read the container's data-limits):\n" + "\n".join(hits)


def test_the_built_pages_publish_them(site):
    spec = json.loads((site / "table-settings.json").read_text(encoding="utf-8"))
    assert spec["games"] == {folder.replace("-", "_"): name for folder, name in GAME_NAMES.items()}
    # each game's whole record, for the page scripts (its prefix, its folder, its package's name, its name)
    assert spec["records"] == [{"prefix": g.prefix, "folder": g.folder, "key": g.key, "name": g.name} for g in RECORDS]
    for tracker in all_trackers().values():
        pages = [p for p in site.rglob("index.html") if f'data-tracker="{tracker.name}"' in p.read_text(encoding="utf-8")]
        assert len(pages) == 1, (tracker.name, pages)
        import html as html_module

        found = re.search(r'data-vocabulary="([^"]*)"', pages[0].read_text(encoding="utf-8"))
        assert found, tracker.name
        assert json.loads(html_module.unescape(found.group(1))) == tracker.vocabulary()
        limits = re.search(r'data-limits="([^"]*)"', pages[0].read_text(encoding="utf-8"))
        assert limits, tracker.name
        assert json.loads(html_module.unescape(limits.group(1))) == {"state": tracker.max_state_chars, "link": tracker.max_link_chars}


def collections_declared_twice(sources: dict[str, str]) -> list[str]:
    """The literal lists, tuples, sets and dicts of two or more items (a vocabulary, a table, the rules a
    check cites) that are assigned to a name in more than one module."""
    where: dict[str, set[str]] = {}
    for module, text in sources.items():
        for node in ast.walk(ast.parse(text)):
            if not isinstance(node, (ast.Assign, ast.AnnAssign)) or node.value is None:
                continue
            if not all(isinstance(t, ast.Name) for t in (node.targets if isinstance(node, ast.Assign) else [node.target])):
                continue  # a, b = "standing", None: two values, not a collection
            try:
                value = ast.literal_eval(node.value)
            except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
                continue  # not a literal: it is built from something declared elsewhere
            if isinstance(value, (list, tuple, set, frozenset, dict)) and len(value) >= 2:
                key = json.dumps(sorted(value, key=repr) if isinstance(value, (set, frozenset)) else value, sort_keys=True, default=repr)
                where.setdefault(key, set()).add(module)
    return [f"{sorted(modules)}: {key[:100]}" for key, modules in where.items() if len(modules) > 1]


PYTHON = [p for folder in ("calculators", "rulebook", "hooks") for p in sorted((ROOT / folder).rglob("*.py"))]


def test_no_rule_table_or_vocabulary_is_declared_in_two_python_modules():
    """The rules a deck check cites were written in the form and again in the season tracker; each list,
    table and vocabulary is now declared in one module and imported by the others."""
    twice = collections_declared_twice({str(p.relative_to(ROOT)): p.read_text(encoding="utf-8") for p in PYTHON})
    assert not twice, "declared in two modules (declare it once and import it):\n" + "\n".join(twice)


def test_a_copy_in_a_second_module_is_found():
    copied = 'RULES = ("rpgdl.decks.season-deck-size", "rpgdl.decks.season-deck-copies")\n'
    assert collections_declared_twice({"a.py": copied, "b.py": "rules: tuple[str, ...] = " + copied.split(" = ")[1]})
    assert not collections_declared_twice({"a.py": copied, "b.py": "from a import RULES\nMORE = (*RULES, 'x')\n"})
