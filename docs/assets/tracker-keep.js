// A tracker's keep panel (tracker-shell.js makes one for its tracker): Export
// as a file, Copy as text, Share as a link, Start a new one, Import a file or
// pasted text, Bring back the one put aside, and a line of what each did and
// of how much is kept on this device. What is opened is the shell's to check.

import { button, count, el } from "./dom.js";
import { importFile, pack } from "./tracker-kit.js";

/** @typedef {import("./tracker-shell.js").TrackerShell<any>} Shell the shell the panel belongs to (any tracker's) */
/** What a share link may carry, as Python answers it (runner.link, Tracker.links): the fullest form first, each with
 * the sentence said when it is the one that fits.
 * @typedef {{ok: true, forms: {state: unknown, note: string}[]} | {ok: false, error: string}} LinkForms */

/** `text` as a file in the player's downloads.
 * @param {string} text @param {string} name */
export function download(text, name) {
  const a = el("a", { href: URL.createObjectURL(new Blob([text], { type: "application/json" })), download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
}

/** The keep panel of `shell`: `box`, its element, for the tracker to place; `newButton`, its Start. */
export class KeepPanel {
  /** @param {Shell} shell */
  constructor(shell) {
    this.shell = shell;
    const { noun } = shell.o;
    /** @param {string} suffix */
    const id = (suffix) => `${shell.id}-${suffix}`;
    /** @type {HTMLTextAreaElement} */
    this.paste = el("textarea", { id: id("paste"), rows: "4", spellcheck: "false", "data-keep": "paste" });
    /** @type {HTMLInputElement} */
    this.file = el("input", { id: id("file"), type: "file", accept: ".json,application/json", "data-keep": "file" });
    /** @type {HTMLParagraphElement} */
    this.keepLine = el("p", { class: "tracker-note", role: "status", "data-keep": "keep-status" });
    /** @type {HTMLParagraphElement} */
    this.sizeLine = el("p", { class: "tracker-note", "data-keep": "stored-size" });
    /** @type {HTMLButtonElement} */
    this.exportButton = button("Export as a file", () => this.exportFile(), { "data-keep": "export" });
    /** @type {HTMLButtonElement} */
    this.newButton = button(`Start a new ${noun}`, (event) => shell.startOver(/** @type {HTMLButtonElement} */ (event.currentTarget)), { "data-keep": "new" });
    /** @type {HTMLButtonElement} */
    this.restore = button(`Bring back the ${noun} you had before`, () => shell.bringBack(), { "data-keep": "restore", hidden: true });
    /** @type {HTMLDivElement} */
    this.actions = el("div", { class: "calc-actions" },
      this.exportButton,
      button("Copy as text", (event) => shell.state && shell.o.copyText(JSON.stringify(shell.state), /** @type {HTMLButtonElement} */ (event.currentTarget), "Copied"), { "data-keep": "copy" }),
      button("Share as a link", (event) => this.share(/** @type {HTMLButtonElement} */ (event.currentTarget)), { "data-keep": "share" }),
      this.newButton);
    this.file.addEventListener("change", async () => {
      const file = /** @type {FileList} */ (this.file.files)[0]; // a file input's list is never null
      if (!file) return;
      try {
        await shell.openText(await importFile(file, shell.o.a, shell.max.state), `The file ${file.name}`);
      } catch (err) {
        this.tell(/** @type {Error} */ (err).message, true);
      }
      this.file.value = "";
    });
    this.box = el("div", { class: "tracker-keep" },
      el("p", { class: "tracker-note", text: `The ${noun} is kept on this device as you go. Export it, or share it as a link, to take it elsewhere; what you open in its place is checked first, and yours is put aside to be brought back.` }),
      this.actions,
      el("div", { class: "calc-field" }, el("label", { for: this.file.id, text: "Import a file" }), this.file),
      el("div", { class: "calc-field" }, el("label", { for: this.paste.id, text: `Or paste an exported ${noun}` }), this.paste),
      el("div", { class: "calc-actions" },
        button(`Open the pasted ${noun}`, () => shell.openText(this.paste.value, "The pasted text"), { "data-keep": "open-paste" }),
        this.restore),
      this.keepLine, this.sizeLine);
  }

  /** Whether a copy is put aside (Bring back), and how much is kept. */
  drawKept() {
    this.restore.hidden = !this.shell.record.aside();
    this.sizeLine.textContent = this.shell.record.sizeNote(`this ${this.shell.o.thing}`);
  }

  /** A sentence under the keep panel's controls: what Export, Share or Import did, or why not.
   * @param {string} text */
  tell(text, refused = false) {
    this.keepLine.textContent = text;
    this.keepLine.classList.toggle("calc-error", refused && Boolean(text));
  }

  /** An Export button for a sentence at the top (storage full, say). */
  exportNow(label = "Export it as a file") {
    return button(label, () => this.exportFile(), { "data-keep": "export-now" });
  }

  exportFile() {
    const { state, o } = this.shell;
    if (!state) return this.tell("There is nothing to export yet.", true);
    download(JSON.stringify(state, null, 1), o.fileName(state));
    this.tell("Exported: the file is in your downloads.");
    o.exported?.(state);
  }

  /** @param {HTMLElement} source the button pressed */
  async share(source) {
    const { state, o, max } = this.shell;
    const { noun, link: prefix } = o;
    if (!state) return this.tell("There is nothing to share yet.", true);
    if (typeof CompressionStream === "undefined") return this.tell(`This browser cannot make a link: export the ${noun} as a file instead.`, true);
    const base = `${location.href.split("#")[0]}#${prefix}`;
    // What the link carries is Python's to say: the fullest form that fits.
    const forms = /** @type {LinkForms} */ (await o.computeInWorker(`link:${o.name}`, { state: JSON.stringify(state) })
      .catch((/** @type {Error} */ err) => ({ ok: false, error: `The calculator could not start (${err.message}).` })));
    if (!forms.ok) return this.tell(forms.error, true);
    let link = "";
    let note = "";
    for (const form of forms.forms) {
      link = base + (await pack(JSON.stringify(form.state)));
      note = form.note ? ` ${form.note}` : "";
      if (link.length <= max.link) break;
    }
    if (link.length > max.link) {
      this.tell(`This ${noun} is too big for a link (${count(link.length)} characters; links work up to ${count(max.link)}): export it as a file instead.`, true);
      this.exportButton.focus();
      return;
    }
    o.copyText(link, source, "Link copied");
    this.tell(`The link is copied (${count(link.length)} characters).${note} Opening it shows the ${noun} and asks before it replaces anyone's own.`);
  }
}
