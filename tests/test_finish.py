"""The site finished in one step after any generator: `python -m rulebook.site finish`.

MkDocs's build calls the step from hooks/finish.py. The same step run as a
command on the pages MkDocs wrote without that hook must give the very same
site, file by file: the step takes everything from the built folder and
docs/, nothing from MkDocs. It refuses, in one sentence and exit status 2,
what it cannot finish, and it writes nothing then.

One MkDocs build without that hook serves the module: the step's own test,
the build's warnings, and the deploy (after a deploy, a returning
visitor runs the new build's scripts with the new build's pages, never the
old ones with the new; nor does a page left open across the deploy when it
follows a link), whose new build is that build with two scripts changed,
finished.
"""

from __future__ import annotations

import datetime
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from support import ROOT
from support.helpers import BOOT, poll, wait_until_offline_ready, worker_data
from support.server import serve

FINISH = [sys.executable, "-m", "rulebook.site", "finish"]
POLICY = b'<meta http-equiv="Content-Security-Policy"'  # a finished page's, written by the finishing step alone


@dataclass(frozen=True)
class Unfinished:
    """MkDocs's build of the site without the finish hook (what any generator writes), and what MkDocs printed."""

    site: Path
    said: str


def built_on_its_day(site: Path) -> dict[str, str]:
    """The environment for a build that must give `site` byte for byte: MkDocs stamps its sitemap with the day it
    builds on, so a run that crosses midnight would differ there alone; SOURCE_DATE_EPOCH gives it `site`'s day."""
    day = re.search(r"<lastmod>(\d{4}-\d{2}-\d{2})<", (site / "sitemap.xml").read_text(encoding="utf-8"))
    assert day, "the built site's sitemap says its day"
    noon = datetime.datetime.fromisoformat(day.group(1) + "T12:00:00+00:00")
    return dict(os.environ, NO_MKDOCS_2_WARNING="1", SOURCE_DATE_EPOCH=str(int(noon.timestamp())))


@pytest.fixture(scope="module")
def unfinished(tmp_path_factory, site) -> Unfinished:
    """One strict build for this module's tests: the finishing step's, the build's own warnings, and the deploy's
    new build (each a full MkDocs build of its own before: three builds where one does)."""
    out = tmp_path_factory.mktemp("unfinished") / "site"
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert re.search(r"^  - hooks/finish\.py", config, flags=re.M), "mkdocs.yml names hooks/finish.py"
    config = re.sub(r"^  - hooks/finish\.py.*\n", "", config, flags=re.M)
    config = config.replace("hooks/", f"{ROOT}/hooks/").replace("custom_dir: overrides", f"custom_dir: {ROOT}/overrides")
    cfg = out.parent / "mkdocs-unfinished.yml"
    cfg.write_text(f"docs_dir: {ROOT}/docs\n" + config, encoding="utf-8")
    env = built_on_its_day(site)
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(cfg), "-d", str(out)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return Unfinished(out, done.stderr)


def finish(site: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([*FINISH, str(site), *args], cwd=ROOT, capture_output=True, text=True, timeout=600)


def files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.site  # builds the whole site, the calculators' runtime too (Node, when they changed)
def test_the_build_is_strict_and_clean(unfinished):
    """No warning at all, not even below --strict's: a broken link or anchor fails the build. (`make test`'s
    own build is strict too; this holds for a bare pytest on a site built earlier.)"""
    assert "WARNING" not in unfinished.said, unfinished.said[-3000:]


def test_the_command_after_a_generator_gives_the_site_the_hook_gives(site, unfinished, tmp_path):
    out = tmp_path / "site"
    shutil.copytree(unfinished.site, out)
    before = files(out)
    assert not (out / "rules.json").exists() and not (out / "sw.js").exists() and not (out / "r").exists()
    assert not any(POLICY in data for name, data in before.items() if name.endswith(".html"))

    done = finish(out)
    assert done.returncode == 0, done.stderr
    assert "WARNING" not in done.stderr, done.stderr
    ours, hooked = files(out), files(site)
    assert sorted(ours) == sorted(hooked)
    differ = [name for name in ours if ours[name] != hooked[name] and not name.endswith(".gz")]  # gzip stamps its time
    assert differ == []
    assert all(data.count(POLICY) == 1 for name, data in ours.items() if name.endswith(".html") and not name.startswith("r/"))

    # A site is finished once: the second run refuses, and changes nothing.
    again = finish(out)
    assert again.returncode == 2 and again.stdout == ""
    assert "has a content security policy already" in again.stderr and "finished once" in again.stderr
    assert "Traceback" not in again.stderr
    assert files(out) == ours


@pytest.mark.parametrize("args,said", [
    (["no-such-folder"], "holds no built page"),
    (["--config", "no-such.yml", "site"], "cannot be read"),
], ids=["no site", "no settings"])
def test_what_cannot_be_finished_is_one_sentence(tmp_path, args, said):
    done = subprocess.run([*FINISH, *args], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and said in done.stderr and "Traceback" not in done.stderr
    assert done.stderr.count("\n") == 1


GENERATOR_TAG = re.compile(rb'<meta name="generator" content="[^"]*">')


def test_properdocs_builds_the_same_site_but_for_its_name(site, tmp_path):
    """ProperDocs, the maintained fork of MkDocs 1.6 (make build GENERATOR=properdocs), runs the same hooks and
    the same finishing step: the same files, byte for byte, but for the generator's <meta> in each page and the
    service worker's build digest, which hashes the pages."""
    out = tmp_path / "site"
    env = built_on_its_day(site)
    done = subprocess.run([str(Path(sys.executable).with_name("properdocs")), "build", "--strict", "-q", "-f", "mkdocs.yml", "-d", str(out)],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    ours, theirs = files(site), files(out)
    assert sorted(ours) == sorted(theirs)
    assert b"ProperDocs" in GENERATOR_TAG.search(theirs["index.html"]).group(0)
    differ = [name for name in ours if ours[name] != theirs[name]
              and not name.endswith(".gz")  # gzip stamps its time
              and GENERATOR_TAG.sub(b"", ours[name]) != GENERATOR_TAG.sub(b"", theirs[name])]
    assert differ == ["sw.js"]
    digest = re.compile(rb'"digest": "[0-9a-f]+"')
    assert digest.sub(b"", ours["sw.js"]) == digest.sub(b"", theirs["sw.js"])


# ---------------------------------------------------------------- deploys

ATTACK_PAGE = "tell-tale/combat/"


def deployed_anew(unfinished: Unfinished, tmp_path: Path, marker: str) -> Path:
    """A new build of the site whose page-start.js and house-rules.js (imported by calc-form.js, which page-start.js imports)
    say which build they are:
    the generator's pages of docs/ with those two scripts changed, as it copies them, then finished."""
    docs, out = tmp_path / f"docs-{marker}", tmp_path / f"site-{marker}"
    shutil.copytree(ROOT / "docs", docs)
    shutil.copytree(unfinished.site, out)
    for name, variable in [("page-start.js", "__startBuild"), ("house-rules.js", "__tableBuild")]:
        for folder in (docs, out):
            path = folder / "assets" / name
            path.write_text(path.read_text(encoding="utf-8") + f'\nglobalThis.{variable} = "{marker}";\n', encoding="utf-8")
    done = finish(out, "--docs", str(docs))
    assert done.returncode == 0, done.stderr
    return out


@pytest.mark.browser
def test_after_a_deploy_a_returning_visitor_never_mixes_two_builds(browser, site, unfinished, tmp_path):
    # The old build is the site under test, whose scripts say no build; the
    # new one is built from the same pages with scripts that say "new".
    old, new = site, deployed_anew(unfinished, tmp_path, "new")
    old_data, new_data = worker_data(old), worker_data(new)
    assert old_data["runtime"] == new_data["runtime"]  # only the page scripts changed
    deployed = tmp_path / "deployed"
    shutil.copytree(old, deployed)
    server, url = serve(deployed)
    ctx = browser.new_context(service_workers="allow")
    seen = "() => [globalThis.__startBuild, globalThis.__tableBuild, document.querySelector('script[src*=\"assets/page-start.js\"]').getAttribute('src')]"
    rules_of = lambda data: next(u for u in data["precache"] if u.startswith("assets/page-start.js"))  # noqa: E731
    try:
        page = ctx.new_page()
        page.goto(url + ATTACK_PAGE)
        wait_until_offline_ready(page, old_data)  # pages and runtime: the old worker is idle
        rules, table, src = page.evaluate(seen)
        assert (rules, table) == (None, None) and src.endswith(rules_of(old_data))

        # The deploy: the host now serves the new build at the same address.
        shutil.rmtree(deployed)
        shutil.copytree(new, deployed)

        # The page still open follows a link: the worker answers from its own
        # build's cache at once, so instant navigation swaps in a page of the
        # old build, run by the old scripts: no mix, and no reload.
        follow = "url => { window.__sameDocument = true; const a = document.createElement('a'); a.href = url; document.querySelector('.md-content').append(a); a.click(); }"
        page.evaluate(follow, url + "tell-tale/keywords/")
        page.wait_for_function("() => document.title.startsWith('Keywords')", timeout=BOOT)
        assert page.evaluate("() => window.__sameDocument") is True
        rules, table, src = page.evaluate(seen)
        assert (rules, table) == (None, None) and src.endswith(rules_of(old_data))

        # That page asked the worker for its update: the new build's worker
        # installs in the background and takes over, with the new build whole.
        fresh = new_data["prefix"] + "pages-" + new_data["digest"]
        poll(page, "async (fresh) => (await caches.keys()).includes(fresh) && !(await caches.keys()).some((k) => k.includes('-pages-') && k !== fresh)", fresh)
        # ...and done with it: active, nothing installing, its precache whole. Chromium may still install the
        # same worker once more as the page goes offline; that install, failing, once emptied the cache in use
        # (net::ERR_FAILED here, 4 runs in 10 under load): test_offline.py's install cut short.
        wait_until_offline_ready(page, new_data)
        poll(page, "async () => { const r = await navigator.serviceWorker.getRegistration(); return r?.active?.state === 'activated' && !r.installing && !r.waiting; }")

        # The next link brings a page of the new build: loaded afresh rather
        # than run the old scripts on it.
        page.evaluate(follow, url + ATTACK_PAGE)
        page.wait_for_function("() => window.__sameDocument === undefined && globalThis.__startBuild", timeout=BOOT)
        rules, table, src = page.evaluate(seen)
        assert (rules, table) == ("new", "new") and src.endswith(rules_of(new_data))
        assert page.url == url + ATTACK_PAGE

        # The returning visit: the new page with its own scripts.
        page.goto(url + "tell-tale/keywords/")
        page.wait_for_load_state("load")
        rules, table, src = page.evaluate(seen)
        assert (rules, table) == ("new", "new") and src.endswith(rules_of(new_data))

        # Offline, the new build too.
        ctx.set_offline(True)
        page.reload()
        rules, table, src = page.evaluate(seen)
        assert (rules, table) == ("new", "new") and src.endswith(rules_of(new_data))
    finally:
        ctx.close()
        server.shutdown()
        server.server_close()


def test_the_policy_and_the_asset_build_go_right_after_the_charset_before_any_script(tmp_path):
    """The finishing step writes a page's policy once, from its one reading: after <meta charset>, hashing the
    page's inline script; a page without a charset meta tag, or with a policy already, is refused."""
    from rulebook.site import built, csp
    from rulebook.site.errors import SiteError

    path = tmp_path / "index.html"
    page = built.Page(path, "index.html", "", '<html><head><meta charset="utf-8"><script>go()</script></head></html>')
    built.read(page, {})
    state = csp.CspState(serving=False)
    csp.collect(page, state)
    csp.write(tmp_path, [page], state, "/", "b1d")
    written = path.read_text(encoding="utf-8")
    assert written.startswith('<html><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="')
    assert written.index('<meta name="asset-build" content="b1d">') < written.index("<script>go()</script>")
    assert csp.script_hash("go()").replace("'", "&#39;") in written
    again = built.Page(path, "index.html", "", written)
    built.read(again, {})
    with pytest.raises(SiteError, match="finished once"):
        csp.collect(again, state)
    bare = built.Page(path, "index.html", "", "<html><head><script>go()</script></head></html>")
    built.read(bare, {})
    with pytest.raises(SiteError, match="no charset meta tag"):
        csp.collect(bare, state)


def test_the_finishing_step_writes_where_its_one_reading_of_a_page_found_each_place():
    """The places the step writes into (Material's config, a GM screen line's words, the article's end) come from the
    page's one reading, and `apply` makes every edit at the reading's offsets; a line with words already is refused."""
    from rulebook.site import built
    from rulebook.site.errors import SiteError

    span = '<span class="gm-text" data-gm-text="tt.x" data-gm-form="short"></span>'
    config = '{"search":"w/search.0123abcd.min.js"}'
    html = (f'<head><meta charset="utf-8"><script id="__config" type="application/json">{config}</script></head>'
            f"<body><article><ul><li>{span}</li></ul></article><footer>x</footer></body>")
    page = built.page_of(html, "a/index.html")
    assert page.config and html[slice(*page.config)] == config
    ((start, end, rid, form),) = page.gm_texts
    assert (html[start:end], rid, form) == (span, "tt.x", "short")
    assert html[page.article_end:].startswith("</article><footer>") and not page.gm_footer
    edits = [(page.article_end, page.article_end, "<p>end</p>"), (start, end, "<b>words</b>"), (*page.config, "{}")]
    assert built.apply(html, edits) == html.replace(span, "<b>words</b>").replace(config, "{}").replace(
        "</article>", "<p>end</p></article>")
    with pytest.raises(SiteError, match=r"tt\.x has words already"):
        built.page_of(html.replace(span, span.replace("></span>", ">said</span>")), "a/index.html")
