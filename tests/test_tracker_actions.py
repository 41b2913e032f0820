"""Every action every tracker publishes has its control drawn, on a phone (Chromium, 360x740).

The trackers and their actions are read from the built site: each page with a tracker's container
(`data-tracker`) and the actions its vocabulary publishes (`ActionSpec.public`, or the encounter's
fuller declarations), never from a list here. A control that sends an action carries the action's name
in `data-do`; an action the tracker's shell sends itself (place "shell": show) has none. The scenes below
are only where a tracker's controls show (a fight set up, under way and over; a party; a season), put on the
device before the page opens; and a sample of the controls is pressed and seen to work.
"""

from __future__ import annotations

import html
import json
import re

import pytest
from playwright.sync_api import expect
from support import storage
from support.encounter_page import python_step, wait_for_log
from support.helpers import BOOT, PHONE
from support.season import mid_season
from support.server import BLANK

from calculators import runner
from calculators.types import ActionSpec, Param

pytestmark = pytest.mark.browser

CONTROLS = ":is(button, select, option, input)[data-do]"  # a control, not a line of the log that names its action
CONTAINER = re.compile(r'<div class="tracker" data-tracker="([^"]+)" [^>]*data-vocabulary="([^"]*)"')


def published(site):
    """{tracker: (its page's path, the names of its actions that have a control)}, as the build wrote them."""
    found = {}
    for index in sorted(site.rglob("index.html")):
        for name, words in CONTAINER.findall(index.read_text(encoding="utf-8")):
            actions = json.loads(html.unescape(words))["actions"]
            found[name] = (index.parent.relative_to(site).as_posix() + "/", {a["name"] for a in actions if a["place"] != "shell"})
    return found


# ---------------------------------------------------------------- the scenes: states that show each tracker's controls

FOES = [
    {"do": "add", "name": "Vraska", "kind": "pc", "power": 3, "toughness": 3, "vitality": 15, "speed": 10, "initiative": 14,
     "planeswalker": True, "keywords": ["first-strike", "reach", "trample", "extort"]},
    {"do": "add", "name": "Drake", "kind": "npc", "power": 2, "toughness": 2, "vitality": 8, "speed": 12, "initiative": 18, "keywords": ["flying"]},
]


def encounter_states():
    """A fight set up; one under way in which every menu action may be taken (the flyer's move opens Vraska's
    First Strike and Reach strike); and one over."""
    state = None
    for action in FOES:
        state = python_step(state, action, 1)["state"]
    setup = state
    for action in ({"do": "start"}, {"do": "next"}, {"do": "next"}, {"do": "next"},  # the Drake's turn: its actions step
                   {"do": "move", "id": "c2", "near": ["c1"], "over": ["c1"]}):
        state = python_step(state, action, 1)["state"]
    return setup, state, python_step(state, {"do": "end"}, 1)["state"]


def party_of(fight):
    """The party the party tracker keeps from `fight`."""
    combatants = [{k: v for k, v in c.items() if k != "chances"} for c in fight["combatants"]]
    answer = runner.track("tell_tale.party", "", json.dumps({"do": "keep", "combatants": combatants}), 1)
    assert answer["ok"], answer
    return answer["state"]


def scenes():
    """{tracker: [(what is kept on the device, a control that shows once it is drawn)]}."""
    setup, combat, over = encounter_states()
    kept = party_of(over)  # Vraska given a companion, for the actions drawn only on a member with one
    party = json.dumps({**kept, "members": [{**kept["members"][0], "companion": COMPANION}]})
    fight = {storage.ENCOUNTER: json.dumps(setup), storage.PARTY: party}
    return {
        "tell_tale.encounter": [(fight, "add_party"), ({storage.ENCOUNTER: json.dumps(combat)}, "first_strike"),
                                ({storage.ENCOUNTER: json.dumps(over)}, "next_encounter")],
        "tell_tale.party": [({storage.PARTY: party, storage.ENCOUNTER: json.dumps(over)}, "keep")],
        "rpgdl.season": [({storage.SEASON: mid_season()}, "weekend")],
    }


def open_scene(page, base_url, path, name, kept, shown):
    """The tracker's page opened with `kept` on the device; the names its controls send, once `shown`'s is drawn."""
    page.goto(base_url + BLANK)
    storage.empty(page)
    page.evaluate("(kept) => { for (const [k, v] of Object.entries(kept)) localStorage.setItem(k, v); }", kept)
    page.goto(base_url + path)
    box = page.locator(f"[data-tracker='{name}']")
    expect(box).to_have_attribute("data-loaded", "true", timeout=BOOT)
    expect(box.locator(f"[data-do={shown}]").first).to_be_attached(timeout=BOOT)
    return set(box.evaluate(f"(b) => [...b.querySelectorAll('{CONTROLS}')].map((c) => c.dataset.do)"))


def test_every_published_action_of_every_tracker_has_its_control_on_a_phone(browser, base_url, site):
    trackers = published(site)
    assert set(trackers) == set(storage.TRACKER)  # every tracker the build draws, and the storage knows
    context = browser.new_context(**PHONE)
    page = context.new_page()
    try:
        by_tracker = scenes()
        assert set(by_tracker) == set(trackers), "each tracker needs a scene that shows its controls"
        for name, (path, actions) in trackers.items():
            drawn = set()
            for kept, shown in by_tracker[name]:
                drawn |= open_scene(page, base_url, path, name, kept, shown)
            assert actions - drawn == set(), f"{name}: no control sends these published actions"
            assert drawn - actions == set(), f"{name}: a control names an action its tracker does not publish"
    finally:
        context.close()


def test_a_sample_of_the_controls_works_on_a_phone(browser, base_url, site):
    """Next in a fight under way, a member leaving the party (Undo brings them back), a companion kept as a mount, a season's Undo."""
    trackers = published(site)
    by_tracker = scenes()
    context = browser.new_context(**PHONE)
    page = context.new_page()
    try:
        (kept, shown) = by_tracker["tell_tale.encounter"][1]
        open_scene(page, base_url, trackers["tell_tale.encounter"][0], "tell_tale.encounter", kept, shown)
        logged = len(json.loads(kept[storage.ENCOUNTER])["log"])
        page.click("[data-do=next]")
        wait_for_log(page, logged + 1)

        (kept, shown) = by_tracker["tell_tale.party"][0]
        open_scene(page, base_url, trackers["tell_tale.party"][0], "tell_tale.party", kept, "remove")
        members = page.locator("[data-tracker='tell_tale.party'] [data-member]")
        count = len(json.loads(kept[storage.PARTY])["members"])
        expect(members).to_have_count(count)
        members.first.locator("[data-do=remove]").click()
        expect(members).to_have_count(count - 1, timeout=BOOT)
        page.click("[data-tracker='tell_tale.party'] [data-do=undo]")
        expect(members).to_have_count(count, timeout=BOOT)
        expect(members.first).to_contain_text("Companion Wolf (a familiar)")  # the GM's choice is said on the member's line
        members.first.locator("select[name=as]").select_option("mount")
        members.first.locator("[data-do=companion]").click()
        expect(members.first).to_contain_text("Companion Wolf (a mount)", timeout=BOOT)

        (kept, shown) = by_tracker["rpgdl.season"][0]
        open_scene(page, base_url, trackers["rpgdl.season"][0], "rpgdl.season", kept, shown)
        weeks = len(json.loads(kept[storage.SEASON])["log"])
        page.locator("[data-tracker='rpgdl.season'] [data-section=log] [data-do=undo]").click()
        page.wait_for_function("([key, n]) => JSON.parse(localStorage.getItem(key) || 'null')?.log?.length === n",
                               arg=[storage.SEASON, weeks - 1], timeout=BOOT, polling=100)
    finally:
        context.close()


# ---------------------------------------------------------------- a control is drawn from its declaration, not written for it

# Actions no tracker has, declared as Python declares any: each one's control must come from its declaration alone.
SCRATCH = (
    ActionSpec("scratch_bar", "Scratch in the bar", (Param.of("count", "number", "How many", "A scratch number."),), place="bar"),
    ActionSpec("scratch_roster", "Scratch as", (Param.of("member", "text", "Who", required=True),
                                                Param.of("as", "choice", "As", choices=(("familiar", "A familiar"), ("mount", "A mount")))),
               place="roster", target="member", needs=("companion",)),
    ActionSpec("scratch_setup", "Scratch for each", (Param.of("rows", "list", "Each one's", "One row each.", required=True, refusal="Scratch: fill a row.",
                                                               each=(Param.of("member", "text", "Who", form=False),
                                                                     Param.of("note", "text", "Note", required=True, max_length=12))),),
               place="setup"),
    ActionSpec("scratch_flyer", "Scratch a flyer", (Param.of("id", "who", "Who", required=True),), place="roster", target="id", needs=("flying",)),
)
COMPANION = {"name": "Wolf", "power": 1, "toughness": 1, "vitality": 5, "max_vitality": 5, "speed": 10, "keywords": [], "counters": 0,
             "poisoned": False, "exiled": False}


def with_scratch(body, name):
    """The page's text with SCRATCH added to `name`'s published actions."""
    def add(match):
        words = json.loads(html.unescape(match.group(2)))
        words["actions"] += [spec.public() for spec in SCRATCH]
        return match.group(0).replace(match.group(2), html.escape(json.dumps(words)))
    out, n = CONTAINER.subn(lambda m: add(m) if m.group(1) == name else m.group(0), body)
    assert n, "the page has no tracker container"
    return out


def test_an_action_declared_in_python_is_drawn_with_its_fields_where_its_place_says(browser, base_url, site):
    """The party's page, its published actions grown by three scratch declarations: a bar's with a number, a roster's
    that needs a companion with a choice, a set-up's with a row per member; each drawn with its fields, and sent.
    Two members: Vraska with a companion, Mira without."""
    path = published(site)["tell_tale.party"][0]
    _setup, _combat, over = encounter_states()
    party = party_of(over)
    party["members"] = [{**party["members"][0], "companion": COMPANION}, {**party["members"][0], "name": "Mira", "companion": None}]
    party["undo"] = []
    context = browser.new_context(**PHONE, service_workers="block")
    page = context.new_page()
    page.route(f"**/{path}", lambda route: route.fulfill(response=(r := route.fetch()), body=with_scratch(r.text(), "tell_tale.party")))
    try:
        open_scene(page, base_url, path, "tell_tale.party", {storage.PARTY: json.dumps(party), storage.ENCOUNTER: json.dumps(over)}, "scratch_bar")
        box = page.locator("[data-tracker='tell_tale.party']")
        bar = box.locator("form[data-form=scratch_bar]")
        expect(bar.locator("input[name=count]")).to_be_visible()
        expect(bar.get_by_text("A scratch number.")).to_be_visible()
        expect(bar.locator("button[data-do=scratch_bar]")).to_have_text("Scratch in the bar")

        members = box.locator("[data-member]")
        expect(members.nth(0).locator("[data-form=scratch_roster] select[name=as] option")).to_have_text(["A familiar", "A mount"])
        expect(members.nth(1).locator("[data-form=scratch_roster]")).to_have_count(0)  # it needs a companion

        setup = box.locator("details[data-form=scratch_setup]")
        setup.locator("summary").click()
        expect(setup.locator("legend")).to_have_text([re.compile(m["name"]) for m in party["members"]])
        expect(setup.locator("input[data-party=note-0]")).to_have_attribute("maxlength", "12")
        setup.locator("[data-do=scratch_setup]").click()  # no row filled: the declaration's sentence
        expect(box.locator("[data-party=answer] .calc-error")).to_have_text("Scratch: fill a row.")
        setup.locator("input[data-party=note-1]").fill("hello")
        setup.locator("[data-do=scratch_setup]").click()  # sent: the party's Python knows no such action, and says so
        expect(box.locator("[data-party=answer] .calc-error")).to_contain_text("knows these actions: keep", timeout=BOOT)
    finally:
        context.close()


def test_an_action_the_seasons_own_parts_do_not_draw_is_drawn_from_its_declaration(browser, base_url, site):
    """The season's page, its published actions grown by the same scratch declarations: the bar's above the log, the
    set-up's with a row per player, the roster's none (it needs a companion, which no player has)."""
    path = published(site)["rpgdl.season"][0]
    context = browser.new_context(**PHONE, service_workers="block")
    page = context.new_page()
    page.route(f"**/{path}", lambda route: route.fulfill(response=(r := route.fetch()), body=with_scratch(r.text(), "rpgdl.season")))
    try:
        open_scene(page, base_url, path, "rpgdl.season", {storage.SEASON: mid_season()}, "scratch_bar")
        box = page.locator("[data-tracker='rpgdl.season']")
        expect(box.locator("[data-section=log] form[data-form=scratch_bar] input[name=count]")).to_be_visible()
        setup = box.locator("[data-section=settings] details[data-form=scratch_setup]")
        setup.locator("summary").click()
        expect(setup.locator("legend")).to_have_count(2)
        expect(box.locator("[data-form=scratch_roster]")).to_have_count(0)
        setup.locator("[data-do=scratch_setup]").click()  # no row filled: the declaration's sentence
        expect(box.locator("[data-section=log] .calc-error")).to_have_text("Scratch: fill a row.")
    finally:
        context.close()


def test_an_action_the_encounters_own_parts_do_not_draw_is_drawn_from_its_declaration(browser, base_url, site):
    """The encounter's page, a fight under way, its published actions grown by the scratch declarations: the bar's
    and the set-up's under the list (a row per combatant), the roster's on each combatant that may take it (the
    flyer's only on the Drake, which has Flying; the companion's on nobody), and sent: Python knows no such action."""
    path = published(site)["tell_tale.encounter"][0]
    _setup, combat, _over = encounter_states()
    context = browser.new_context(**PHONE, service_workers="block")
    page = context.new_page()
    page.route(f"**/{path}", lambda route: route.fulfill(response=(r := route.fetch()), body=with_scratch(r.text(), "tell_tale.encounter")))
    try:
        open_scene(page, base_url, path, "tell_tale.encounter", {storage.ENCOUNTER: json.dumps(combat)}, "scratch_bar")
        more = page.locator("[data-enc=more]")
        expect(more.locator("form[data-form=scratch_bar] input[name=count]")).to_be_visible()
        setup = more.locator("details[data-form=scratch_setup]")
        setup.locator("summary").click()
        expect(setup.locator("legend")).to_have_text(["Drake", "Vraska"])  # in turn order
        expect(more.locator("[data-do=scratch_flyer]")).to_have_count(1)
        expect(more.locator("[data-do=scratch_roster]")).to_have_count(0)
        more.locator("[data-combatant=c2] [data-do=scratch_flyer]").click()
        expect(page.locator("[data-enc=act-section] > .calc-error")).to_contain_text("knows these actions: attack", timeout=BOOT)
    finally:
        context.close()
