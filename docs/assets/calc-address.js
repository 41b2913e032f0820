// A calculator's values in the page's address: the share link the address
// bar holds. Written once typing pauses, not at every result (calc-form.js asks
// at each result).

/** The address that shows this form (form[data-calculator]) with these values.
 * @param {HTMLFormElement} form @param {Record<string, string>} params @param {string} hash @returns {string} */
export function addressOf(form, params, hash) {
  const query = new URLSearchParams({ calc: form.dataset.calculator ?? "" });
  for (const [key, value] of Object.entries(params)) if (value !== "") query.set(key, value);
  if (form.dataset.seed) query.set("seed", form.dataset.seed);
  return "?" + query.toString() + hash;
}

/** The form's values go into the address once typing pauses this long, not
 * at every result: each address written makes Chromium fetch and draw the
 * page's icon again, which held each answer back (input to shown result,
 * median of 60 changes on a share link, 4 runs: 13.2 ms written at every
 * result, 7.4 ms not). */
const ADDRESS_PAUSE_MS = 400;
/** @type {{ form: HTMLFormElement, params: Record<string, string>, path: string, timer: number } | null} */
let pendingAddress = null;

/** Put the form's values in the address once typing pauses (`now`: at once).
 * @param {HTMLFormElement} form @param {Record<string, string>} params @param {boolean} [now] */
export function writeAddress(form, params, now = false) {
  if (pendingAddress) clearTimeout(pendingAddress.timer);
  pendingAddress = { form, params, path: location.pathname, timer: setTimeout(writePendingAddress, ADDRESS_PAUSE_MS) };
  if (now) writePendingAddress();
}

/** The address waiting to be written, written now: once typing has paused,
 * and before the reader leaves or hides the page (a link followed, the tab
 * switched or closed), so the history entry left behind holds the last
 * values. Never on another page than the form's: the reader may have moved on. */
function writePendingAddress() {
  if (!pendingAddress) return;
  const { form, params, path, timer } = pendingAddress;
  pendingAddress = null;
  clearTimeout(timer);
  if (location.pathname !== path || !form.isConnected) return;
  history.replaceState(history.state, "", addressOf(form, params, location.hash));
}
addEventListener("click", (event) => { if (event.target instanceof Element && event.target.closest("a[href]")) writePendingAddress(); }, { capture: true });
addEventListener("pagehide", writePendingAddress);
document.addEventListener("visibilitychange", () => { if (document.visibilityState === "hidden") writePendingAddress(); });

