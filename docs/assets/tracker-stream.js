// A tracker's state kept in two places: the calculators' worker holds it
// between steps (calculators/runner.py, its sessions), and the page holds a
// copy. A step sends the action and the version of the state the page holds,
// and Python answers with what the step changed (calculators/stream.py); the
// page applies that to its copy. Any other time (the first step, a state from
// outside: storage, a file, a link, another tab; a worker that restarted or
// holds another state) the whole state goes, once, and is answered whole.
//
// What a step changed is a small message a follower of the state applies the
// same way (this page's copy now; a players' view or a player's phone next):
//   {base: "<version it applies to>", version: "<version after it>", changes: [Change, ...]}
// A follower holding `base` applies `changes` in order and then holds
// `version`; one holding anything else asks for the whole state. The changes'
// shapes are told in calculators/stream.py; applyChanges is its `apply`, and
// tests/test_stream_page.py checks the two agree over whole fights.
//
// This module imports nothing, so Node can run applyChanges for the tests.

/** @typedef {import("./tracker-kit.js").Action} Action */
/** @template [S=unknown] @typedef {import("./tracker-kit.js").StepAnswer<S>} StepAnswer */
/** One change a step made to one top-level field of the state (calculators/stream.py): set whole (`value`),
 * gone, a list of objects with ids (`put`, the new or changed ones; `ids`, the new order, when it changed),
 * or a list spliced ([at, cut, items], as Array.prototype.splice).
 * @typedef {{key: string, value?: unknown, gone?: true, put?: {id: string | number}[], ids?: (string | number)[],
 *   splice?: [number, number, unknown[]][]}} Change */
/** What a step changed, for whoever follows the state.
 * @typedef {{base: string, version: string, changes: Change[]}} Delta */

/** `state` with `changes` made: a new object, sharing what did not change (`state` is not changed).
 * @template S @param {S} state @param {Change[]} changes @returns {S} */
export function applyChanges(state, changes) {
  const out = /** @type {Record<string, unknown>} */ ({ ...state });
  for (const change of changes) {
    const { key } = change;
    if ("value" in change) {
      out[key] = change.value;
    } else if (change.gone) {
      delete out[key];
    } else if (change.put) {
      const old = /** @type {{id: string | number}[]} */ (out[key]);
      const byId = new Map(old.map((item) => [item.id, item]));
      for (const item of change.put) byId.set(item.id, item);
      out[key] = (change.ids ?? old.map((item) => item.id)).map((id) => byId.get(id));
    } else if (change.splice) {
      const items = [.../** @type {unknown[]} */ (out[key])];
      for (const [at, cut, added] of change.splice) items.splice(at, cut, ...added);
      out[key] = items;
    }
  }
  return /** @type {S} */ (out);
}

/** One step of tracker `name` in the calculators' worker, the whole state sent as text: Python's answer,
 * or `{ok: false, stopped: true, error}` when the calculator could not work it out (it did not start, or was
 * stopped): then nothing may be concluded about the state sent, and nothing saved may change. Its states are
 * S: what Python checked, believed here.
 * @template S
 * @param {typeof import("./calc-runtime.js").computeInWorker} computeInWorker
 * @param {string} name @param {string} stateText @param {Action} action @param {string | null} [seed]
 * @returns {Promise<StepAnswer<S>>} */
export function step(computeInWorker, name, stateText, action, seed = null) {
  return /** @type {Promise<StepAnswer<S>>} */ (computeInWorker(`track:${name}`, { state: stateText, action: JSON.stringify(action) }, seed)
    .catch(couldNotStart));
}

/** @param {Error} err @returns {import("./calc-runtime.js").Refusal} */
const couldNotStart = (err) => ({ ok: false, stopped: true, field: null, error: `The calculator could not start (${err.message}).` });

/** The page's side of one tracker's session in the worker: the state it holds (as Python answered it, checked)
 * and its version. Every step of the tracker goes through here, so the copy and the version stay together.
 * @template [S=unknown] */
export class TrackerStream {
  /** @param {typeof import("./calc-runtime.js").computeInWorker} computeInWorker @param {string} name */
  constructor(computeInWorker, name) {
    this.computeInWorker = computeInWorker;
    this.name = name;
    /** @type {S | null} the state the worker holds as `version`, as this page holds it */
    this.held = null;
    /** @type {string | null} */
    this.version = null;
    this.whole = 0; // steps that sent the whole state (the first, and after a restart or another state): for the tests
  }

  /** One step from `from` (null: a new state): Python's answer, with the whole new state in `state` either way.
   * From the state the worker holds, only the action and the version go, and the answer's changes are applied
   * here; from any other, or when the worker no longer holds it, the whole state goes.
   * @param {S | null} from @param {Action} action @param {string | null} [seed] @returns {Promise<StepAnswer<S>>} */
  async step(from, action, seed = null) {
    if (from !== null && from === this.held && this.version !== null) {
      const base = this.version;
      const answer = await this.computeInWorker(`track:${this.name}`, { action: JSON.stringify(action), version: base }, seed)
        .catch(couldNotStart);
      if (!answer.ok) {
        if (!answer.stale) return answer;
      } else if ("changes" in answer && answer.base === base && this.version === base && this.held === from) {
        const state = applyChanges(from, answer.changes);
        const { changes, base: _, ...rest } = answer;
        this.hold(state, answer.version);
        return { ...rest, state };
      }
      // stale, or answered for a copy this page no longer holds: the whole state, once
    }
    return this.steppedWhole(await step(this.computeInWorker, this.name, from === null ? "" : JSON.stringify(from), action, seed));
  }

  /** A state's text from outside, checked: Python's answer to {"do": "show"} (the worker then holds it).
   * @param {string} text @returns {Promise<StepAnswer<S>>} */
  async check(text) {
    return this.steppedWhole(await step(this.computeInWorker, this.name, text, { do: "show" }));
  }

  /** @param {StepAnswer<S>} answer */
  steppedWhole(answer) {
    this.whole += 1;
    if (answer.ok && "state" in answer) this.hold(answer.state, answer.version ?? null);
    return answer;
  }

  /** @param {S | null} state @param {string | null} version */
  hold(state, version) {
    this.held = state;
    this.version = version;
  }
}
