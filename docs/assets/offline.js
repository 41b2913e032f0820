// Offline use: registers the site's service worker (sw.js at the site root,
// written by hooks/offline.py) and, on a page with a calculator, asks it to
// keep the calculator runtime for offline use. Never throws: without a
// service worker the site simply needs the network, as before.
//
// Also the site's root address, for the other modules (rules.js).

/** The site's root, from Material's config (kept from the first page loaded). */
export function siteBase() {
  const config = document.getElementById("__config");
  const base = config ? JSON.parse(config.textContent).base : ".";
  return new URL(base.replace(/\/?$/, "/"), location.href);
}

async function keepRuntimeIfNeeded() {
  if (!document.querySelector("form[data-calculator]")) return;
  const registration = await navigator.serviceWorker.ready;
  if (registration.active) registration.active.postMessage({ type: "cache-runtime" });
}

async function register() {
  if (!("serviceWorker" in navigator) || !/^https?:$/.test(location.protocol)) return;
  const base = siteBase();
  await navigator.serviceWorker.register(new URL("sw.js", base), { scope: base.pathname });
  if (typeof document$ !== "undefined") document$.subscribe(() => keepRuntimeIfNeeded().catch(() => {}));
  else await keepRuntimeIfNeeded();
}

try {
  register().catch((err) => console.warn("Offline use is not available:", err.message));
} catch (err) {
  console.warn("Offline use is not available:", err && err.message);
}
