// One shell for the trackers' pages (encounter.js, season.js): everything a
// tracker does with its state that is not the game. The shell holds the state
// Python last answered, reads it from the device before any control acts,
// saves it after each action, and owns the ways a state comes and goes:
// Export, Import (a file or pasted text), Share (a link #<name>=…), a link
// opened from the address, Start a new one, Bring back the copy put aside,
// and the question when another tab changed it too. Each tracker draws its
// state (`draw`) and sends its own actions (`run`); the sentences here take
// its words ("encounter", "fight"), so both trackers say the same things.
//
// A state from outside (storage at the start or written by another tab, a
// file, pasted text, a link) is believed only after Python checks it
// ({"do": "show"}); a refusal is its sentence and nothing saved changes. What
// a replacement pushes out is put aside first, or nothing is replaced
// (tracker-kit.js SavedRecord). Everything shown goes in with textContent.
//
// The keep panel (Export, Share, Import and the rest) is tracker-keep.js; how
// Python's answer is drawn is tracker-answer.js, exported here again.

import { button, count, el, pageSignal } from "./dom.js";
import { SavedRecord, limits, notKept, unpack } from "./tracker-kit.js";
import { TrackerStream } from "./tracker-stream.js";
import { KeepPanel, download } from "./tracker-keep.js";

// For the trackers' modules that import them from here: dom.js's button, and the answer's parts.
export { button } from "./dom.js";
export { answerParts, labelRedo, labelUndo, markFieldAtFault, newSeed, ruleLink, rulesLine } from "./tracker-answer.js";

/** @typedef {import("./tracker-kit.js").Action} Action */
/** @template [S=unknown] @typedef {import("./tracker-kit.js").StepAnswer<S>} StepAnswer */
/** @template [S=unknown] @typedef {import("./calc-runtime.js").Tracked<S>} Tracked */
/** A new state (TrackerOptions' fresh, TrackerShell's): Python's answer, or none yet (a tracker that starts empty).
 * @template [S=unknown]
 * @typedef {StepAnswer<S> | {ok: true, state: null}} Fresh */
/**
 * What a tracker gives its shell (TrackerShell's `o`, told there); S, its states.
 * @template S
 * @typedef {object} TrackerOptions
 * @property {string} name
 * @property {string} key
 * @property {string} link
 * @property {string} noun
 * @property {string} a
 * @property {string} thing
 * @property {typeof import("./calc-runtime.js").computeInWorker} computeInWorker
 * @property {import("./copy-link.js").CopyText} copyText
 * @property {(state: S | null) => void} draw
 * @property {boolean} [startsEmpty]
 * @property {(state: S) => boolean} [worth]
 * @property {() => Promise<Fresh<S>>} [fresh]
 * @property {(state: S | null) => string} [standing]
 * @property {(result: Tracked<S>) => string} [describe]
 * @property {(state: S) => string} fileName
 * @property {string} filePrefix
 * @property {() => void} [replaced]
 * @property {() => void | Promise<void>} [ready]
 * @property {(state: S) => void} [exported] after the state is exported as a file (the party notes its backup)
 */

/** @param {string} text */
const cap = (text) => `${text[0].toUpperCase()}${text.slice(1)}`;
let uid = 0;

/**
 * The shell of one tracker in `box`. `o`:
 * - name: Python's tracker ("rpgdl.season"); key: its storage key; link: its links' hash ("season=");
 * - noun, a, thing: its words ("encounter", "an encounter", "fight"; "season", "a season", "season");
 * - computeInWorker, copyText: the page's;
 * - draw(state): draws the state (null: none yet);
 * - startsEmpty: no state until the first action (else Python's new one, saved at once);
 * - worth(state): whether it is worth putting aside when replaced (default: any);
 * - fresh(): a new state ({ok, state} or a refusal), for the first action and "Start a new …";
 * - standing(state): the status line once read (default: it is kept on this device);
 * - describe(result): a checked state in a few words, for the link's question (default: its headline);
 * - fileName(state): the exported file's name; filePrefix: that of a saved text downloaded as it is;
 * - replaced(): after a state from elsewhere replaced this one; ready(): after the saved one is drawn.
 * Its parts for the tracker to place: status, notice, keep (with actions, newButton).
 * @template [S=unknown] the tracker's states, as Python answers them
 */
export class TrackerShell {
  /** @param {HTMLElement} box @param {TrackerOptions<S>} o */
  constructor(box, o) {
    this.box = box;
    this.o = o;
    this.max = limits(box); // Python's: the longest state, the longest share link
    this.record = new SavedRecord(o.key);
    /** @type {TrackerStream<S>} every step goes through it: the worker holds the state, a step sends what it does */
    this.stream = new TrackerStream(o.computeInWorker, o.name);
    /** @type {S | null} */
    this.state = null; // as Python last answered it, checked
    this.ready = false; // the saved state is read: until then no control acts
    this.busy = false;
    this.missed = false; // another tab wrote while this one was busy: shown once it is not (otherTab)
    /** @type {Promise<unknown>} the actions tapped so far, each after the one before */
    this.queue = Promise.resolve();
    this.choosing = false; // the two-tabs question is open: its buttons read storage when pressed
    /** @type {string | null} */
    this.unreadable = null; // the saved text Python refused: put aside by the first change, never lost
    this.what = `the ${o.thing}`;
    this.id = `tracker-${++uid}`;
    this.status = el("p", { class: "tracker-status", role: "status", text: this.record.seen ? `Loading your ${o.thing}…` : "Loading the calculators…" });
    this.notice = el("div", { class: "tracker-notice", "aria-live": "polite", hidden: true });
    this.panel = new KeepPanel(this);
    this.keep = this.panel.box; // for the tracker to place
    this.newButton = this.panel.newButton;
    this.record.watch(() => this.otherTab());
    window.addEventListener("hashchange", () => {
      if (this.ready && location.hash.startsWith(`#${o.link}`)) this.openLink(); // before, start() opens it
    }, { signal: pageSignal() });
  }

  // ------------------------------------------------------------ talking to Python

  /** One step from `from` (the state now; null: none), as Python answers it (the new state whole, however it
   * travelled: tracker-stream.js); nothing changes here.
   * @param {Action} action @param {{seed?: string | null, from?: S | null}} [options] @returns {Promise<StepAnswer<S>>} */
  send(action, { seed = null, from = this.state } = {}) {
    return this.stream.step(from ?? null, action, seed);
  }

  /** A state's text from outside, checked: Python's answer to {"do": "show"}.
   * @param {string} text @returns {Promise<StepAnswer<S>>} */
  check(text) {
    if (text.length > this.max.state) {
      return Promise.resolve({ ok: false, field: null, error: `This is ${count(text.length)} characters long; ${this.o.a} holds at most ${count(this.max.state)}.` });
    }
    return this.stream.check(text);
  }

  /** A new state: the tracker's, or none, or Python's new one.
   * @returns {Promise<Fresh<S>>} */
  fresh() {
    if (this.o.fresh) return this.o.fresh();
    return this.o.startsEmpty ? Promise.resolve({ ok: true, state: null }) : this.send({ do: "show" }, { from: null });
  }

  /** One action on the state: Python's answer (null when no action may run now). When it is taken the state
   * is saved and drawn, and a link in the address has been dealt with. A tap while a step is being worked out
   * is not lost: it waits for that step and comes next, in the order tapped (two quick taps on Next are two steps).
   * @param {Action} action @param {{seed?: string | null}} [options] */
  run(action, options = {}) {
    const mine = this.queue.then(() => this.runNow(action, options));
    this.queue = mine.catch(() => null);
    return mine;
  }

  /** @param {Action} action @param {{seed?: string | null}} [options] @returns {Promise<StepAnswer<S> | null>} */
  async runNow(action, { seed = null } = {}) {
    if (this.busy || !this.ready || this.choosing) return null;
    this.busy = true;
    this.box.setAttribute("aria-busy", "true");
    if (!this.state && this.o.fresh) { // the first action: from the tracker's new state (the table's rulings)
      const made = await this.o.fresh();
      if (made.ok) this.state = made.state;
    }
    const result = await this.send(action, { seed });
    this.busy = false;
    this.box.removeAttribute("aria-busy");
    if (result.ok) {
      this.state = result.state;
      const saved = await this.save(); // another tab's change meanwhile: asked here
      this.linkDone();
      this.draw(saved);
    }
    if (this.missed && !this.choosing && this.record.changedElsewhere()) {
      void this.otherTab(); // written after this step was saved, or the step was refused: shown now
    }
    this.missed = false;
    return result;
  }

  /** Keep the state on the device: true when it is. Another tab's change meanwhile is not written over: this
   * tab's is put aside at once and the players choose which goes on; a full storage is said, with a way to keep it.
   * Busy until the record's lock is had and the save done, so another tab's save meanwhile waits to be shown.
   * @returns {Promise<boolean>} */
  async save() {
    const text = JSON.stringify(this.state);
    const busy = this.busy;
    this.busy = true;
    this.box.setAttribute("aria-busy", "true"); // until it is saved and drawn (its caller draws it next)
    const why = await (this.unreadable != null ? this.record.replace(text) : this.record.save(text, { asideIfElsewhere: true })); // an unreadable one is put aside, not written over
    this.busy = busy;
    this.box.removeAttribute("aria-busy");
    if (!why) this.unreadable = null;
    else if (why.startsWith("elsewhere")) this.askWhichTab(text, why === "elsewhere");
    else this.say(notKept("full", this.what), this.exportNow());
    return !why;
  }

  /** Draw the state and what is kept; the status line too when it is saved. */
  draw(saved = true) {
    this.o.draw(this.state);
    this.panel.drawKept();
    if (saved && this.ready) this.status.textContent = this.o.standing?.(this.state) ?? `Ready: ${this.what} is kept on this device as you go.`;
  }

  // ------------------------------------------------------------ words

  /** A sentence at the top of the tracker, with buttons.
   * @param {string} text @param {...HTMLElement} buttons */
  say(text, ...buttons) {
    this.notice.removeAttribute("role");
    this.notice.removeAttribute("aria-labelledby");
    this.notice.replaceChildren(el("p", { id: `${this.id}-notice`, text }), ...(buttons.length ? [el("div", { class: "calc-actions" }, ...buttons)] : []));
    this.notice.hidden = false;
  }

  /** A question at the top of the tracker: its answers are the buttons, the first one focused.
   * @param {string} text @param {...HTMLElement} buttons */
  ask(text, ...buttons) {
    this.say(text, ...buttons);
    this.notice.setAttribute("role", "alertdialog");
    this.notice.setAttribute("aria-labelledby", `${this.id}-notice`);
    buttons[0].focus();
  }

  hush() {
    this.notice.hidden = true;
  }

  /** A sentence under the keep panel's controls: what Export, Share or Import did, or why not.
   * @param {string} text */
  tell(text, refused = false) {
    this.panel.tell(text, refused);
  }

  exportNow(label = "Export it as a file") {
    return this.panel.exportNow(label);
  }

  bringBackButton(label = "Bring back the one you had") {
    return button(label, () => this.bringBack(), { "data-keep": "bring-back" });
  }

  // ------------------------------------------------------------ another tab

  /** Another tab saved the state: show it here, once Python has read it. It takes its turn with the actions
   * tapped here (run's queue): a tap that comes while it is being read waits for it and acts on the other
   * tab's state, never dropped.
   * @returns {Promise<void>} */
  otherTab() {
    if (this.choosing || !this.ready) return Promise.resolve(); // the choice under way reads the stored one as it is then
    if (this.busy) { // a step here finds it at its save and asks; a refused step, or the check under way, shows it after
      this.missed = true;
      return Promise.resolve();
    }
    const shown = this.queue.then(() => this.showOther());
    this.queue = shown.catch(() => null);
    return shown;
  }

  /** The stored state, when another tab wrote it since this tab last read or wrote it: checked, then shown.
   * @returns {Promise<void>} */
  async showOther() {
    if (this.choosing || this.busy || !this.record.changedElsewhere()) return; // asked about meanwhile, or seen already
    const text = this.record.load();
    this.busy = true;
    const result = await this.check(text ?? "");
    this.busy = false;
    this.missed = false;
    if (this.record.changedElsewhere()) return this.showOther(); // written again while it was checked: that event came while busy
    if (!result.ok) {
      this.say(`Another tab saved ${this.o.a} this tab cannot read (${result.error}) This tab keeps showing its own and asks before it saves over the other's.`);
      this.record.seen = null; // so the next save asks
      return;
    }
    this.state = text == null && this.o.startsEmpty ? null : result.state;
    this.unreadable = null;
    this.draw();
    this.say(text != null ? `${cap(this.what)} was changed in another tab: this tab shows it as it is now.` : `${cap(this.what)} was cleared in another tab.`);
  }

  /** This tab's change (`mine`) met one saved by another tab meanwhile: keep both, let the players choose.
   * `asideNow`: `mine` is put aside already, so closing this tab loses nothing.
   * @param {string} mine @param {boolean} asideNow */
  askWhichTab(mine, asideNow) {
    this.choosing = true;
    const { noun, thing } = this.o;
    const theirs = button("Go on with the other tab's", async () => {
      const text = this.record.load();
      const result = await this.check(text ?? "");
      if (!result.ok) return this.ask(`The other tab's ${noun} cannot be read here (${result.error}) Go on with this tab's instead.`, keepMine);
      if (!this.record.putAside(mine)) return this.ask(notKept("full", `this tab's ${thing}`), this.exportNow(), theirs, keepMine);
      await this.record.adopt();
      this.choosing = false;
      this.state = text == null && this.o.startsEmpty ? null : result.state;
      this.draw();
      this.say(`Going on with the other tab's ${thing}; this tab's is put aside.`, this.bringBackButton("Bring back this tab's"));
    }, { class: "md-button md-button--primary", "data-keep": "take-theirs" });
    const keepMine = button("Go on with this tab's", async () => {
      const why = await this.record.replace(mine);
      if (why) return this.ask(notKept(why, `this tab's ${thing}`), this.exportNow(), theirs, keepMine);
      this.choosing = false;
      this.draw();
      this.say(`Going on with this tab's ${thing}; the other tab's is put aside.`, this.bringBackButton("Bring back the other tab's"));
    }, { "data-keep": "keep-this" });
    const meanwhile = asideNow ? " This tab's is put aside meanwhile, in place of the copy put aside before, so closing this tab loses nothing."
      : " There is no room on this device to put this tab's aside meanwhile: export it as a file if you may close this tab.";
    this.ask(`${cap(this.what)} was also changed in another tab, so this tab's last change was not saved over it. Which one goes on? The other is put aside and can be brought back.${meanwhile}`,
      theirs, keepMine, ...(asideNow ? [] : [this.exportNow()]));
  }

  // ------------------------------------------------------------ replacing the state

  /** Whether what is here now is worth putting aside when something replaces it. */
  worthKeeping() {
    return this.unreadable != null || (this.state != null && (this.o.worth?.(this.state) ?? true));
  }

  /** Make `next` (checked; null: none) the state, what is saved now put aside first (when worth it): both or
   * neither. Says `why`, with Bring back; when storage has no room for both, says that `what` was not opened.
   * @param {S | null} next @param {string} why @param {string} what @returns {Promise<boolean>} */
  async replaceWith(next, why, what) {
    if (!this.ready) return false;
    const text = next ? JSON.stringify(next) : null;
    if (await this.record.replace(text, { keep: this.worthKeeping() })) {
      this.panel.drawKept();
      this.say(`There is no room on this device to put your ${this.o.thing} aside, so ${what} was not opened: nothing you had has changed. Export yours as a file, then make room (clear this site's data in the browser's settings).`,
        this.exportNow("Export yours as a file"));
      return false;
    }
    this.unreadable = null;
    this.state = next;
    this.draw();
    this.o.replaced?.();
    const aside = this.record.aside();
    this.say(why, ...(aside && aside !== text ? [this.bringBackButton()] : []));
    const { top, bottom } = this.notice.getBoundingClientRect(); // opened from the keep panel, far below: the new one from its top
    if (top < 0 || bottom > innerHeight) this.notice.scrollIntoView({ block: "nearest" });
    return true;
  }

  /** The copy put aside comes back; what is here goes aside in its place. */
  async bringBack() {
    const text = this.record.aside();
    if (!text || !this.ready || this.busy) return;
    const result = await this.check(text);
    if (!result.ok) return this.say(`The ${this.o.noun} put aside cannot be read: ${result.error}`);
    this.choosing = false; // a question open is answered: this tab's goes aside
    if (await this.replaceWith(result.state, `The ${this.o.noun} you had is back; the other one is put aside.`, "the one put aside")) {
      const again = this.notice.querySelector("[data-keep=bring-back]");
      if (again) again.textContent = "Swap them again";
    }
  }

  /** A state's text from a file or pasted (`what` says which): checked, then opened.
   * @param {string} text @param {string} what */
  async openText(text, what) {
    if (!this.ready) return;
    const trimmed = String(text).trim();
    if (!trimmed) return this.tell(`${what} is empty.`, true);
    const result = await this.check(trimmed);
    if (!result.ok) return this.tell(`${what} was not opened: ${result.error} Nothing you had has changed.`, true);
    this.tell("");
    if (await this.replaceWith(result.state, `Opened: ${result.headline}`, `the ${this.o.noun} in ${what[0].toLowerCase()}${what.slice(1)}`)) this.panel.paste.value = "";
  }

  /** Start a new one: at the second press when this one is worth keeping (it is put aside, and the one put
   * aside before is gone).
   * @param {HTMLElement} target the button pressed */
  async startOver(target) {
    if (!this.ready) return;
    const { noun } = this.o;
    if (this.worthKeeping() && this.armed !== target) {
      /** @type {HTMLElement | null} the button pressed once, until it is pressed again or times out */
      this.armed = target;
      target.textContent = `Press again to start a new ${noun}`;
      this.tell(`A new ${noun} replaces this one on this device; this one is put aside and can be brought back.`);
      setTimeout(() => {
        if (this.armed !== target) return;
        this.armed = null;
        target.textContent = `Start a new ${noun}`;
      }, 5000);
      return;
    }
    this.armed = null;
    target.textContent = `Start a new ${noun}`;
    const made = await this.fresh();
    if (!made.ok) return this.tell(made.error, true);
    if (await this.replaceWith(made.state, `A new ${noun} has started.`, `a new ${noun}`)) this.tell("");
  }

  // ------------------------------------------------------------ links

  /** The link in the address has been answered or acted on: the address forgets it. Until then it keeps it:
   * Material may swap the page in anew meanwhile (its instant navigation answers the hash change), and the
   * page it swaps in deals with it again. */
  linkDone() {
    if (location.hash.startsWith(`#${this.o.link}`)) history.replaceState(history.state, "", location.pathname + location.search);
  }

  /** The link's state, if the address has one: checked, then opened, or asked about when this one is worth keeping. */
  async openLink() {
    const { noun, link: prefix } = this.o;
    const hash = location.hash.slice(1);
    if (!hash.startsWith(prefix)) return;
    const dismiss = () => button("OK", () => { this.linkDone(); this.hush(); }, { "data-keep": "dismiss" });
    let text;
    try {
      text = await unpack(hash.slice(prefix.length), noun, this.max.state);
    } catch (err) {
      if (this.box.isConnected) this.say(`The shared ${noun} in this link cannot be opened: ${/** @type {Error} */ (err).message}. Nothing you had has changed.`, dismiss());
      return;
    }
    const result = await this.check(text);
    if (!this.box.isConnected || location.hash.slice(1) !== hash) return;
    if (!result.ok) return this.say(`The shared ${noun} in this link was not opened: ${result.error} Nothing you had has changed.`, dismiss());
    const opened = `Opened the shared ${noun}: ${result.headline}`;
    const open = async () => {
      if (await this.replaceWith(result.state, opened, `the shared ${noun}`)) this.linkDone();
    };
    if (!this.worthKeeping()) return open();
    if (JSON.stringify(this.state) === JSON.stringify(result.state)) { // opened already, before the page was swapped in
      this.linkDone();
      return this.say(opened);
    }
    this.ask(`This link holds a shared ${noun}: ${this.o.describe?.(result) ?? result.headline} Open it? Yours is put aside and can be brought back.`,
      button(`Open the shared ${noun}`, open, { class: "md-button md-button--primary", "data-keep": "open-link" }),
      button("Keep mine", () => { this.linkDone(); this.say(`Kept your ${noun}; the link was not opened.`); }, { "data-keep": "keep-mine" }));
  }

  // ------------------------------------------------------------ start

  /** Read the saved state before anything may act on it; a calculator that cannot start changes nothing in storage. */
  async start() {
    const { noun, thing, startsEmpty } = this.o;
    const saved = this.record.load();
    const result = await this.check(saved ?? "");
    const blank = result.ok || result.stopped || startsEmpty ? null : await this.check("");
    if (!this.box.isConnected) return;
    const stopped = result.stopped ? result : blank?.stopped ? blank : null;
    /** @param {string} label offered only when a text is saved */
    const asSaved = (label) => button(label, () => download(/** @type {string} */ (saved), `${this.o.filePrefix}-as-saved.json`), { "data-keep": "download-saved" });
    if (stopped) {
      this.status.textContent = `${stopped.error.replace(/\.$/, "")}: ${this.what} cannot be shown or changed here. ${saved ? `Your ${thing} is still saved on this device, unchanged; ` : ""}reload the page to try again.`;
      this.status.classList.add("calc-failed");
      if (saved) this.say("Until then you can keep a copy of what is saved, as it is.", asSaved("Download what is saved"));
      this.box.dataset.loaded = "failed";
      return;
    }
    if (result.ok) this.state = saved || !startsEmpty ? result.state : null;
    else {
      this.unreadable = saved;
      this.state = /** @type {{state?: S} | null} */ (blank)?.state ?? null; // a refusal has none
      this.say(`The ${noun} saved on this device cannot be read: ${result.error} It is kept as it was${startsEmpty ? "" : `, and a new ${noun} starts here`}; the first change you make puts it aside, where it can be brought back.`,
        asSaved("Download it as it is"));
    }
    this.ready = true;
    if (!saved && this.state) await this.save(); // a new one as Python makes it
    this.draw();
    await this.o.ready?.();
    await this.openLink();
    this.box.dataset.loaded = "true"; // the state is drawn and any link dealt with
    keepRuntimeOffline();
  }
}

/** @type {Promise<unknown> | null} */
let keeping = null;

/** Keep the calculators' runtime for offline use, as a page with a form does (offline.js asks on those
 * only): asked once a tab, by a function that holds no page. `serviceWorker.ready` stays pending where
 * no service worker runs, and each tracker page that waited on it with a callback of its own was held
 * by it for as long as the tab lived. */
function keepRuntimeOffline() {
  if (keeping || !("serviceWorker" in navigator)) return;
  keeping = navigator.serviceWorker.ready.then((r) => r.active?.postMessage({ type: "cache-runtime" })).catch(() => {});
}
