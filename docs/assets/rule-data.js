// What the build says of each rule, for the rule lookup's modules (rule-lookup.js,
// rule-search.js, link-previews.js): rule-lookup.json, the page of every rule
// ID and old ID (small: no rule texts), and rule-previews.json, each rule's
// title, game and first sentences and each term's names (rulebook/site/data.py).
// Both are fetched once, and from the service worker's cache offline.

import { siteJson } from "./dom.js";
import { siteBase } from "./offline.js";

/** @typedef {Record<string, string>} RuleLookup rule-lookup.json: rule ID (or old ID) -> page URL, site-relative */
/** @typedef {{title: string, game: string, text: string}} RuleInfo a rule's preview: title, game's name, first sentences */
/**
 * rule-previews.json: each rule's preview by ID, and each term's names
 * (lowercase) -> its rule IDs.
 * @typedef {{rules: Record<string, RuleInfo>, names: Record<string, string[]>}} RulePreviews
 */
/** @typedef {{map: RuleLookup, info: RulePreviews}} KnownRules */
/** @typedef {RuleInfo & {id: string, url: URL}} FoundRule a rule as ruleOf gives it */

const RULE_ID = /^[a-z][a-z0-9]*(?:\.[a-z0-9][a-z0-9-]*)+$/;

/** The site's root (offline.js reads it once, from the first page Material loaded). */
export const BASE = siteBase();

/** @returns {Promise<RuleLookup>} */
export function loadLookup() {
  return siteJson("rule-lookup.json", /** @type {RuleLookup} */ ({}));
}

/**
 * The rule ID a hash names, or null: never throws, even on `#%E0%A4%A`.
 * @param {string} hash
 * @returns {string | null}
 */
export function ruleIdOf(hash) {
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
export function placeOf(map, id) {
  if (!id || !Object.hasOwn(map, id)) return null;
  const target = new URL(map[id], BASE);
  if (target.origin !== BASE.origin) return null;
  if (!target.hash) target.hash = id;
  return target;
}

/** @type {KnownRules | null} */
let known = null; // {map, info}: the lookup and the previews, once both are loaded

/** The lookup and the previews if both are loaded already, else null (whenKnown loads them). */
export function knownNow() {
  return known;
}

/**
 * The lookup and the previews (from the network, or the service worker's cache offline), or null.
 * @returns {Promise<KnownRules | null>}
 */
export async function whenKnown() {
  if (known) return known;
  const [map, info] = await Promise.all([loadLookup(), siteJson("rule-previews.json", /** @type {RulePreviews} */ ({ rules: {}, names: {} }))]);
  if (Object.keys(map).length && Object.keys(info.rules || {}).length) known = { map, info };
  return known;
}

/**
 * Rule `id` (or an old ID) as {id, url, title, game, text}, or null.
 * @param {KnownRules} data
 * @param {string} id
 * @returns {FoundRule | null}
 */
export function ruleOf({ map, info }, id) {
  const target = placeOf(map, id);
  const real = target && target.hash.slice(1);
  return real && Object.hasOwn(info.rules, real) ? { id: real, url: /** @type {URL} */ (target), ...info.rules[real] } : null;
}
