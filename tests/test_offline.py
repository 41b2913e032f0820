"""Offline use (issue 7): after one visit the rules, search and calculators
work with the network gone, and a new build replaces the old caches."""

from __future__ import annotations

import hashlib
import json
import shutil

import pytest

from conftest import load_module, serve
from helpers import calculator_page, poll, wait_until_offline_ready, worker_data

pytestmark = pytest.mark.browser
BOOT = 60_000


def test_the_worker_lists_exactly_this_build(site):
    data = worker_data(site)
    assert "tell-tale/combat/" in data["precache"] and "search/search_index.json" in data["precache"]
    assert "manifest.webmanifest" in data["precache"]
    for url in data["precache"]:
        path, _, version = url.partition("?v=")
        file = site / (path + "index.html" if path.endswith("/") else path)
        assert file.is_file() or url == "./", url
        if version:  # a script or stylesheet, addressed by its content and served from the cache first
            assert hashlib.sha256(file.read_bytes()).hexdigest()[:10] == version, url
            assert url in data["immutable"]
    assert {"assets/rules.js", "assets/rules.css", "assets/offline.js", "assets/calc-runtime.js"} <= {
        url.split("?v=")[0] for url in data["immutable"]}
    assert "search/search_index.json" not in data["immutable"]  # asked of the network first
    runtime = site / data["runtime"]
    # Every runtime file the browser may fetch, with the digest the worker checks.
    assert sorted(p.name for p in runtime.iterdir()) == sorted([*data["runtimeFiles"], "manifest.json"])
    for name, digest in data["runtimeFiles"].items():
        assert hashlib.sha256((runtime / name).read_bytes()).hexdigest() == digest, name
    assert not [u for u in data["precache"] if u.startswith("pyodide/") or u.endswith(".map")]
    manifest = json.loads((site / "manifest.webmanifest").read_text())
    assert manifest["display"] == "standalone" and not manifest["start_url"].startswith(("/", "http"))
    assert all((site / icon["src"]).is_file() for icon in manifest["icons"])


def test_calculators_and_pages_work_offline_after_one_visit(browser, site, base_url):
    first = calculator_page(site, "tell_tale.resolve_attack")
    second = calculator_page(site, "talislanta.resolve_action")
    if not first or not second:
        pytest.skip("the calculators are not embedded in the pages yet")
    data = worker_data(site)
    context = browser.new_context()
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(base_url + first)
    page.wait_for_function("() => globalThis.__calcRuntime && globalThis.__calcRuntime.status === 'ready'", timeout=BOOT)
    wait_until_offline_ready(page, data)

    context.set_offline(True)
    page.reload()
    form = page.locator('form[data-calculator="tell_tale.resolve_attack"]')
    form.locator("[name=power]").fill("5")
    form.locator("[name=d20]").fill("17")
    form.locator('.calc-result[data-outcome="full"]').wait_for(timeout=BOOT)

    page.goto(base_url + second)  # a full navigation, answered by the worker
    form = page.locator('form[data-calculator="talislanta.resolve_action"]')
    form.locator("[name=rating]").fill("9")
    form.locator("[name=opposing_rating]").fill("7")
    form.locator("[name=d20]").fill("10")
    form.locator("[data-outcome]").wait_for(timeout=BOOT)
    assert form.locator(".calc-headline").text_content()

    # Search works offline too: its index and worker come from the cache.
    page.goto(base_url)
    page.locator(".md-search__input").press_sequentially("attack")  # Material listens for keys
    page.locator(".md-search-result__item").first.wait_for(timeout=20_000)
    assert not errors
    context.close()


def test_a_new_build_replaces_the_old_cache(browser, site, tmp_path):
    """Deploy a copy of the site, visit it, deploy a changed build: the new
    worker takes over, deletes the old pages cache, keeps the runtime cache
    (same runtime folder) and serves the new pages offline."""
    deployed = tmp_path / "site"
    shutil.copytree(site, deployed, ignore=shutil.ignore_patterns("pyodide"))
    (deployed / "pyodide").symlink_to(site / "pyodide", target_is_directory=True)
    old = worker_data(deployed)
    server, url = serve(deployed)
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(url)
        page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=BOOT)
        # Fill the runtime cache without booting a calculator.
        page.evaluate("() => navigator.serviceWorker.controller.postMessage({type: 'cache-runtime'})")
        wait_until_offline_ready(page, old)

        # The next build: one page changed; the hook writes a new worker.
        index = deployed / "index.html"
        index.write_text(index.read_text(encoding="utf-8").replace("</article>", "<p id=new-build>New build.</p></article>", 1), encoding="utf-8")
        versioned = {url.split("?")[0]: url for url in old["precache"] if "?v=" in url}
        load_module("hooks/offline.py").write_worker(deployed, old["runtime"], versioned)
        new = worker_data(deployed)
        assert new["digest"] != old["digest"] and new["runtimeDigest"] == old["runtimeDigest"]

        page.evaluate("() => navigator.serviceWorker.getRegistration().then((r) => r.update())")
        names = poll(
            page,
            """async (fresh) => { const k = await caches.keys(); return k.includes(fresh) && !k.some((n) => n.includes("-pages-") && n !== fresh) && k; }""",
            new["prefix"] + "pages-" + new["digest"],
        )
        assert sorted(names) == sorted([new["prefix"] + "pages-" + new["digest"], new["prefix"] + "runtime-" + new["runtimeDigest"]])

        context.set_offline(True)
        page.reload()
        assert page.locator("#new-build").count() == 1
    finally:
        context.close()
        server.shutdown()
        server.server_close()


def test_an_unknown_address_offline_shows_the_sites_404_page(browser, site, base_url):
    data = worker_data(site)
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(base_url)
        page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=BOOT)
        poll(page, "async ([name, n]) => (await caches.has(name)) && (await (await caches.open(name)).keys()).length === n",
             [data["prefix"] + "pages-" + data["digest"], len(data["precache"])])
        context.set_offline(True)
        response = page.goto(base_url + "no/such/page/?calc=x#y")
        assert response.status == 404
        assert page.locator(".md-content h1").text_content() == "404 - Not found"
        assert page.locator(".md-header__title").is_visible()  # the site's own page, styled, not the browser's
        assert page.evaluate("() => getComputedStyle(document.querySelector('.md-header')).position") == "sticky"  # Material's stylesheet, from the cache
    finally:
        context.close()
