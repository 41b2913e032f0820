// Finding a rule by its ID, the page script every page loads (mkdocs.yml).
// One small module, no framework; its features are modules of their own:
//
// - here: an address ending in #<rule-id> (tt.combat.attack-table, or an old
//   ID from docs/rule-redirects.json) whose rule is not on the page opened goes
//   on to the page that holds it: on load, on every page Material's instant
//   navigation shows, and when the hash changes (rule-lookup.json, read by
//   rule-data.js);
// - rule-search.js: Material's search puts the rule a query names exactly (an
//   ID, a term's name) first;
// - link-previews.js: rule and term links preview their rule (a first tap
//   shows it, a second follows the link), other links to the site's pages
//   preview the page or section on hover and focus;
// - rule-index.js: a rule index page ({{ rule-index tt }}) gets a working
//   filter box.
//
// Nothing from the address, a search or the filter box is ever parsed as HTML.

import { siteFeature } from "./offline.js";
import { loadLookup, placeOf, ruleIdOf } from "./rule-data.js";
import { setUpSearch, showChosen } from "./rule-search.js";
import { closePreview, markPreviewLinks, setUpPreviews } from "./link-previews.js";
import { setUpIndex } from "./rule-index.js";

const INSTANT = siteFeature("navigation.instant") && location.protocol !== "file:";

let shownPath = location.pathname; // the page in view (instant navigation changes it)
/** @type {string | null} */
let inFlight = null;

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

// ---------------------------------------------------------------- every page

function onPage() {
  shownPath = location.pathname;
  closePreview(false); // a new page: its links are other links
  markPreviewLinks();
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
