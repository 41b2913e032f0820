// A link copied or shared: the rule IDs' copy buttons, a result's Share button, the settings' and the roll
// log's links. The copy says so on the button that asked for it.

/** Copy `text`, and say so on `button` (`done`: what it says for a moment).
 * @typedef {(text: string, button: HTMLElement, done?: string) => Promise<void>} CopyText */

/** @param {string} text @param {HTMLElement} button @param {string} [done] @returns {Promise<void>} */
export async function copyText(text, button, done = "Link copied") {
  let copied = false;
  try {
    await navigator.clipboard.writeText(text);
    copied = true;
  } catch {
    // No clipboard API outside a secure context (a LAN over http): copy the old way.
    const area = Object.assign(document.createElement("textarea"), { value: text, readOnly: true });
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.append(area);
    area.select();
    copied = document.execCommand("copy");
    area.remove();
  }
  if (!copied) {
    window.prompt("Copy this link:", text);
    return;
  }
  // Say it on the button itself: seen, and read out by screen readers.
  const label = button.textContent;
  const name = button.getAttribute("aria-label");
  button.dataset.copied = "true";
  button.textContent = done;
  if (name) button.setAttribute("aria-label", done);
  setTimeout(() => {
    delete button.dataset.copied;
    button.textContent = label;
    if (name) button.setAttribute("aria-label", name);
  }, 1500);
}

/** Whether a result's link goes to the system share sheet: a phone's (a touch screen with navigator.share). */
export const canShare = () => typeof navigator.share === "function" && matchMedia("(pointer: coarse)").matches;

/** A result's link, shared: the system share sheet where there is one (canShare), Copy where not or where the
 * sheet fails; a sheet closed unshared is left at that.
 * @param {string} url @param {HTMLElement} button */
export async function shareLink(url, button) {
  if (canShare()) {
    try {
      await navigator.share({ title: document.title, url });
      return;
    } catch (err) {
      if (/** @type {Error} */ (err).name === "AbortError") return; // the sheet closed: nothing asked to be copied
    }
  }
  await copyText(url, button);
}
