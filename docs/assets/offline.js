// Offline use: registers the site's service worker (sw.js at the site root,
// written by rulebook/site/offline.py) and, on a page with a calculator, asks it to
// keep the calculator runtime for offline use. Never throws: without a
// service worker the site simply needs the network, as before.
//
// A page open across a deploy: when Material's instant navigation brings in
// a page of another build (its <meta name="asset-build"> differs), the page
// is loaded afresh, so this build's scripts never run on the other's
// markup. Checked before page-start.js looks at the page: page-start.js imports this
// module, which subscribes first.
//
// Also the site's root address and Material's features, for the other modules.

const build = document.querySelector('meta[name="asset-build"]')?.getAttribute("content");
if (typeof document$ !== "undefined") {
  document$.subscribe(() => {
    const shown = document.querySelector('meta[name="asset-build"]')?.getAttribute("content");
    if (build && shown && shown !== build) location.reload();
  });
}

// Material's config, read once, on the page this module first loaded with:
// Material keeps that page's __config across instant navigation, so its
// relative `base` would point elsewhere from a page at another depth.
/** @type {{base?: string, features?: string[]}} */
const CONFIG = (() => {
  try {
    return JSON.parse(document.getElementById("__config")?.textContent ?? "{}");
  } catch {
    return {};
  }
})();
const SITE_BASE = new URL((CONFIG.base || ".").replace(/\/?$/, "/"), location.href).href;

/** The site's root, from Material's config (kept from the first page loaded). */
export function siteBase() {
  return new URL(SITE_BASE);
}

/** Whether mkdocs.yml turns Material's `feature` on ("navigation.instant"). @param {string} feature */
export function siteFeature(feature) {
  return (CONFIG.features || []).includes(feature);
}

/** Asks the service worker to keep the runtime; once its cache is whole, the
 * calculators' worker keeps there the snapshot it restored from, unpacked, so
 * that the next visit's start skips unpacking it (runtime/sparse-snapshot.mjs). */
async function keepRuntimeIfNeeded() {
  if (!document.querySelector("form[data-calculator]")) return;
  const registration = await navigator.serviceWorker.ready;
  if (!registration.active) return;
  const reply = new MessageChannel();
  reply.port1.onmessage = ({ data }) => {
    reply.port1.close();
    if (data?.type === "runtime-kept") globalThis.__calcRuntime?.worker?.postMessage({ type: "keep-snapshot" });
  };
  registration.active.postMessage({ type: "cache-runtime" }, [reply.port2]);
}

/** On a page opened for its calculator: once its first result is shown (or
 * the calculator gave up) and the browser is idle. Until then the service
 * worker's precache and its copy of the runtime would only take bandwidth
 * and time from the files the result needs. Elsewhere: at once.
 * Material's search index waits for it too (search-start.js). */
export function calculatorSettled() {
  if (!document.querySelector('meta[name="calculator-runtime"]')) return Promise.resolve();
  return /** @type {Promise<void>} */ (new Promise((resolve) => {
    const idle = () => (globalThis.requestIdleCallback ?? ((f) => setTimeout(f, 100)))(() => resolve(), { timeout: 2000 });
    if (globalThis.__calcRuntime?.settledAt != null) idle();
    else addEventListener("calc-runtime-settled", idle, { once: true });
  }));
}

/**
 * A new build's worker takes over as soon as it is installed (skipWaiting in
 * sw.js), so that its caches replace the old build's. Chromium sometimes lets
 * that request lapse when the old worker is busy at the moment, and the new
 * one then waits until every tab is closed: while one waits, ask it again.
 * @param {ServiceWorkerRegistration} registration
 */
function takeOverWhenInstalled(registration) {
  /** @type {ReturnType<typeof setInterval> | null} */
  let timer = null;
  const check = () => {
    if (registration.waiting) registration.waiting.postMessage({ type: "skip-waiting" });
    else if (!registration.installing) {
      clearInterval(/** @type {ReturnType<typeof setInterval>} */ (timer)); // set: check runs on that interval only
      timer = null;
    }
  };
  const watch = () => { timer ??= setInterval(check, 2000); };
  registration.addEventListener("updatefound", watch);
  if (registration.waiting || registration.installing) watch();
}

async function register() {
  if (!("serviceWorker" in navigator) || !/^https?:$/.test(location.protocol)) return;
  const base = siteBase();
  await calculatorSettled();
  const registration = await navigator.serviceWorker.register(new URL("sw.js", base), { scope: base.pathname });
  takeOverWhenInstalled(registration);
  if (typeof document$ !== "undefined") document$.subscribe(() => keepRuntimeIfNeeded().catch(() => {}));
  else await keepRuntimeIfNeeded();
}

try {
  register().catch((err) => console.warn("Offline use is not available:", err.message));
} catch (err) {
  console.warn("Offline use is not available:", err instanceof Error ? err.message : err);
}
