// The site's service worker: the rules, their search and the calculators keep
// working with the network gone. hooks/offline.py fills in OFFLINE (the exact
// file list and versions of this build) and writes this file to the site root,
// so its scope covers every page.
//
// - Install: precache the pages, assets, search index and rules.json of this
//   build (a few MB) in "<prefix>pages-<build digest>".
// - The Pyodide runtime (about 33 MB in pyodide/<version>-<digest>/) is cached
//   on first use, not at install: a reader who never opens a calculator page
//   should not pay for it on a phone plan. The first request for any runtime
//   file (or a message from a page that has a calculator) caches the whole
//   folder in the background, so every boot path (snapshot or fresh) works
//   offline afterwards. Runtime files are immutable by folder name: served
//   cache-first from "<prefix>runtime-<folder>", which survives page-only
//   deployments.
// - Activate: delete this site's caches of other builds, claim open pages.
// - Navigations and HTML: network first (fresh rules when online), cache
//   when the network fails or is slower than NAVIGATION_TIMEOUT_MS.
// - Precached assets: cache first (they belong to this build's cache).
/* global OFFLINE */

const PREFIX = OFFLINE.prefix;
const PAGES_CACHE = `${PREFIX}pages-${OFFLINE.digest}`;
const RUNTIME_CACHE = `${PREFIX}runtime-${OFFLINE.runtimeDigest}`;
const NAVIGATION_TIMEOUT_MS = 5000;
const scope = new URL("./", self.location.href);
const url = (path) => new URL(path, scope).href;
const precached = new Set(OFFLINE.precache.map(url));
const runtimeBase = url(OFFLINE.runtime);
const runtimeFiles = OFFLINE.runtimeFiles.map((name) => runtimeBase + name);
const inFlight = new Map(); // runtime URL -> Promise<Response>, so no file is fetched twice at once
let runtimeFill = null;

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(PAGES_CACHE);
    // "reload" skips the HTTP cache: the precache must be this build's files.
    await cache.addAll(OFFLINE.precache.map((path) => new Request(url(path), { cache: "reload" })));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    const keep = new Set([PAGES_CACHE, RUNTIME_CACHE]);
    for (const name of await caches.keys()) {
      if (name.startsWith(PREFIX) && !keep.has(name)) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("message", (event) => {
  if (event.data && event.data.type === "cache-runtime") event.waitUntil(fillRuntime());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || !request.url.startsWith(scope.href)) return;
  const address = new URL(request.url);
  const bare = address.origin + address.pathname;
  if (bare.startsWith(runtimeBase)) {
    event.respondWith(runtimeFile(bare));
    event.waitUntil(fillRuntime());
  } else if (request.mode === "navigate" || isPage(address)) {
    event.respondWith(networkFirst(request, pageKey(address)));
  } else if (precached.has(bare)) {
    event.respondWith(cacheFirst(request, bare));
  } else {
    event.respondWith(networkFirst(request, null));
  }
});

// ---------------------------------------------------------------- strategies

function isPage(address) {
  return address.pathname.endsWith("/") || address.pathname.endsWith(".html");
}

function pageKey(address) {
  // Pages are precached as their folder URL, e.g. tell-tale/combat/.
  const path = address.pathname.replace(/index\.html$/, "");
  return address.origin + path;
}

async function fromCache(key) {
  return key && (await caches.match(key, { ignoreSearch: true }));
}

async function networkFirst(request, key) {
  const network = fetch(request);
  const fallback = new Promise((resolve) => setTimeout(resolve, NAVIGATION_TIMEOUT_MS));
  try {
    const response = await Promise.race([network, fallback.then(() => null)]);
    if (response) return response;
    const cached = await fromCache(key || request.url);
    return cached || (await network); // slow but nothing cached: keep waiting
  } catch (err) {
    const cached = await fromCache(key || request.url);
    if (cached) return cached;
    throw err;
  }
}

async function cacheFirst(request, key) {
  return (await fromCache(key)) || fetch(request);
}

async function runtimeFile(bare) {
  const cache = await caches.open(RUNTIME_CACHE);
  const cached = await cache.match(bare);
  if (cached) return cached;
  const failed = await fetchRuntime(cache, bare);
  return failed ? failed.clone() : cache.match(bare);
}

// Fetches one runtime file into the cache. Resolves to null when it is
// stored, or to the response when it was not a whole, good answer (a 206 or
// an error must not stick forever).
function fetchRuntime(cache, bare) {
  if (!inFlight.has(bare)) {
    const job = fetch(bare, { cache: "no-cache" }).then(async (response) => {
      if (response.status !== 200) return response;
      await cache.put(bare, response);
      return null;
    }).finally(() => inFlight.delete(bare));
    inFlight.set(bare, job);
  }
  return inFlight.get(bare);
}

function fillRuntime() {
  // One file at a time in the background, skipping what is cached or on its way.
  runtimeFill ??= (async () => {
    const cache = await caches.open(RUNTIME_CACHE);
    for (const file of runtimeFiles) {
      if (await cache.match(file)) continue;
      try {
        await fetchRuntime(cache, file);
      } catch {
        runtimeFill = null; // offline half-way: try again on the next use
        return;
      }
    }
  })();
  return runtimeFill;
}
