// The encounter page between fights (docs/tell-tale/encounter.md): "Next
// encounter with this party" (Python's next_encounter action,
// calculators/tell_tale/encounter_campaign.py) where the end of the fight
// shows, with "Keep this party on this device" in one tap (Python's party
// "keep" action, stored as party.js stores it), and, while a fight is set up,
// "Add the party" from the party kept on this device (docs/tell-tale/party.md,
// party.js; Python's add_party action checks every member). Who carries on,
// who is kept and what they keep is Python's.

import { el, readJson } from "./dom.js";
import { SavedRecord, notKept, step } from "./tracker-kit.js";
import { download } from "./tracker-keep.js";
import { button } from "./tracker-shell.js";
import { ENCOUNTER, PARTY } from "./storage.js";

/** @typedef {import("./encounter.js").Combatant} Combatant */
/** @typedef {import("./tracker-kit.js").Action} Action */


// ---------------------------------------------------------------- the encounter's side

/** A refusal's line beside a control of the banner (the action form's error line is hidden while no fight runs),
 * and `run` made to say a refusal there.
 * @param {(action: Action) => Promise<unknown>} run @param {string} hook
 * @returns {[HTMLElement, (action: Action) => Promise<void>]} */
function sayingRefusals(run, hook) {
  const line = el("p", { class: "calc-error", role: "alert", "data-enc": hook });
  return [line, async (action) => {
    line.textContent = "";
    const answer = /** @type {{ok?: boolean, error?: string} | null} */ (await run(action));
    if (answer && answer.ok === false) line.textContent = answer.error ?? "";
  }];
}

/** The controls shown once the fight is over: the next encounter's button and, when somebody is dead or gone,
 * its declared choice for them (Python's tt.ruling.dead-between-encounters), with the line a refusal is said on.
 * @param {{declared: (name: string) => import("./encounter-form.js").ActionSpec, combatants: () => Combatant[],
 *   run: (action: Action) => Promise<unknown>, ids: (suffix: string) => string}} page
 * @returns {{field: HTMLElement, go: HTMLButtonElement}} */
export function nextEncounterControls({ declared, combatants, run, ids }) {
  const spec = declared("next_encounter");
  const field = spec.fields.find((f) => f.key === "dead");
  // Dead (Python's health) or out of the story (not in the fight, though conscious: exiled).
  const out = combatants().some((c) => c.health === "dead" || (!c.in_fight && c.health === "conscious"));
  const choice = field && out ? el("select", { id: ids("next-dead"), "data-enc": "next-dead" },
    ...(field.choices ?? []).map(([v, t]) => el("option", { value: v, text: t }))) : null;
  const [line, send] = sayingRefusals(run, "next-error");
  // The party kept on this device goes along: Python starts from it when it was kept from this fight (its mark).
  const party = () => readJson(PARTY, null);
  const go = button(spec.label, () => send({ do: spec.name, ...(choice ? { dead: choice.value } : {}), ...(party() ? { party: party() } : {}) }),
    { class: "md-button md-button--primary", "data-enc": "next-encounter", "data-do": spec.name });
  return {
    field: el("div", {}, ...(choice && field ? [el("div", { class: "calc-fields enc-setup" },
      el("div", { class: "calc-field" }, el("label", { for: choice.id, text: field.label }), choice))] : []), line),
    go,
  };
}

/** The members of the party kept on this device (party.js), as saved there, or [] (none, or not a list): the
 * add_party action sends them to Python, which checks every member before anyone joins.
 * @returns {unknown[]} */
function keptMembers() {
  const party = /** @type {{members?: unknown} | null} */ (readJson(PARTY, null));
  return Array.isArray(party?.members) ? party.members : [];
}

/** Ask the browser to keep the site's storage for good (the first time a party is kept, here or on the party's
 * page): the sentence saying what it granted. */
export async function askToKeepStorage() {
  if (!navigator.storage?.persist) return "This browser cannot be asked to keep the site's storage: back the party up as a file now and then.";
  const granted = await navigator.storage.persist().catch(() => false);
  return granted
    ? "This browser agreed to keep this site's storage until you clear it yourself."
    : "This browser did not agree to keep this site's storage for good: it may clear it (Safari after 7 days without a visit, unless the site is on the home screen). Back the party up as a file.";
}

/** The party's controls in the banner, made once for the page (what was said about keeping the party stays
 * while the banner is drawn again): while setting up, "Add the party" (the party kept on this device); once
 * the fight is over, "Keep this party on this device" in one tap, Python's "keep" action of the party
 * (party.py) stored as party.js stores it: under its key, over what this tab read only (another tab's change
 * is never written over), a different party replaced only when asked, put aside and with Undo.
 * @param {typeof import("./calc-runtime.js").computeInWorker} computeInWorker
 * @param {import("../../types/trackers").TrackerName} party the party tracker's name (the encounter's vocabulary) */
export function partyKeeper(computeInWorker, party) {
  const said = el("div", { class: "enc-party-kept", "aria-live": "polite", "data-enc": "party-kept" });
  const toParty = () => el("a", { href: "../party/", "data-enc": "to-party", text: "the party page" });
  /** @param {string} text @param {boolean} [refused] @param {...(HTMLElement | string)} more */
  const say = (text, refused = false, ...more) => said.replaceChildren(el("p", { class: refused ? "calc-error" : "", ...(refused ? { role: "alert" } : {}) }, text, ...more));
  /** @param {string} text */
  const addLine = (text) => said.append(el("p", { class: "tracker-note", "data-enc": "party-storage", text }));

  /** Store `text` for the party: "replace" puts the party kept now aside; else it is saved over what `record`
   * read (Python's party keeps its own Undo); either under the record's lock, only over what `record` read. A full
   * storage or another tab's change is said, and nothing is kept.
   * @param {SavedRecord} record @param {string} text @param {boolean} replace @returns {Promise<boolean>} */
  async function store(record, text, replace) {
    const why = await (replace ? record.replace(text, { overSeen: true }) : record.save(text));
    if (why === "full") say(`${notKept("full", "the kept party")} `, true,
      button("Save it as a file", () => download(text, `party-${new Date().toISOString().slice(0, 10)}.json`), { "data-enc": "party-file" }),
      " (the party page imports it).");
    else if (why) say(`${notKept("elsewhere", "the kept party")} Tap Keep again to keep this fight's party with it.`, true);
    return !why;
  }

  /** @param {Combatant[]} combatants */
  async function keep(combatants) {
    const record = new SavedRecord(PARTY);
    const kept = record.seen; // what this tab read: a change by another tab from now on is not written over
    const first = !keptMembers().length;
    const action = { do: "keep", combatants: combatants.map(({ chances, ...c }) => c) };
    /** @param {string} from @returns {Promise<import("./tracker-kit.js").StepAnswer<{members: {name: string}[]}>>} */
    const keepInto = (from) => step(computeInWorker, party, from, action);
    say("Keeping the party…");
    const alone = await keepInto(""); // this fight's party, as if none were kept
    if (!alone.ok) return say(alone.error, true);
    const joined = kept ? await keepInto(kept) : alone; // into the party kept here
    if (!joined.ok && (joined.stopped || joined.field !== "state")) return say(joined.error, true);
    const names = new Set(alone.state.members.map((m) => m.name));
    const others = joined.ok ? joined.state.members.filter((m) => !names.has(m.name)).map((m) => m.name) : [];
    if (joined.ok && !others.length) { // none kept, or the same players (their levels and lands stay)
      if (!await store(record, JSON.stringify(joined.state), false)) return;
      say(`${joined.headline} Level it up on `, false, toParty(), ".");
      if (first) addLine(await askToKeepStorage());
      return;
    }
    const [mine, theirs] = [JSON.stringify(alone.state), joined.ok ? JSON.stringify(joined.state) : null];
    const replace = button("Replace it", async () => {
      if (!await store(record, mine, true)) return;
      const undo = button("Undo", async () => {
        if (await store(record, /** @type {string} */ (kept), true)) say("Undone: the party kept before is back; this fight's is put aside (the party page can bring it back).", false);
      }, { "data-enc": "party-undo" });
      say(`${alone.headline} The one kept before is put aside: `, false, undo, " brings it back, and so does ", toParty(), ".");
    }, { class: "md-button", "data-enc": "party-replace" });
    const join = button("Add this fight's players to it", async () => {
      if (theirs && await store(record, theirs, false)) say(`${joined.ok ? joined.headline : ""} Undo it on `, false, toParty(), ".");
    }, { class: "md-button", "data-enc": "party-join" });
    say(joined.ok ? `A different party is kept on this device: ${others.join(", ").slice(0, 120)} ${others.length === 1 ? "is" : "are"} in it and not in this fight. Nothing is changed yet.`
      : `The party kept on this device cannot be read (${joined.error}) Replacing it puts it aside, never lost.`, false);
    said.append(el("div", { class: "calc-actions" }, replace, ...(joined.ok ? [join] : [])));
  }

  return {
    /** The controls for `phase`, the fight's combatants as the banner draws them.
     * @param {string} phase @param {(action: Action) => Promise<unknown>} run @param {Combatant[]} combatants
     * @returns {HTMLElement[]} */
    controls(phase, run, combatants) {
      const members = keptMembers();
      const names = members.map((m) => /** @type {{name?: unknown}} */ (m)?.name).filter((n) => typeof n === "string");
      if (phase !== "over") said.replaceChildren(); // a new fight: what was said about the last one is gone
      if (phase === "setup" && members.length) {
        const [line, send] = sayingRefusals(run, "party-error");
        return [button(`Add the party (${names.join(", ").slice(0, 80) || "kept on this device"})`, () => send({ do: "add_party", members }),
          { class: "md-button", "data-enc": "add-party", "data-do": "add_party" }), line];
      }
      if (phase === "over") {
        return [button("Keep this party on this device", () => keep(combatants), { class: "md-button", "data-enc": "keep-party" }), said];
      }
      return [];
    },
  };
}
