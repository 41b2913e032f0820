// On paper, the address the page was printed from. The build writes the
// page's address on the deployed site (SITE_URL) into its print footer and a
// GM screen's footer, with a QR code of it (rulebook/site/gm_screens.py,
// print_footer.py); a site copied to another host, or opened by another
// name on the LAN, would print an address that leads nowhere. So, as the
// page prints, the footers say the page's own address, and a GM screen's QR
// code is drawn again for it with lean-qr (the npm package; the build copies
// it into the site: rulebook/site/qr_library.py). A code that cannot be
// drawn is left out rather than printed for the wrong address.
//
// One lifetime per page: the print listener ends when Material swaps the
// page (dom.js pageSignal).

import { pageSignal } from "./dom.js";
import { siteBase } from "./offline.js";

/** lean-qr's module, as far as this script uses it: a code's modules, `size` a side.
 * @typedef {{generate: (text: string, options?: {minCorrectionLevel?: number}) => {size: number, get: (x: number, y: number) => boolean},
 *   correction: Record<string, number>}} LeanQr */

const SVG = "http://www.w3.org/2000/svg";
const BORDER = 2; // modules of white around the code, as the build's (segno's border=2)

/** The page's address as the build writes it: where it is, without a query or a fragment. */
function here() {
  return location.origin + location.pathname;
}

/** A QR code of `text` as an SVG element: one path of the dark modules, drawn with DOM calls (the players'
 * phones' codes too: encounter-phones.js).
 * @param {LeanQr} qr @param {string} text @param {string} [className] @returns {SVGSVGElement} */
export function qrSvg(qr, text, className = "gm-qr-code") {
  const code = qr.generate(text, { minCorrectionLevel: qr.correction.M });
  const parts = [];
  for (let y = 0; y < code.size; y++) {
    for (let x = 0; x < code.size; x++) if (code.get(x, y)) parts.push(`M${x + BORDER} ${y + BORDER}h1v1h-1z`);
  }
  const side = code.size + 2 * BORDER;
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `0 0 ${side} ${side}`);
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("class", className);
  svg.dataset.modules = String(code.size);
  const light = document.createElementNS(SVG, "rect");
  light.setAttribute("width", String(side));
  light.setAttribute("height", String(side));
  light.setAttribute("fill", "#fff");
  const dark = document.createElementNS(SVG, "path");
  dark.setAttribute("d", parts.join(""));
  dark.setAttribute("fill", "#000");
  svg.append(light, dark);
  return svg;
}

/** Hang this page's print listener, for as long as the page is shown. */
export function setUpPrintAddress() {
  const signal = pageSignal();
  const addresses = [.../** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll(".print-address, .gm-site"))];
  const box = /** @type {HTMLElement | null} */ (document.querySelector(".gm-qr[data-qr-module]"));
  if (!addresses.length && !box) return;
  /** @type {LeanQr | null} */
  let qr = null;
  if (box?.dataset.qrModule && box.dataset.qrFor !== here()) {
    // Asked now, so it is there when the page prints: beforeprint cannot wait for it.
    import(new URL(box.dataset.qrModule, siteBase()).href)
      .then((/** @type {LeanQr} */ module) => {
        qr = module;
        box.dataset.qrReady = "true"; // ready to draw the page's own code when it prints
      })
      .catch(() => {});
  }
  addEventListener("beforeprint", () => {
    const address = here();
    for (const shown of addresses) shown.textContent = address;
    if (!box || box.dataset.qrFor === address) return;
    box.replaceChildren();
    box.removeAttribute("aria-label");
    box.removeAttribute("role");
    if (!qr) return; // not loaded (offline, or printed at once): no code rather than the wrong one
    box.append(qrSvg(qr, address));
    box.dataset.qrFor = address;
    box.setAttribute("role", "img");
    box.setAttribute("aria-label", `QR code of ${address}`);
  }, { signal });
}
