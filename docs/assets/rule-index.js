// A rule index page ({{ rule-index tt }}) gets a working filter box (rule-lookup.js
// sets it up on every page). Without script the box stays hidden and the whole
// index shows. Nothing typed is ever parsed as HTML.

const ANNOUNCE_AFTER_MS = 400; // let the typing pause before a screen reader reads the count

/**
 * Lowercase words joined by single spaces: "tt.combat.Attack-table" -> "tt combat attack table".
 * @param {string} text
 */
function words(text) {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim();
}

/** @param {Element} root */
export function setUpIndex(root) {
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
