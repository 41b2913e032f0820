// Finding a rule by its ID. One small module, no framework.
//
// An address ending in #<rule-id> (tt.combat.attack-table, or an old ID from
// docs/rule-redirects.json) whose rule is not on the page opened goes on to
// the page that holds it: on load, on every page Material's instant
// navigation shows, and when the hash changes. The map of IDs to pages is
// rule-lookup.json, written by hooks/rule_ids.py (small: no rule texts).
//
// Search: the index (tuned by the hook) ranks a rule ID's rules first, but
// each word of a query also matches longer words, so an exact ID can come
// second to a longer one (tt.glossary.deck: tt.deck.gm-decks). When the query
// is exactly a rule ID, its result is moved to the top of Material's list.
//
// A rule index page ({{ rule-index tt }}) gets a working filter box. Without
// script the box stays hidden and the whole index shows.
//
// Nothing from the address or the filter box is ever parsed as HTML.

const RULE_ID = /^[a-z][a-z0-9]*(?:\.[a-z0-9][a-z0-9-]*)+$/;
const ANNOUNCE_AFTER_MS = 400; // let the typing pause before a screen reader reads the count

// The site root, once: Material keeps __config from the first page it loaded,
// and its `base` is relative to that page.
const config = (() => {
  try {
    return JSON.parse(document.getElementById("__config").textContent);
  } catch {
    return {};
  }
})();
const BASE = new URL((config.base || ".").replace(/\/?$/, "/"), location.href);
const INSTANT = (config.features || []).includes("navigation.instant") && location.protocol !== "file:";

// ---------------------------------------------------------------- rule IDs in the address

let lookup = null;
let shownPath = location.pathname; // the page in view (instant navigation changes it)
let inFlight = null;

function loadLookup() {
  lookup ??= fetch(new URL("rule-lookup.json", BASE))
    .then((response) => (response.ok ? response.json() : Promise.reject(new Error(response.statusText))))
    .catch(() => {
      lookup = null; // try again next time: we may be back online
      return {};
    });
  return lookup;
}

/** The rule ID a hash names, or null: never throws, even on `#%E0%A4%A`. */
function ruleIdOf(hash) {
  if (!hash || hash.length < 2) return null;
  let text;
  try {
    text = decodeURIComponent(hash.slice(1));
  } catch {
    return null; // a malformed %-escape
  }
  const id = text.trim().toLowerCase();
  return RULE_ID.test(id) ? id : null;
}

/** Where rule `id` lives (site-relative URL, hash included), or null. */
function placeOf(map, id) {
  if (!id || !Object.hasOwn(map, id)) return null;
  const target = new URL(map[id], BASE);
  if (target.origin !== BASE.origin) return null;
  if (!target.hash) target.hash = id;
  return target;
}

function go(target) {
  if (target.pathname === location.pathname) {
    target.search = location.search; // the same page: only scroll, never reload
    location.replace(target.href);
  } else if (INSTANT && typeof location$ !== "undefined") {
    // Replace, not push: Back must not land on the address that sent us here.
    history.replaceState(null, "", target.href);
    location$.next(target); // Material fetches the page, swaps it in, scrolls to the hash
  } else {
    location.replace(target.href);
  }
}

async function followRuleHash() {
  const here = location.href;
  if (inFlight === here) return; // hashchange and popstate both report one edit
  const id = ruleIdOf(location.hash);
  if (!id) return;
  let raw = "";
  try {
    raw = decodeURIComponent(location.hash.slice(1));
  } catch { /* ruleIdOf said it decodes */ }
  if (document.getElementById(raw)) return; // the rule is on this page
  inFlight = here;
  try {
    const target = placeOf(await loadLookup(), id);
    if (location.href !== here || !target) return; // moved on meanwhile, or no such rule
    go(target);
  } finally {
    if (inFlight === here) inFlight = null;
  }
}

// ---------------------------------------------------------------- search

let rules = null; // the lookup, once loaded

/** Put the result for the exact rule ID typed first, and first on its page. */
function promoteExactRule(input, list) {
  const id = ruleIdOf("#" + input.value.split("#").pop()); // a pasted link works too
  if (!id) return;
  if (!rules) {
    loadLookup().then((map) => {
      if (Object.keys(map).length) rules = map; // else try again on the next query
      if (rules) promoteExactRule(input, list);
    });
    return;
  }
  const target = placeOf(rules, id);
  if (!target) return;
  const link = [...list.querySelectorAll("a.md-search-result__link")].find((a) => {
    const url = new URL(a.href);
    return url.pathname === target.pathname && url.hash === target.hash;
  });
  if (!link) return; // not among the results shown yet
  const item = link.closest(".md-search-result__item");
  if (list.firstElementChild !== item) list.prepend(item);
  const page = item.querySelector(":scope > a.md-search-result__link"); // the page's own entry
  if (link === page || page.nextElementSibling === link) return;
  const more = link.closest("details.md-search-result__more");
  page.after(link);
  if (more) {
    // "3 more on this page" lost one: say so, or drop the box when it is empty.
    const left = more.querySelectorAll("a.md-search-result__link").length;
    const label = more.querySelector("summary div") || more.querySelector("summary");
    if (!left) more.remove();
    else label.textContent = label.textContent.replace(/\d+/, String(left));
  }
}

/**
 * Material's query parser splits words at spaces and hyphens only, so from
 * tt.combat.attack-table it also keeps "tt.combat.attack", a word no page can
 * contain (the index splits at dots too), and every result says it is
 * "Missing". Drop those notes; real missing words stay.
 */
function dropDottedMissingWords(list) {
  for (const note of list.querySelectorAll(".md-search-result__terms")) {
    for (const word of note.querySelectorAll("del")) if (word.textContent.includes(".")) word.remove();
    if (!note.querySelector("del")) note.remove();
  }
}

function setUpSearch() {
  const input = document.querySelector(".md-search__input");
  const list = document.querySelector(".md-search-result__list");
  if (!input || !list) return;
  new MutationObserver(() => {
    dropDottedMissingWords(list);
    promoteExactRule(input, list);
  }).observe(list, { childList: true });
}

// ---------------------------------------------------------------- rule index filter

/** Lowercase words joined by single spaces: "tt.combat.Attack-table" -> "tt combat attack table". */
function words(text) {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim();
}

function setUpIndex(root) {
  const box = root.querySelector(".rule-index-filter");
  if (!box || box.dataset.ready) return;
  box.dataset.ready = "true";
  const input = box.querySelector("input");
  const count = box.querySelector(".rule-index-count");
  const items = [...root.querySelectorAll(".rule-index-list > li")].map((li) => ({ li, text: " " + words(li.textContent) }));
  const lists = [...root.querySelectorAll(".rule-index-list")];
  const chapters = [...root.querySelectorAll(".rule-index-chapter")];
  const total = items.length;
  let timer = 0;

  const apply = () => {
    // Every word typed starts a word of the title or the ID: "combat.att" finds
    // tt.combat.attack-table, "tr" finds Trample but not Double Strike.
    const typed = input.value.split(/\s+/).map(words).filter(Boolean).map((word) => " " + word);
    let shown = 0;
    for (const { li, text } of items) {
      const match = typed.every((word) => text.includes(word));
      li.hidden = !match;
      shown += match;
    }
    for (const list of lists) {
      list.hidden = !list.querySelector(":scope > li:not([hidden])");
      const heading = list.previousElementSibling;
      if (heading && heading.tagName === "H3") heading.hidden = list.hidden;
    }
    for (const chapter of chapters) chapter.hidden = !chapter.querySelector(".rule-index-list > li:not([hidden])");
    const sentence = !typed.length ? `${total} rules`
      : shown ? `${shown} of ${total} rules match.`
      : "No rule matches. Try part of an ID or a word of a title.";
    clearTimeout(timer);
    timer = setTimeout(() => { count.textContent = sentence; }, typed.length ? ANNOUNCE_AFTER_MS : 0);
  };

  input.addEventListener("input", apply);
  box.hidden = false;
  if (input.value) apply(); // a value the browser kept from before (Back)
}

// ---------------------------------------------------------------- every page

function onPage() {
  shownPath = location.pathname;
  for (const root of document.querySelectorAll(".rule-index")) setUpIndex(root);
  followRuleHash();
}

if (typeof document$ !== "undefined") {
  document$.subscribe(onPage);
  // A click on #<id> within the page is handled by Material, without a hashchange.
  if (typeof location$ !== "undefined") {
    location$.subscribe((url) => {
      if (url.pathname === shownPath) setTimeout(followRuleHash);
    });
  }
} else {
  document.addEventListener("DOMContentLoaded", onPage);
}
addEventListener("hashchange", () => followRuleHash());
setUpSearch(); // the search box is in the header, which instant navigation keeps
