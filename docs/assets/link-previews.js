// Link previews (rule-lookup.js sets them up once; the page in view closes an
// open one). A rule or term link of the page's text, when touched, first shows
// a preview of its rule (title, game and ID, first sentences, "Go to rule", a
// close button); a second tap, or "Go to rule", follows it. With a mouse the
// preview shows on hover, from the keyboard on focus, and a click follows the
// link at once. Everything comes from rule-previews.json, which the service
// worker keeps: no page is fetched, and it works offline and at any address
// (a link is matched by its path under the site's root, never by SITE_URL).
//
// The other links of the text to the site's pages show, on hover and from
// the keyboard, the heading they lead to and its first paragraphs, read as
// text from the page (fetched, or the service worker's copy offline; parsed,
// never shown as HTML); a tap follows them at once. A dotted line marks every
// link of the text that has a preview (markPreviewLinks, on each page).
//
// These are the site's only previews: Material's (navigation.instant.preview,
// and its data-preview links) are off in mkdocs.yml. They showed only when
// the sitemap named the serving address (they compare the origin and port
// with SITE_URL's), never offline, and on hover only, which a phone has not.

import { button, el } from "./dom.js";
import { BASE, ruleIdOf, ruleOf, whenKnown } from "./rule-data.js";

/**
 * A link that has a preview: a rule or term link (its rule's ID), or a link
 * to a page of the site or a section of one (its URL).
 * @typedef {{link: HTMLAnchorElement, id: string, page?: undefined} | {link: HTMLAnchorElement, id?: undefined, page: URL}} PreviewLink
 */
/** @typedef {{title: string, meta: string, text: string, go: string}} PreviewContent what a preview shows */

const NOT_PREVIEWED = ".headerlink, .rule-id, .rule-index-list, .md-search-result, .rule-preview";
const NO_PAGE_PREVIEW = "form, [data-tracker], [download]"; // a form's or a tracker's links: its settings, its log
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
  // A page of the site (a folder's index.html, or a page's own .html) or a section of one, not this very page.
  if (!/(?:\/|\.html)$/.test(url.pathname) || link.closest(NO_PAGE_PREVIEW) || (url.pathname === location.pathname && !url.hash)) return null;
  return { link, page: url };
}

/** Mark the links of the page's text that have a preview (a dotted line under each, rule-lookup.css). */
export function markPreviewLinks() {
  for (const link of document.querySelectorAll(".md-content a[href]")) link.classList.toggle("has-preview", previewLinkOf(link) !== null);
}

/** @returns {HTMLElement} */
function previewBox() {
  if (preview.box?.isConnected) return preview.box;
  const go = el("a", { class: "rule-preview-go", text: "Go to rule" });
  go.addEventListener("click", () => closePreview(false)); // the link itself goes on
  const close = button("×", () => closePreview(true), { class: "rule-preview-close", "aria-label": "Close the preview" });
  const box = el("div", { class: "rule-preview", id: "rule-preview", hidden: true, tabindex: -1, role: "dialog",
    "aria-labelledby": "rule-preview-title", "aria-describedby": "rule-preview-text" },
    el("p", { class: "rule-preview-title", id: "rule-preview-title" }), el("p", { class: "rule-preview-meta" }),
    el("p", { class: "rule-preview-text", id: "rule-preview-text" }), go, close);
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
    // Nothing the screen hides (the print footer, rulebook/site/print_footer.py, is a hidden paragraph).
    if (part?.matches("p:not(.rule-id), .admonition, blockquote, ul, ol") && !part.closest("[hidden]")) text += (text ? " " : "") + textOf(part);
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
export function closePreview(giveFocusBack) {
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

export function setUpPreviews() {
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
}
