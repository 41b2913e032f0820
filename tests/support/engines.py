"""The three engines a table uses, driven through one small interface: Chromium
(Playwright), WebKitGTK (Selenium and Debian's WebKitWebDriver, under Xvfb) and
Firefox ESR (its own WebDriver BiDi, no geckodriver). tests/test_engines.py
runs the same short set in each; benchmarks/firefox_cold_loads.py uses Firefox.

Nothing is downloaded: each engine is the one installed from Debian (`make
test` installs them where it can, scripts/ensure-engines), and one that is
missing is a skip with its reason (`missing`).

A `Tab` does what the set needs and no more: open an address, reload,
evaluate an expression (its value comes back through JSON), wait until an
expression is truthy (asked again every 100 ms), type into a field as keys,
click. What an engine cannot do is said where it is met, never worked around
silently."""

from __future__ import annotations

import collections
import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import threading
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .browser import CHROMIUM_FLAGS, TEST_ONLY_FLAGS, chromium_path
from .helpers import BOOT

ENGINES = ("chromium", "webkit", "firefox")
WEBKIT_DRIVER = "/usr/bin/WebKitWebDriver"
# The browser WebKitWebDriver starts: WebKitGTK's MiniBrowser, in the package webkit2gtk-driver depends on.
MINIBROWSER = Path("/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser")
FIREFOX = ("firefox-esr", "firefox")
WAIT = BOOT / 1000  # s: what a wait gives the page by default (the suite's boot allowance)
# s: what an engine's driver is given to do one thing between two tests (leave the page, close, answer that it is
# alive) before its processes are killed. Selenium waits for WebKitWebDriver's answer with no limit at all, so a
# driver that stopped answering held a teardown until pytest's 300 s timeout.
CLOSE_WITHIN = 15.0
# s: what a WebKit or Firefox start is given (a few seconds on a quiet machine) before it is killed, and what each
# WebKitWebDriver command is given; both used to wait for ever.
START_WITHIN = WAIT


class EngineError(AssertionError):
    """The page did not do what was waited for, or an engine call failed."""


def firefox_path() -> str | None:
    return os.environ.get("FIREFOX") or next((p for p in map(shutil.which, FIREFOX) if p), None)


def missing(engine: str) -> str | None:
    """Why `engine` cannot run here (None: it can)."""
    if engine == "chromium":
        try:
            import playwright  # noqa: F401
        except ImportError:
            return "Playwright is not installed"
        return None
    if engine == "webkit":
        if not Path(WEBKIT_DRIVER).exists():
            return f"WebKitGTK's WebDriver is not installed ({WEBKIT_DRIVER}; Debian: apt-get install webkit2gtk-driver xvfb)"
        if not os.environ.get("DISPLAY") and not shutil.which("Xvfb"):
            return "WebKitGTK needs a display: no DISPLAY and no Xvfb (Debian: apt-get install xvfb)"
        try:
            import selenium  # noqa: F401
        except ImportError:
            return "Selenium is not installed (pip install -e '.[dev]')"
        return None
    if engine == "firefox":
        if not firefox_path():
            return "Firefox is not installed (Debian: apt-get install firefox-esr)"
        try:
            import websocket  # noqa: F401
        except ImportError:
            return "websocket-client is not installed (pip install -e '.[dev]')"
        return None
    raise ValueError(engine)


def _wrapped(expression: str) -> str:
    """An expression whose value, awaited, comes back as JSON text (undefined as null)."""
    return f"(async () => JSON.stringify((await ({expression})) ?? null))()"


class Tab:
    """One tab of one engine."""

    engine = ""

    def goto(self, url: str) -> None:
        raise NotImplementedError

    def reload(self) -> None:
        raise NotImplementedError

    def _evaluate_json(self, expression: str) -> str:
        raise NotImplementedError

    def type(self, selector: str, text: str) -> None:
        """Replace the field's text, typed key by key."""
        raise NotImplementedError

    def click(self, selector: str) -> None:
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    def eval(self, expression: str) -> Any:
        return json.loads(self._evaluate_json(_wrapped(expression)))

    def wait(self, expression: str, what: str, timeout: float = WAIT, explain: str | None = None) -> Any:
        """The expression's value once it is truthy; an EngineError naming `what` (and the page's last value) at
        `timeout` s, with what `explain` (an expression) says of the page then, and the console's last lines."""
        deadline = time.monotonic() + timeout
        value: Any = None
        while True:
            with contextlib.suppress(EngineError):  # a page between two documents answers nothing for a moment
                value = self.eval(expression)
                if value:
                    return value
            if time.monotonic() > deadline:
                raise EngineError(f"{self.engine}: waited {timeout:.0f} s for {what}; last value {value!r}" + self.explained(explain))
            time.sleep(0.1)

    def wait_moving(self, expression: str, what: str, still: float = WAIT * 2 / 3, most: float = WAIT * 2,
                    explain: str | None = None) -> Any:
        """Waits for work the page does in the background whose pace is the machine's (a service worker filling its
        caches): `expression` gives [done, progress]; the wait ends when done, and fails when progress has not
        changed for `still` s, or at `most` s, with what `explain` says of the page then."""
        start = time.monotonic()
        moved = start
        last: Any = None
        while True:
            with contextlib.suppress(EngineError):  # a page between two documents answers nothing for a moment
                value = self.eval(expression)
                if value and value[0]:
                    return value
                if value and value[1] != last:
                    last, moved = value[1], time.monotonic()
            now = time.monotonic()
            if now - moved > still or now - start > most:
                raise EngineError(f"{self.engine}: waited {now - start:.0f} s for {what}, {now - moved:.0f} s of them with no "
                                  f"change; progress {last!r}" + self.explained(explain))
            time.sleep(0.25)

    def explained(self, explain: str | None) -> str:
        """What `explain` says of the page now (given a few seconds), and the console's last lines, as a failure's tail."""
        said = ""
        if explain:
            try:
                said += "\npage: " + json.dumps(self.eval(f"Promise.race([{explain}, new Promise((done) => setTimeout(() => done('no answer in 5 s'), 5000))])"))
            except EngineError as err:
                said += f"\npage: could not be asked ({err})"
        lines = self.console()
        if lines is not None:
            said += "\nconsole:\n" + "\n".join(lines[-40:])
        return said

    def console(self) -> list[str] | None:
        """The console lines this engine has kept (None: it keeps none)."""
        return None

    def text(self, selector: str) -> str | None:
        return self.eval(f"document.querySelector({json.dumps(selector)})?.textContent ?? null")


def in_time(seconds: float, call) -> tuple[bool, Any]:
    """(whether `call()` returned within `seconds`, what it returned or raised). It runs on a thread of its own, which
    a call that never returns is left to (a daemon: it never holds the process; killing the engine ends its wait)."""
    done = threading.Event()
    outcome: list[Any] = [EngineError("no answer")]

    def run() -> None:
        try:
            outcome[0] = call()
        except Exception as err:  # handed to the caller
            outcome[0] = err
        done.set()

    threading.Thread(target=run, daemon=True).start()
    return done.wait(seconds), outcome[0]


def within(seconds: float, call) -> bool:
    """Whether `call()` returned, without raising, within `seconds` (in_time)."""
    ended, outcome = in_time(seconds, call)
    return ended and not isinstance(outcome, Exception)


def _kill_group(process: subprocess.Popen | None) -> None:
    """Kills `process` and everything it started (its own process group, see `start_new_session`), and reaps it."""
    if process is None:
        return
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    with contextlib.suppress(Exception):
        process.kill()
    process.wait()


class Engine:
    """A running browser of one engine; `tab()` opens a tab in it. `close()` ends it within CLOSE_WITHIN s (the
    driver asked first, its processes killed after), whatever state it is in."""

    name = ""
    hearing = False  # whether a script that records its pages' workers runs in each page (test_engines.py)

    def tab(self) -> Tab:
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    def alive(self) -> bool:
        """Whether the browser still answers (within CLOSE_WITHIN s)."""
        raise NotImplementedError

    def add_init_script(self, source: str) -> bool:
        """Runs `source` in every document opened from now on, before its own scripts; False where the engine's
        driver cannot (WebKitWebDriver has no such command)."""
        return False


# ---------------------------------------------------------------- Chromium (Playwright)


class ChromiumTab(Tab):
    engine = "chromium"

    def __init__(self, page) -> None:
        self.page = page

    def goto(self, url: str) -> None:
        self.page.goto(url, wait_until="commit")

    def reload(self) -> None:
        self.page.reload(wait_until="commit")

    def _evaluate_json(self, expression: str) -> str:
        from playwright.sync_api import Error

        try:
            return self.page.evaluate(expression)
        except Error as err:
            raise EngineError(str(err)) from None

    def type(self, selector: str, text: str) -> None:
        field = self.page.locator(selector)
        field.select_text()
        field.press_sequentially(text)

    def click(self, selector: str) -> None:
        self.page.locator(selector).click()

    def close(self) -> None:
        self.page.close()


def _browser_pid(browser) -> int | None:
    """The browser process of a Chromium, as it tells it (CDP's SystemInfo), or None where it does not say."""
    with contextlib.suppress(Exception):
        info = browser.new_browser_cdp_session().send("SystemInfo.getProcessInfo")
        return next(p["id"] for p in info["processInfo"] if p["type"] == "browser")
    return None


class Chromium(Engine):
    """A context of `browser` (the tests' session Chromium: one sync Playwright per process), else of a Chromium of its own."""

    name = "chromium"

    def __init__(self, browser=None) -> None:
        self._playwright = None
        if browser is None:
            from playwright.sync_api import sync_playwright

            self._playwright = sync_playwright().start()
            browser = self._playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_FLAGS + TEST_ONLY_FLAGS)
        self._browser = browser
        self._pid = _browser_pid(browser)
        self._context = browser.new_context()

    def tab(self) -> Tab:
        return ChromiumTab(self._context.new_page())

    def add_init_script(self, source: str) -> bool:
        self._context.add_init_script(source)
        return True

    def alive(self) -> bool:
        # Playwright's calls stay on this thread (its sync API is not thread-safe); a Chromium that died says so at once.
        browser = self._context.browser
        return browser is not None and browser.is_connected()

    def close(self) -> None:
        """The context closed, and the Chromium launched for it; a close that has not ended within 2 * CLOSE_WITHIN s
        (one waited on for over 300 s under load, a whole test's time) is ended by killing the browser: the tests'
        Chromium is launched again for the next test (support.browser.Relaunching)."""
        timer = threading.Timer(2 * CLOSE_WITHIN, self.kill)
        timer.start()
        try:
            with contextlib.suppress(Exception):
                self._context.close()
            if self._playwright:
                with contextlib.suppress(Exception):
                    self._browser.close()
                self._playwright.stop()
        finally:
            timer.cancel()

    def kill(self) -> None:
        """The browser's process killed (from any thread: no Playwright call)."""
        if self._pid is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self._pid, signal.SIGKILL)


# ---------------------------------------------------------------- WebKitGTK (Selenium, WebKitWebDriver, Xvfb)


def _xvfb() -> tuple[subprocess.Popen[bytes] | None, str]:
    """A display for WebKitGTK: the one there is, else an Xvfb of our own (its process, its name)."""
    if os.environ.get("DISPLAY"):
        return None, os.environ["DISPLAY"]
    # Xvfb picks a free display and writes its number to a file, read back once the line is whole.
    told = Path(tempfile.mkdtemp(prefix="xvfb-")) / "display"
    with told.open("w") as out:
        xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(out.fileno()), "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
                                pass_fds=[out.fileno()], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while not told.read_text().endswith("\n"):
        if xvfb.poll() is not None or time.monotonic() > deadline:
            xvfb.kill()
            raise EngineError(f"webkit: Xvfb did not start (exit {xvfb.wait()})")
        time.sleep(0.05)
    number = told.read_text().strip()
    shutil.rmtree(told.parent, ignore_errors=True)
    return xvfb, ":" + number


class WebKitTab(Tab):
    engine = "webkit"

    def __init__(self, webkit: WebKit, handle: str) -> None:
        self.webkit = webkit
        self.handle = handle

    @property
    def driver(self):
        if self.webkit.driver.current_window_handle != self.handle:
            self.webkit.driver.switch_to.window(self.handle)
        return self.webkit.driver

    def goto(self, url: str) -> None:
        self.driver.get(url)

    def reload(self) -> None:
        self.driver.refresh()

    def _evaluate_json(self, expression: str) -> str:
        from selenium.common.exceptions import WebDriverException

        try:
            return self.driver.execute_script(f"return {expression};")
        except WebDriverException as err:
            raise EngineError(err.msg or str(err)) from None

    def type(self, selector: str, text: str) -> None:
        from selenium.webdriver.common.by import By
        from selenium.webdriver.common.keys import Keys

        field = self.driver.find_element(By.CSS_SELECTOR, selector)
        field.send_keys(Keys.CONTROL, "a")
        field.send_keys(text)

    def click(self, selector: str) -> None:
        from selenium.webdriver.common.by import By

        self.driver.find_element(By.CSS_SELECTOR, selector).click()

    def close(self) -> None:
        if len(self.webkit.driver.window_handles) > 1:
            self.driver.close()
            self.webkit.driver.switch_to.window(self.webkit.driver.window_handles[0])


class WebKit(Engine):
    name = "webkit"

    def __init__(self) -> None:
        from selenium import webdriver
        from selenium.webdriver.webkitgtk.options import Options
        from selenium.webdriver.webkitgtk.service import Service

        self._xvfb, display = _xvfb()
        options = Options()
        if MINIBROWSER.exists():
            options.binary_location = str(MINIBROWSER)
            options.add_argument("--automation")
        # The driver's path given: Selenium Manager downloads nothing.
        # In a process group of its own, with the browser it starts: killed together when a close does not end.
        service = Service(executable_path=WEBKIT_DRIVER, env={**os.environ, "DISPLAY": display, "NO_AT_BRIDGE": "1"},
                          popen_kw={"start_new_session": True})
        self._service = service

        def create():
            with warnings.catch_warnings():  # Selenium's own call of a thing it deprecated (remote_server_addr), not ours
                warnings.filterwarnings("ignore", category=DeprecationWarning, module=r"selenium\.")
                return webdriver.WebKitGTK(options=options, service=service)

        try:
            ended, made = in_time(START_WITHIN, create)
            if isinstance(made, Exception) and ended:
                raise made
            if not ended:
                raise EngineError(f"webkit: WebKitWebDriver did not open a session within {START_WITHIN:.0f} s")
        except BaseException:  # a start cut short (pytest's timeout included) leaves no driver or browser behind
            _kill_group(getattr(service, "process", None))
            if self._xvfb:
                self._xvfb.terminate()
                self._xvfb.wait()
            raise
        self.driver = made
        self.driver.command_executor.client_config.timeout = START_WITHIN  # each command's answer, else no limit
        self.driver.set_script_timeout(WAIT)
        self._first = True

    def tab(self) -> Tab:
        if self._first:  # the window the session opened with
            self._first = False
            return WebKitTab(self, self.driver.current_window_handle)
        self.driver.switch_to.new_window("tab")
        return WebKitTab(self, self.driver.current_window_handle)

    @property
    def driver_process(self) -> subprocess.Popen:
        return self._service.process

    def alive(self) -> bool:
        return self.driver_process.poll() is None and within(CLOSE_WITHIN, lambda: self.driver.window_handles)

    def close(self) -> None:
        """`quit` asked of the driver, then the driver and its browser killed, whether it answered or not (a quit
        leaves nothing of the browser to keep)."""
        if self.driver_process.poll() is None:
            within(CLOSE_WITHIN, self.driver.quit)
        _kill_group(self.driver_process)
        if self._xvfb:
            self._xvfb.terminate()
            self._xvfb.wait()


# ---------------------------------------------------------------- Firefox (WebDriver BiDi)


# What a test's Firefox profile says beyond the remote agent's own recommended
# preferences (which it sets when started with --remote-debugging-port): no
# first-run pages, no update or telemetry traffic, no default-browser question.
FIREFOX_PREFS = {
    "browser.shell.checkDefaultBrowser": False,
    "browser.startup.homepage_override.mstone": "ignore",
    "browser.startup.page": 0,
    "browser.aboutwelcome.enabled": False,
    "datareporting.policy.dataSubmissionEnabled": False,
    "toolkit.telemetry.reportingpolicy.firstRun": False,
    "app.update.disabledForTesting": True,
    "app.normandy.enabled": False,
    "browser.safebrowsing.malware.enabled": False,
    "browser.safebrowsing.phishing.enabled": False,
    "network.captive-portal-service.enabled": False,
    "network.connectivity-service.enabled": False,
    "extensions.update.enabled": False,
}


class Bidi:
    """A WebDriver BiDi session over one WebSocket: commands answered in order, events kept for `events`."""

    def __init__(self, url: str) -> None:
        import websocket

        # Firefox refuses a handshake with an Origin header it does not expect.
        self.socket = websocket.create_connection(url + "/session", suppress_origin=True, timeout=WAIT + 30)
        self.next_id = 0
        self.events: collections.deque[dict[str, Any]] = collections.deque(maxlen=1000)  # the latest, for a failure's tail
        self.started = time.time()

    def __call__(self, method: str, **params: Any) -> dict[str, Any]:
        self.next_id += 1
        asked = self.next_id
        self.socket.send(json.dumps({"id": asked, "method": method, "params": params}))
        while True:
            message = json.loads(self.socket.recv())
            if message.get("id") == asked:
                if message.get("type") == "error":
                    raise EngineError(f"firefox: {method}: {message.get('error')}: {message.get('message')}")
                return message["result"]
            if message.get("type") == "event":
                self.events.append(message)

    def close(self) -> None:
        """Closed at once: a thread still waiting for an answer is woken first (`abort`), since a plain close waits
        for that thread's read to end, up to the socket's timeout."""
        with contextlib.suppress(Exception):
            self.socket.abort()
        with contextlib.suppress(Exception):
            self.socket.close(timeout=1)


class FirefoxTab(Tab):
    engine = "firefox"

    def __init__(self, bidi: Bidi, context: str) -> None:
        self.bidi = bidi
        self.context = context

    def goto(self, url: str) -> None:
        self.bidi("browsingContext.navigate", context=self.context, url=url, wait="interactive")

    def reload(self) -> None:
        self.bidi("browsingContext.reload", context=self.context, wait="interactive")

    def _evaluate_json(self, expression: str) -> str:
        answer = self.bidi("script.evaluate", expression=expression, target={"context": self.context}, awaitPromise=True)
        if answer["type"] == "exception":
            raise EngineError(answer["exceptionDetails"].get("text", "an exception"))
        return answer["result"].get("value", "null")

    def _element(self, selector: str) -> dict[str, Any]:
        answer = self.bidi("script.evaluate", expression=f"document.querySelector({json.dumps(selector)})",
                           target={"context": self.context}, awaitPromise=False, resultOwnership="root")
        if answer["type"] == "exception" or answer["result"].get("type") != "node":
            raise EngineError(f"firefox: no element {selector}")
        return {"sharedId": answer["result"]["sharedId"]}

    def type(self, selector: str, text: str) -> None:
        self.eval(f"(() => {{ const f = document.querySelector({json.dumps(selector)}); f.focus(); f.select(); }})()")
        keys = [step for char in text for step in ({"type": "keyDown", "value": char}, {"type": "keyUp", "value": char})]
        self.bidi("input.performActions", context=self.context, actions=[{"type": "key", "id": "keyboard", "actions": keys}])

    def click(self, selector: str) -> None:
        origin = {"type": "element", "element": self._element(selector)}
        pointer = [{"type": "pointerMove", "x": 0, "y": 0, "origin": origin},
                   {"type": "pointerDown", "button": 0}, {"type": "pointerUp", "button": 0}]
        self.bidi("input.performActions", context=self.context,
                  actions=[{"type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"}, "actions": pointer}])

    def close(self) -> None:
        self.bidi("browsingContext.close", context=self.context)

    def console(self) -> list[str]:
        """Every console line and uncaught error of the session's pages and workers that the remote agent told of."""
        start = self.bidi.started
        return [f"{(e['params'].get('timestamp', 0) / 1000 - start):7.1f} s {e['params'].get('level')} {e['params'].get('source', {}).get('context', 'worker')[:8]}: "
                f"{e['params'].get('text')}" for e in self.bidi.events if e.get("method") == "log.entryAdded"]


class Firefox(Engine):
    name = "firefox"

    def __init__(self, prefs: dict[str, Any] | None = None) -> None:
        self.profile = Path(tempfile.mkdtemp(prefix="firefox-profile-"))
        (self.profile / "user.js").write_text(
            "".join(f"user_pref({json.dumps(k)}, {json.dumps(v)});\n" for k, v in {**FIREFOX_PREFS, **(prefs or {})}.items()))
        self.process = subprocess.Popen([str(firefox_path()), "--headless", "--no-remote", "--profile", str(self.profile), "--remote-debugging-port=0"],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                                        start_new_session=True)  # its content processes with it: killed together
        stream = self.process.stderr
        assert stream is not None

        def listening() -> str | None:
            for line in stream:  # the remote agent says where it listens before anything else we need
                found = re.search(r"WebDriver BiDi listening on (ws://\S+)", line)
                if found:
                    return found.group(1)
            return None

        try:
            ended, url = in_time(START_WITHIN, listening)
        except BaseException:  # pytest's timeout: no Firefox left behind
            _kill_group(self.process)
            raise
        if not ended or not isinstance(url, str):
            _kill_group(self.process)
            raise EngineError(f"firefox: the remote agent did not say where it listens within {START_WITHIN:.0f} s (exit {self.process.wait()})")
        # Firefox writes to stderr all its life: read and dropped, so a full pipe never stops it.
        subprocess_drain(self.process)
        try:
            self.bidi = Bidi(url)
            self.bidi("session.new", capabilities={})
            self.bidi("session.subscribe", events=["log.entryAdded"])  # kept for a failure's tail (Tab.console)
        except BaseException:  # a start cut short (pytest's timeout included) leaves no Firefox behind
            _kill_group(self.process)
            shutil.rmtree(self.profile, ignore_errors=True)
            raise
        self._first: str | None = self.bidi("browsingContext.getTree", maxDepth=0)["contexts"][0]["context"]

    def tab(self) -> Tab:
        if self._first:
            context, self._first = self._first, None
            return FirefoxTab(self.bidi, context)
        return FirefoxTab(self.bidi, self.bidi("browsingContext.create", type="tab")["context"])

    def alive(self) -> bool:
        return self.process.poll() is None and within(CLOSE_WITHIN, lambda: self.bidi("browsingContext.getTree", maxDepth=0))

    def add_init_script(self, source: str) -> bool:
        self.bidi("script.addPreloadScript", functionDeclaration=f"() => {{ {source} }}")
        return True

    def close(self) -> None:
        """Closed through BiDi's `browser.close`, which ends the session and quits at once; a SIGTERM left Firefox
        shutting down for up to 14 s on a loaded machine. What is left after a few seconds is killed: the profile
        is a temporary folder, nothing in it is kept."""
        if self.process.poll() is None and within(CLOSE_WITHIN, lambda: self.bidi("browser.close")):
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=5)
        _kill_group(self.process)  # its content processes too, whether the main one quit or not
        self.bidi.close()
        if self.process.stderr:
            self.process.stderr.close()
        shutil.rmtree(self.profile, ignore_errors=True)


def subprocess_drain(process: subprocess.Popen[str]) -> None:
    import threading

    stream = process.stderr
    if stream is not None:
        threading.Thread(target=lambda: [None for _ in stream], daemon=True).start()


STARTERS = {"chromium": Chromium, "webkit": WebKit, "firefox": Firefox}


def start(engine: str, chromium=None) -> Engine:
    """A running `engine`; for Chromium, a context of `chromium` where one is given."""
    return Chromium(chromium) if engine == "chromium" else STARTERS[engine]()


class Session:
    """One engine for a module's tests, started again when the last one died or was given up: a browser that
    crashed, or whose driver stopped answering, costs the test it happened in, not the module's next tests.
    `chromium`: the tests' session Chromium (itself launched again when it died, conftest's `chromium`)."""

    def __init__(self, engine: str, chromium=None) -> None:
        self.name = engine
        self._chromium = chromium
        self._engine: Engine | None = None

    def live(self) -> Engine:
        if self._engine is not None and not self._engine.alive():
            self.discard()
        if self._engine is None:
            self._engine = start(self.name, self._chromium)
        return self._engine

    def after_test(self, tab: Tab) -> None:
        """The tab left for about:blank, so the next test's page starts from nothing, whatever this one left running;
        an engine that cannot do that within CLOSE_WITHIN s (hung, or dead) is closed, and the next test gets a new
        one. Chromium's calls stay on this thread (Playwright's sync API), with Playwright's own time limits."""
        def leave() -> None:
            tab.goto("about:blank")

        if self.name == "chromium":
            try:
                leave()
            except Exception:
                self.discard()
        elif not within(CLOSE_WITHIN, leave):
            self.discard()

    def discard(self) -> None:
        if self._engine is not None:
            engine, self._engine = self._engine, None
            engine.close()

    def close(self) -> None:
        self.discard()


@contextlib.contextmanager
def started(engine: str, chromium=None) -> Iterator[Engine]:
    """A running `engine`; for Chromium, a context of `chromium` where one is given."""
    browser = start(engine, chromium)
    try:
        yield browser
    finally:
        browser.close()
