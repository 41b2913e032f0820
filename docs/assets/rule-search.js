// Material's search, tuned for rule IDs and terms (rule-lookup.js sets it up).
//
// The index (tuned by the finishing step, rulebook/site/data.py) ranks a rule
// ID's rules first, but each word of a query also matches longer words, so an
// exact ID can come second to a longer one (tt.glossary.deck:
// tt.deck.gm-decks), and a word such as "deathtouch" finds rulings that say it
// more often than its keyword rule. When the query is exactly a rule ID or a
// term's name, the rule gets a result of its own at the top of Material's
// list: one link, to its anchor, its game named (its title, game and first
// sentences are rule-previews.json's). On a phone, the rule a result leads to
// comes into view once Material has let go of the page's scrolling.

import { el } from "./dom.js";
import { BASE, knownNow, ruleIdOf, ruleOf, whenKnown } from "./rule-data.js";
import { letSearchStart } from "./search-start.js";

/** @typedef {import("./rule-data.js").KnownRules} KnownRules */
/** @typedef {import("./rule-data.js").FoundRule} FoundRule */

/**
 * The rules a query names exactly: a rule ID (or a link to one), or a term's
 * name ("deathtouch", "Trample"); a name two games share gives both, the
 * game of the page in view first.
 * @param {string} query
 * @param {KnownRules} data
 * @returns {FoundRule[]}
 */
function rulesNamed(query, data) {
  const id = ruleIdOf("#" + query.split("#").pop()); // a pasted link works too
  if (id) {
    const rule = ruleOf(data, id);
    return rule ? [rule] : [];
  }
  const name = query.trim().replace(/\s+/g, " ").toLowerCase();
  if (!Object.hasOwn(data.info.names, name)) return [];
  const here = location.pathname.slice(BASE.pathname.length).split("/")[0];
  const rules = /** @type {FoundRule[]} */ (data.info.names[name].map((rid) => ruleOf(data, rid)).filter(Boolean));
  const away = (/** @type {FoundRule} */ rule) => Number(rule.url.pathname.slice(BASE.pathname.length).split("/")[0] !== here);
  return rules.sort((a, b) => away(a) - away(b));
}

/**
 * A result of its own for a rule: one link, straight to the rule's anchor, its game named.
 * @param {FoundRule} rule
 * @param {number} score
 */
function ruleHit(rule, score) {
  // Enter in the box goes to the best score: this one.
  const article = el("article", { class: "md-search-result__article md-typeset", "data-md-score": score },
    el("div", { class: "md-search-result__icon md-icon" }), el("h1", { text: `${rule.game} › ${rule.title}` }),
    el("p", { class: "rule-search-hit-id", text: rule.id }), rule.text ? el("p", { text: rule.text }) : null);
  // tabindex -1, as Material's own: the arrow keys move between results
  return el("li", { class: "md-search-result__item rule-search-hit", "data-rule-hit": rule.id },
    el("a", { class: "md-search-result__link", href: rule.url.href, tabindex: -1 }, article));
}

/**
 * Material's own entry for a rule shown first already: out, and its page's "N more" count kept right.
 * @param {Element} list
 * @param {FoundRule[]} rules
 */
function dropRepeats(list, rules) {
  const wanted = new Set(rules.map((rule) => rule.url.pathname + rule.url.hash));
  for (const link of list.querySelectorAll(".md-search-result__item:not([data-rule-hit]) a.md-search-result__link")) {
    const url = new URL(/** @type {HTMLAnchorElement} */ (link).href);
    if (!url.hash || !wanted.has(url.pathname + url.hash)) continue;
    const more = link.closest("details.md-search-result__more");
    if (!more) {
      // The section shown under its page: the next one (folded) takes its place.
      const next = /** @type {Element} */ (link.parentElement).querySelector("details.md-search-result__more a.md-search-result__link");
      if (next) link.before(next);
    }
    const box = more || /** @type {Element} */ (link.parentElement).querySelector("details.md-search-result__more");
    link.remove();
    if (!box) continue;
    const left = box.querySelectorAll("a.md-search-result__link").length;
    const label = /** @type {Element} */ (box.querySelector("summary div") || box.querySelector("summary"));
    if (!left) box.remove();
    else label.textContent = label.textContent.replace(/\d+/, String(left));
  }
}

/**
 * When the query names rules exactly (an ID, a term's name), they are the first results.
 * @param {HTMLInputElement} input
 * @param {Element} list
 */
function putNamedRulesFirst(input, list) {
  const known = knownNow();
  if (!known) {
    whenKnown().then((data) => { if (data) putNamedRulesFirst(input, list); });
    return;
  }
  const shown = list.querySelectorAll(":scope > .md-search-result__item:not([data-rule-hit])");
  const rules = shown.length ? rulesNamed(input.value, known) : [];
  const hits = [.../** @type {NodeListOf<HTMLElement>} */ (list.querySelectorAll(":scope > [data-rule-hit]"))];
  const same = hits.length === rules.length && hits.every((hit, i) => list.children[i] === hit && hit.dataset.ruleHit === rules[i].id);
  if (!same) {
    for (const hit of hits) hit.remove();
    const scores = [...list.querySelectorAll("[data-md-score]")].map((a) => parseFloat(/** @type {string} */ (a.getAttribute("data-md-score"))) || 0);
    const top = Math.max(0, ...scores);
    list.prepend(...rules.map((rule, i) => ruleHit(rule, top + rules.length - i)));
  }
  dropRepeats(list, rules);
}

/**
 * Material's query parser splits words at spaces and hyphens only, so from
 * tt.combat.attack-table it also keeps "tt.combat.attack", a word no page can
 * contain (the index splits at dots too), and every result says it is
 * "Missing". Drop those notes; real missing words stay.
 * @param {Element} list
 */
function dropDottedMissingWords(list) {
  for (const note of list.querySelectorAll(".md-search-result__terms")) {
    for (const word of note.querySelectorAll("del")) if (word.textContent.includes(".")) word.remove();
    if (!note.querySelector("del")) note.remove();
  }
}

export function setUpSearch() {
  const input = /** @type {HTMLInputElement | null} */ (document.querySelector(".md-search__input"));
  const list = document.querySelector(".md-search-result__list");
  if (!input || !list) return;
  input.addEventListener("focus", letSearchStart); // the reader wants the search now: build its index
  new MutationObserver(() => {
    dropDottedMissingWords(list);
    putNamedRulesFirst(input, list);
  }).observe(list, { childList: true });

  // On a phone Material locks the page's scrolling while the search is open
  // and, 100 ms after a result is tapped, unlocks it and scrolls back to
  // where the page was: often once the address is the new page's, so that
  // offset is recorded for it and the new page opens there, thousands of
  // pixels from the rule. Once the page is in and unlocked, the chosen
  // result's anchor comes into view.
  list.addEventListener("click", (event) => {
    const link = event.target instanceof Element ? event.target.closest("a.md-search-result__link") : null;
    chosen = link instanceof HTMLAnchorElement && link.hash ? { url: new URL(link.href), at: Date.now() } : null;
  });
  new MutationObserver(showChosen).observe(document.body, { attributes: true, attributeFilter: ["data-md-scrolllock"] });
}

/** @type {{url: URL, at: number} | null} */
let chosen = null; // the search result tapped last, with an anchor: {url, at}
const CHOSEN_FOR_MS = 10_000;

export function showChosen() {
  if (!chosen || document.body.hasAttribute("data-md-scrolllock")) return;
  const { url, at } = chosen;
  if (Date.now() - at > CHOSEN_FOR_MS) {
    chosen = null;
    return;
  }
  if (location.pathname !== url.pathname || location.hash !== url.hash) return; // not there yet
  let id = "";
  try {
    id = decodeURIComponent(url.hash.slice(1));
  } catch { /* a malformed escape names no element */ }
  const target = document.getElementById(id);
  if (!target) return; // the page before is still shown: the next one will call again
  chosen = null;
  holdInView(target, url.hash);
}

const HOLD_MS = 1500;

/**
 * Keep `target` at the top of the window for a moment: Material's own
 * scrolls (the unlock's, the recorded offset's) can come after this one.
 * The reader's first touch, wheel or key lets go.
 * @param {HTMLElement} target
 * @param {string} hash
 */
function holdInView(target, hash) {
  const until = performance.now() + HOLD_MS;
  const inputs = ["touchstart", "wheel", "keydown", "pointerdown"];
  let held = true;
  const letGo = () => { held = false; };
  for (const type of inputs) addEventListener(type, letGo, { capture: true, passive: true });
  const step = () => {
    if (held && target.isConnected && location.hash === hash && performance.now() < until) {
      const top = target.getBoundingClientRect().top;
      if (top < 0 || top > innerHeight / 3) target.scrollIntoView();
      requestAnimationFrame(step);
    } else {
      for (const type of inputs) removeEventListener(type, letGo, { capture: true });
    }
  };
  step();
}
