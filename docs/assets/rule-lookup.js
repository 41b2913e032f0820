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
// second to a longer one (tt.glossary.deck: tt.deck.gm-decks), and a word
// such as "deathtouch" finds rulings that say it more often than its keyword
// rule. When the query is exactly a rule ID or a term's name, the rule gets a
// result of its own at the top of Material's list: one link, to its anchor,
// its game named (its title, game and first sentences are rule-previews.json's).
//
// Rule and term links in the text preview their rule: a first tap shows it,
// a second tap follows the link; other links to the site's pages preview the
// page or section on hover and focus (see "link previews" below).
//
// A rule index page ({{ rule-index tt }}) gets a working filter box. Without
// script the box stays hidden and the whole index shows.
//
// Nothing from the address or the filter box is ever parsed as HTML.

const RULE_ID = /^[a-z][a-z0-9]*(?:\.[a-z0-9][a-z0-9-]*)+$/;
const ANNOUNCE_AFTER_MS = 400; // let the typing pause before a screen reader reads the count

// The site root, once: Material keeps __config from the first page it loaded,
// and its `base` is relative to that page.
/** @type {{base?: string, features?: string[]}} */
const config = (() => {
  try {
    return JSON.parse(document.getElementById("__config")?.textContent ?? "{}");
  } catch {
    return {};
  }
})();
const BASE = new URL((config.base || ".").replace(/\/?$/, "/"), location.href);
const INSTANT = (config.features || []).includes("navigation.instant") && location.protocol !== "file:";

// ---------------------------------------------------------------- rule IDs in the address

/** @typedef {Record<string, string>} RuleLookup rule-lookup.json: rule ID (or old ID) -> page URL, site-relative */

/** @type {Promise<RuleLookup> | null} */
let lookup = null;
let shownPath = location.pathname; // the page in view (instant navigation changes it)
/** @type {string | null} */
let inFlight = null;

/** @returns {Promise<RuleLookup>} */
function loadLookup() {
  lookup ??= fetch(new URL("rule-lookup.json", BASE))
    .then((response) => (response.ok ? response.json() : Promise.reject(new Error(response.statusText))))
    .catch(() => {
      lookup = null; // try again next time: we may be back online
      return {};
    });
  return lookup;
}

/**
 * The rule ID a hash names, or null: never throws, even on `#%E0%A4%A`.
 * @param {string} hash
 * @returns {string | null}
 */
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

/**
 * Where rule `id` lives (site-relative URL, hash included), or null.
 * @param {RuleLookup} map
 * @param {string} id
 * @returns {URL | null}
 */
function placeOf(map, id) {
  if (!id || !Object.hasOwn(map, id)) return null;
  const target = new URL(map[id], BASE);
  if (target.origin !== BASE.origin) return null;
  if (!target.hash) target.hash = id;
  return target;
}

/** @param {URL} target */
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

// ---------------------------------------------------------------- what the build says of each rule

/** @typedef {{title: string, game: string, text: string}} RuleInfo a rule's preview: title, game's name, first sentences */
/**
 * rule-previews.json: each rule's preview by ID, and each term's names
 * (lowercase) -> its rule IDs.
 * @typedef {{rules: Record<string, RuleInfo>, names: Record<string, string[]>}} RulePreviews
 */
/** @typedef {{map: RuleLookup, info: RulePreviews}} KnownRules */
/** @typedef {RuleInfo & {id: string, url: URL}} FoundRule a rule as ruleOf gives it */

/** @type {Promise<RulePreviews> | null} */
let previews = null;
/** @type {KnownRules | null} */
let known = null; // {map, info}: the lookup and the previews, once both are loaded

/** @returns {Promise<RulePreviews>} */
function loadPreviews() {
  previews ??= fetch(new URL("rule-previews.json", BASE))
    .then((response) => (response.ok ? response.json() : Promise.reject(new Error(response.statusText))))
    .catch(() => {
      previews = null; // try again next time
      return { rules: {}, names: {} };
    });
  return previews;
}

/**
 * The lookup and the previews (from the network, or the service worker's cache offline), or null.
 * @returns {Promise<KnownRules | null>}
 */
async function whenKnown() {
  if (known) return known;
  const [map, info] = await Promise.all([loadLookup(), loadPreviews()]);
  if (Object.keys(map).length && Object.keys(info.rules || {}).length) known = { map, info };
  return known;
}

/**
 * Rule `id` (or an old ID) as {id, url, title, game, text}, or null.
 * @param {KnownRules} data
 * @param {string} id
 * @returns {FoundRule | null}
 */
function ruleOf({ map, info }, id) {
  const target = placeOf(map, id);
  const real = target && target.hash.slice(1);
  return real && Object.hasOwn(info.rules, real) ? { id: real, url: /** @type {URL} */ (target), ...info.rules[real] } : null;
}

/**
 * A text element. Text only: nothing here is ever read as HTML.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @returns {HTMLElementTagNameMap[K]}
 */
function el(tag, className = "", text = "") {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text) node.textContent = text;
  return node;
}

// ---------------------------------------------------------------- search

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
  const item = el("li", "md-search-result__item rule-search-hit");
  item.dataset.ruleHit = rule.id;
  const link = el("a", "md-search-result__link");
  link.href = rule.url.href;
  link.tabIndex = -1; // as Material's own: the arrow keys move between results
  const article = el("article", "md-search-result__article md-typeset");
  article.dataset.mdScore = String(score); // Enter in the box goes to the best score: this one
  article.append(el("div", "md-search-result__icon md-icon"), el("h1", "", `${rule.game} › ${rule.title}`),
    el("p", "rule-search-hit-id", rule.id));
  if (rule.text) article.append(el("p", "", rule.text));
  link.append(article);
  item.append(link);
  return item;
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

function setUpSearch() {
  const input = /** @type {HTMLInputElement | null} */ (document.querySelector(".md-search__input"));
  const list = document.querySelector(".md-search-result__list");
  if (!input || !list) return;
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

function showChosen() {
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

// ---------------------------------------------------------------- rule index filter

/**
 * Lowercase words joined by single spaces: "tt.combat.Attack-table" -> "tt combat attack table".
 * @param {string} text
 */
function words(text) {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim();
}

/** @param {Element} root */
function setUpIndex(root) {
  const box = /** @type {HTMLElement | null} */ (root.querySelector(".rule-index-filter"));
  if (!box || box.dataset.ready) return;
  box.dataset.ready = "true";
  const input = /** @type {HTMLInputElement} */ (box.querySelector("input"));
  const count = /** @type {Element} */ (box.querySelector(".rule-index-count"));
  const items = [.../** @type {NodeListOf<HTMLLIElement>} */ (root.querySelectorAll(".rule-index-list > li"))].map((li) => ({ li, text: " " + words(li.textContent) }));
  const lists = [.../** @type {NodeListOf<HTMLUListElement>} */ (root.querySelectorAll(".rule-index-list"))];
  const chapters = [.../** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll(".rule-index-chapter"))];
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
      shown += /** @type {number} */ (/** @type {unknown} */ (match)); // true counts 1
    }
    for (const list of lists) {
      list.hidden = !list.querySelector(":scope > li:not([hidden])");
      const heading = /** @type {HTMLElement | null} */ (list.previousElementSibling);
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

// ---------------------------------------------------------------- link previews

// A rule or term link of the page's text, when touched, first shows a preview
// of its rule (title, game and ID, first sentences, "Go to rule", a close
// button); a second tap, or "Go to rule", follows it. With a mouse the
// preview shows on hover, from the keyboard on focus, and a click follows the
// link at once. Everything comes from rule-previews.json, which the service
// worker keeps: no page is fetched, and it works offline and at any address
// (a link is matched by its path under the site's root, never by SITE_URL).
//
// The other links to the site's pages (those the build marks data-preview,
// as Material's own previews do) show, on hover and from the keyboard, the
// heading they lead to and its first paragraphs, read as text from the page
// (fetched, or the service worker's copy offline; parsed, never shown as
// HTML); a tap follows them at once, as before. Material's own previews
// (navigation.instant.preview) only show when the sitemap names the serving
// address (they compare the origin and port with SITE_URL's): this one
// compares paths, so it shows at any address, and Material's gives way to it.

/**
 * A link that has a preview: a rule or term link (its rule's ID), or a link
 * to a page of the site or a section of one (its URL).
 * @typedef {{link: HTMLAnchorElement, id: string, page?: undefined} | {link: HTMLAnchorElement, id?: undefined, page: URL}} PreviewLink
 */
/** @typedef {{title: string, meta: string, text: string, go: string}} PreviewContent what a preview shows */

const NOT_PREVIEWED = ".headerlink, .rule-id, .rule-index-list, .md-search-result, .rule-preview";
const HOVER_OPEN_MS = 150; // a pointer passing over a link opens nothing
const HOVER_CLOSE_MS = 250; // time to move from the link into its preview

/** @type {{box: HTMLElement | null, link: HTMLAnchorElement | null, mode: string, asked: number, openTimer: any, closeTimer: any}} */
const preview = {
  box: null, // the dialog, made on first use
  link: null, // the link it previews, while open
  mode: "", // "touch", "hover" or "focus"
  asked: 0, // the latest request: an older one that resolves late shows nothing
  openTimer: 0,
  closeTimer: 0,
};
let lastPointer = ""; // "touch", "mouse" or "pen": what the latest pointerdown was
/** @type {HTMLAnchorElement | null} */
let passing = null; // a link being followed on purpose: no preview
/** @type {HTMLAnchorElement | null} */
let refocusing = null; // a link getting focus back from its preview: no preview

/**
 * The link of the page's text that `node` is in, if it has a preview: a rule
 * or term link {link, id}, or a link to a page of the site (or a section of
 * one) {link, page: its URL}; or null.
 * @param {EventTarget | null} node
 * @returns {PreviewLink | null}
 */
function previewLinkOf(node) {
  const link = node instanceof Element ? node.closest("a[href]") : null;
  if (!(link instanceof HTMLAnchorElement) || !link.closest(".md-content") || link.closest(NOT_PREVIEWED)) return null;
  let url;
  try {
    url = new URL(link.href);
  } catch {
    return null;
  }
  // The serving address, whatever SITE_URL said; the path under the site's root.
  if (url.origin !== location.origin || !url.pathname.startsWith(BASE.pathname)) return null;
  const id = ruleIdOf(url.hash);
  if (id) return { link, id };
  if (!link.hasAttribute("data-preview") || (url.pathname === location.pathname && !url.hash)) return null;
  return { link, page: url };
}

/** @returns {HTMLElement} */
function previewBox() {
  if (preview.box?.isConnected) return preview.box;
  const box = el("div", "rule-preview");
  box.id = "rule-preview";
  box.hidden = true;
  box.tabIndex = -1;
  box.setAttribute("role", "dialog");
  box.setAttribute("aria-labelledby", "rule-preview-title");
  box.setAttribute("aria-describedby", "rule-preview-text");
  const title = el("p", "rule-preview-title");
  title.id = "rule-preview-title";
  const text = el("p", "rule-preview-text");
  text.id = "rule-preview-text";
  const go = el("a", "rule-preview-go", "Go to rule");
  const close = el("button", "rule-preview-close", "×");
  close.type = "button";
  close.setAttribute("aria-label", "Close the preview");
  box.append(title, el("p", "rule-preview-meta"), text, go, close);
  close.addEventListener("click", () => closePreview(true));
  go.addEventListener("click", () => closePreview(false)); // the link itself goes on
  box.addEventListener("pointerenter", () => clearTimeout(preview.closeTimer));
  box.addEventListener("pointerleave", (event) => {
    if (preview.mode === "hover" && event.pointerType === "mouse") closeSoon();
  });
  document.body.append(box);
  preview.box = box;
  return box;
}

/**
 * What the preview of rule `id` shows, or null when the previews do not know it.
 * @param {string} id
 * @returns {Promise<PreviewContent | null>}
 */
async function rulePreview(id) {
  const data = await whenKnown();
  const rule = data && ruleOf(data, id);
  return rule && { title: rule.title, meta: `${rule.game} · ${rule.id}`, text: rule.text || "", go: "Go to rule" };
}

const PREVIEW_CHARS = 320; // about what a rule's preview shows
/** @type {Map<string, Promise<Document | null>>} */
const pages = new Map(); // page path -> Promise<Document | null>, the last few

/**
 * The page at `path` of this site, parsed (inert: no script runs, nothing loads), or null.
 * @param {string} path
 * @returns {Promise<Document | null>}
 */
function pageAt(path) {
  if (path === location.pathname) return Promise.resolve(document);
  if (!pages.has(path)) {
    if (pages.size >= 8) pages.delete(/** @type {string} */ (pages.keys().next().value)); // the oldest
    pages.set(path, fetch(new URL(path, location.origin), { credentials: "same-origin" })
      .then((response) => (response.ok ? response.text() : null))
      .then((text) => (text === null ? null : new DOMParser().parseFromString(text, "text/html")))
      .catch(() => null)
      .then((doc) => {
        if (!doc) pages.delete(path); // try again next time: we may be back online
        return doc;
      }));
  }
  return /** @type {Promise<Document | null>} */ (pages.get(path));
}

/**
 * Text of `node` without its heading's ¶ link, spaces collapsed.
 * @param {Element} node
 */
function textOf(node) {
  const copy = /** @type {Element} */ (node.cloneNode(true));
  copy.querySelectorAll(".headerlink").forEach((a) => a.remove());
  return (copy.textContent || "").replace(/\s+/g, " ").trim();
}

/**
 * What the preview of a link to a page (its title) or to a section (the
 * heading of that id) shows: the heading, the page it is on, and the first
 * paragraphs under it (past headings below it until some text is found, as
 * a page's title is often followed at once by its first section's), cut
 * after PREVIEW_CHARS; or null when there is no such page or heading (the
 * link then just works).
 * @param {URL} url
 * @returns {Promise<PreviewContent | null>}
 */
async function pagePreview(url) {
  const doc = await pageAt(url.pathname);
  const article = doc?.querySelector("article");
  if (!article) return null;
  const h1 = article.querySelector("h1");
  let hash = "";
  try {
    hash = decodeURIComponent(url.hash.slice(1));
  } catch {
    return null;
  }
  const heading = hash ? [...article.querySelectorAll("[id]")].find((node) => node.id === hash) : h1;
  const level = heading ? Number(/^H([1-6])$/.exec(heading.tagName)?.[1]) : 0;
  if (!level) return null; // not a heading: nothing to title the preview with
  let text = "";
  // `heading` is an element from here on: `level` says so.
  for (let next = /** @type {Element} */ (heading).nextElementSibling; next && text.length < PREVIEW_CHARS; next = next.nextElementSibling) {
    const below = /^H([1-6])$/.exec(next.tagName);
    if (below && (text || Number(below[1]) <= level)) break;
    // A calculator's form says what it does in its summary line.
    const part = next.matches("form") ? next.querySelector(":scope > .calc-summary") : next;
    if (part?.matches("p:not(.rule-id), .admonition, blockquote, ul, ol")) text += (text ? " " : "") + textOf(part);
  }
  if (text.length > PREVIEW_CHARS) text = text.slice(0, text.lastIndexOf(" ", PREVIEW_CHARS) + 1 || PREVIEW_CHARS).trimEnd() + "…";
  const page = h1 && heading !== h1 ? textOf(h1) : "";
  return { title: textOf(/** @type {Element} */ (heading)), meta: page, text, go: heading === h1 ? "Go to page" : "Go to section" };
}

/** Show the preview of a link (its rule, or the page or section it leads to);
 * a link with nothing to show is followed (touch) or left alone.
 * @param {PreviewLink} hit
 * @param {string} mode "touch", "hover" or "focus"
 */
async function openPreview(hit, mode) {
  const { link } = hit;
  clearTimeout(preview.openTimer);
  clearTimeout(preview.closeTimer);
  const asked = ++preview.asked;
  const shown = hit.id ? await rulePreview(hit.id) : await pagePreview(/** @type {URL} */ (hit.page)); // no ID: a page link
  if (asked !== preview.asked || !link.isConnected) return; // closed, or another link, meanwhile
  if (!shown) {
    closePreview(false);
    if (mode === "touch") follow(link);
    return;
  }
  const box = previewBox();
  /** @type {Element} */ (box.querySelector(".rule-preview-title")).textContent = shown.title;
  const meta = /** @type {HTMLElement} */ (box.querySelector(".rule-preview-meta"));
  meta.textContent = shown.meta;
  meta.hidden = !shown.meta;
  const text = /** @type {HTMLElement} */ (box.querySelector(".rule-preview-text"));
  text.textContent = shown.text;
  text.hidden = !shown.text;
  const go = /** @type {HTMLAnchorElement} */ (box.querySelector(".rule-preview-go"));
  go.textContent = shown.go;
  go.href = link.href;
  box.dataset.mode = mode;
  preview.link?.classList.remove("rule-previewed");
  link.classList.add("rule-previewed");
  preview.link = link;
  preview.mode = mode;
  box.hidden = false;
  place(box, link);
  if (mode === "touch") box.focus({ preventScroll: true }); // a screen reader reads the dialog
}

/**
 * Below the link if it fits in the window, else above; never past the window's sides.
 * @param {HTMLElement} box
 * @param {HTMLAnchorElement} link
 */
function place(box, link) {
  const rects = [...link.getClientRects()];
  const rect = rects[0] || link.getBoundingClientRect();
  const gap = 8;
  const width = Math.min(box.offsetWidth, document.documentElement.clientWidth - 2 * gap);
  const left = Math.max(gap, Math.min(rect.left, document.documentElement.clientWidth - width - gap));
  const last = rects[rects.length - 1] || rect;
  const height = box.offsetHeight;
  const below = last.bottom + gap;
  const above = rect.top - gap - height;
  const top = below + height <= innerHeight - gap || above < gap ? below : above;
  box.style.left = `${left + scrollX}px`;
  box.style.top = `${top + scrollY}px`;
}

/**
 * Close the preview; `giveFocusBack` returns focus to its link when the preview held it.
 * @param {boolean} giveFocusBack
 */
function closePreview(giveFocusBack) {
  preview.asked++;
  clearTimeout(preview.openTimer);
  clearTimeout(preview.closeTimer);
  const { box, link } = preview;
  link?.classList.remove("rule-previewed");
  preview.link = null;
  preview.mode = "";
  if (!box || box.hidden) return;
  const held = box.contains(document.activeElement);
  box.hidden = true;
  if (giveFocusBack && held && link?.isConnected) {
    refocusing = link;
    link.focus({ preventScroll: true });
    refocusing = null;
  }
}

function closeSoon() {
  clearTimeout(preview.closeTimer);
  preview.closeTimer = setTimeout(() => closePreview(false), HOVER_CLOSE_MS);
}

/**
 * Follow a link as a click would (Material's instant navigation included), without a preview.
 * @param {HTMLAnchorElement} link
 */
function follow(link) {
  passing = link;
  try {
    link.click();
  } finally {
    passing = null;
  }
}

function setUpPreviews() {
  addEventListener("pointerdown", (event) => {
    lastPointer = event.pointerType;
    const { box, link } = preview;
    if (!box || box.hidden || !(event.target instanceof Node)) return;
    if (box.contains(event.target) || link?.contains(event.target)) return;
    closePreview(true); // a tap outside
  }, true);

  // Capture, so the first tap is taken before Material's instant navigation
  // sees it. A tap on a link to a page follows it at once, as it always did.
  addEventListener("click", (event) => {
    const hit = previewLinkOf(event.target);
    if (!hit || hit.link === passing || event.button || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    if (!hit.id) {
      closePreview(false);
      return;
    }
    // A click the keyboard made (Enter on a focused link) counts no clicks (detail 0) and has no pointer:
    // it follows the link, whatever the last pointer was. A tap's click may lack a pointer type (older
    // Safari): the latest pointerdown says what it was.
    const pointer = event.detail === 0 ? "keyboard" : ("pointerType" in event && event.pointerType) || lastPointer;
    if (pointer !== "touch" || (preview.link === hit.link && preview.mode === "touch")) {
      closePreview(false); // a mouse click, or the second tap: the link goes on
      return;
    }
    event.preventDefault();
    event.stopImmediatePropagation();
    openPreview(hit, "touch");
  }, true);

  addEventListener("keydown", (event) => {
    if (event.key !== "Escape" || !preview.box || preview.box.hidden) return;
    event.stopPropagation();
    closePreview(true);
  }, true);

  addEventListener("pointerover", (event) => {
    if (event.pointerType !== "mouse") return;
    const hit = previewLinkOf(event.target);
    if (!hit) return;
    if (hit.link === preview.link) {
      clearTimeout(preview.closeTimer);
      return;
    }
    clearTimeout(preview.openTimer);
    preview.openTimer = setTimeout(() => openPreview(hit, "hover"), HOVER_OPEN_MS);
  }, true);

  addEventListener("pointerout", (event) => {
    if (event.pointerType !== "mouse") return;
    const hit = previewLinkOf(event.target);
    if (!hit || (event.relatedTarget instanceof Node && hit.link.contains(event.relatedTarget))) return;
    clearTimeout(preview.openTimer);
    if (hit.link === preview.link && preview.mode === "hover") closeSoon();
  }, true);

  addEventListener("focusin", (event) => {
    const hit = previewLinkOf(event.target);
    if (!hit || hit.link === refocusing || hit.link === preview.link || !hit.link.matches(":focus-visible")) return;
    openPreview(hit, "focus"); // from the keyboard
  }, true);

  addEventListener("focusout", (event) => {
    if (preview.mode !== "focus") return;
    const to = event.relatedTarget;
    if (to instanceof Node && preview.box?.contains(to)) return;
    closePreview(false);
  }, true);

  // Material's own preview of a link (a .md-tooltip2 dialog it names in the
  // link's aria-controls) would stand beside this one: it goes.
  new MutationObserver((records) => {
    for (const { target } of records) {
      if (!(target instanceof Element) || !previewLinkOf(target)) continue;
      const id = target.getAttribute("aria-controls");
      if (!id || !id.startsWith("__tooltip2_")) continue;
      document.getElementById(id)?.remove();
      target.removeAttribute("aria-controls");
      target.removeAttribute("aria-haspopup");
    }
  }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ["aria-controls"] });
}

// ---------------------------------------------------------------- every page

function onPage() {
  shownPath = location.pathname;
  closePreview(false); // a new page: its links are other links
  showChosen();
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
setUpPreviews();
