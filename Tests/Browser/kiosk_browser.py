#!/usr/bin/env python3
"""appstate-gateway and its kiosk page in a real browser: Debian's chromium and chromedriver,
driven by Selenium.

    kiosk_browser.py check   --appstated BIN --gateway BIN --ctl BIN
    kiosk_browser.py measure --appstated BIN --gateway BIN --ctl BIN [--pages 1,50] [--changes 2000,600]

Both start their own appstated (a datagram NOTIFY_SOCKET says when it is ready) and
appstate-gateway (ready once it printed its URL) in a temporary directory, and stop them, by
their pids, however they end: `check` restarts each of them on purpose.

`check` is what Tests/EndToEndTests/GatewayBrowserTests.swift runs: the page built into the
gateway follows appstatectl's changes through `data-appstate-current` and the screens CSS shows
for it, and appstatectl status lists it as a live page, down once it went away; with the keyboard
up the focused input's bottom is above the keyboard; touches and key presses are reported as
activity, at most once a second; the page resyncs without a reload after
the gateway restarts and after the daemon restarts (with another state); a call of a method not
allowed, a page of another origin and a browser without the token are refused, and the daemon's
state is unchanged by them. It asserts on the DOM, never on pixels, and prints one line per step.

`measure` is what scripts/benchmark-gateway runs: with 1 and then with N pages open (tabs of one
chromium, spread over several loopback addresses the gateway listens on, since a browser keeps
at most six connections per host), keyboard moves paced through the Python varlink client, each
timed from the call to the page's <html> updated (a MutationObserver in every page) and to the
same change printed by an `appstatectl watch --json` in the same run; then the same with the same
tabs on a floor page, which follows a second gateway's stream with none of appstate.js: what
chromium itself takes. It prints the timings as JSON, with the gateway's resident memory when idle.
"""
import argparse
import json
import math
import os
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import http.server
import urllib.error
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

# Selenium Manager must never try to download a driver or a browser: the machine's are used.
os.environ["SE_OFFLINE"] = "true"
LOGGED_OUT = "session/login/login-form"
LOGGED_IN = "session/home/pages/overview"
WIDTH, HEIGHT = 1280, 800


def step(text):
    print(f"ok: {text}", flush=True)


def fail(text):
    sys.exit(f"FAILED: {text}")


class Daemon:
    """appstated on a socket and state directory of its own, ready once it sent READY=1."""

    def __init__(self, binary, work, state="state"):
        self.binary, self.work = binary, work
        self.socket = os.path.join(work, "io.appstate")
        self.process = None
        self.start(state)

    def start(self, state="state"):
        notify_path = os.path.join(self.work, "notify")
        if os.path.exists(notify_path):
            os.unlink(notify_path)
        notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        notify.bind(notify_path)
        environment = dict(os.environ, NOTIFY_SOCKET=notify_path)
        log = open(os.path.join(self.work, "appstated.log"), "ab")
        self.process = subprocess.Popen([self.binary, "--socket", self.socket, "--state-dir", os.path.join(self.work, state)],
                                        stdout=subprocess.DEVNULL, stderr=log, env=environment)
        deadline = time.monotonic() + 20
        try:
            while time.monotonic() < deadline:
                ready, _, _ = select.select([notify], [], [], max(0.0, deadline - time.monotonic()))
                if ready and b"READY=1" in notify.recv(4096):
                    return
            fail("appstated did not send READY=1")
        finally:
            notify.close()

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(timeout=20)


class Gateway:
    """appstate-gateway, ready once it printed its URL."""

    def __init__(self, binary, work, daemon_socket, listen="127.0.0.1:0", activation=(), extra=()):
        self.binary, self.work, self.daemon_socket, self.extra = binary, work, daemon_socket, list(extra)
        self.token_file = os.path.join(work, "gateway.token")
        self.process = None
        self.start(listen, activation)

    def start(self, listen=None, activation=()):
        """Starts the gateway on `listen`; or, given `activation` (systemd-socket-activate's
        --listen options), socket-activated on those addresses by a first connection."""
        arguments = [self.binary, "--socket", self.daemon_socket, "--token-file", self.token_file, *self.extra]
        if listen:
            arguments += ["--listen", listen]
        if activation:
            arguments = ["systemd-socket-activate", *activation, "--", *arguments]
        log = open(os.path.join(self.work, "gateway.log"), "ab")
        # systemd-socket-activate binds, then execs the gateway in its own process on the first
        # connection: the pid is the gateway's.
        self.process = subprocess.Popen(arguments, stdout=subprocess.PIPE, stderr=log)
        if activation:
            first = activation[0].split("=", 1)[1]
            deadline = time.monotonic() + 20
            while status_of(f"http://{first}/appstate.js") != 401:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    fail(f"the socket-activated gateway did not answer (see {log.name})")
                time.sleep(0.05)
        ready, _, _ = select.select([self.process.stdout], [], [], 20)
        line = self.process.stdout.readline().decode().strip() if ready else ""
        if not line.startswith("http://"):
            fail(f"appstate-gateway printed no URL (got {line!r}; see {log.name})")
        self.url = line
        self.token = open(self.token_file).read().strip()
        self.port = int(line.rsplit(":", 1)[1].strip("/"))

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(timeout=20)

    @property
    def pid(self):
        return self.process.pid


def browser(tabs_limit=None):
    options = webdriver.ChromeOptions()
    for argument in ("--headless", "--no-sandbox", "--disable-dev-shm-usage", f"--window-size={WIDTH},{HEIGHT}",
                     "--disable-background-timer-throttling", "--disable-renderer-backgrounding",
                     "--disable-backgrounding-occluded-windows"):
        options.add_argument(argument)
    if tabs_limit:
        options.add_argument(f"--renderer-process-limit={tabs_limit}")
    options.binary_location = "/usr/bin/chromium"
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def wait(driver, what, condition, timeout=20):
    """Waits until `condition(driver)` is truthy and returns it; fails naming `what`."""
    def probe(d):
        try:
            return condition(d)
        except Exception:  # the page is being replaced or reloaded: look again
            return False
    try:
        return WebDriverWait(driver, timeout, poll_frequency=0.05).until(probe)
    except Exception:
        fail(f"{what} (after {timeout} s; <html> is {html_state(driver)})")


def html_state(driver):
    try:
        return driver.execute_script(
            "const html = document.documentElement, style = getComputedStyle(html);"
            "return {current: html.dataset.appstateCurrent, connected: html.dataset.appstateConnected,"
            " keyboard: style.getPropertyValue('--appstate-keyboard-height').trim(), url: location.href}")
    except Exception as error:
        return f"unreadable ({error.__class__.__name__})"


def current(driver):
    return driver.execute_script("return document.documentElement.dataset.appstateCurrent ?? null")


def style(driver, name):
    return driver.execute_script(f"return getComputedStyle(document.documentElement).getPropertyValue('{name}').trim()")


def shown(driver):
    return [element.get_attribute("id") for element in driver.find_elements(By.CSS_SELECTOR, "main > .screen") if element.is_displayed()]


def status_of(url, method="GET", headers=None, body=None):
    request = urllib.request.Request(url, method=method, headers=headers or {}, data=body)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code
    except (urllib.error.URLError, ConnectionError):
        return None


class Ctl:
    def __init__(self, binary, daemon):
        self.binary, self.daemon = binary, daemon

    def __call__(self, *words):
        return subprocess.run([self.binary, "--socket", self.daemon.socket, *words], check=True,
                              capture_output=True, text=True).stdout.strip()

    def tree(self):
        return json.loads(self("tree", "--json"))


def shows(driver, screen, path):
    wait(driver, f"the page shows {screen} for {path}", lambda d: current(d) == path and shown(d) == [screen])


def check(arguments):
    work = tempfile.mkdtemp(prefix="kiosk-")
    daemon = Daemon(arguments.appstated, work)
    gateway = Gateway(arguments.gateway, work, daemon.socket)
    ctl = Ctl(arguments.ctl, daemon)
    driver = None
    try:
        base = gateway.url.rstrip("/")
        for path in ("/", "/appstate.js", "/watch", f"/?token={gateway.token[:-1]}"):
            if (code := status_of(base + path)) != 401:
                fail(f"{path} without the token answered {code}, not 401")
        step("requests without the token get 401")

        driver = browser()
        # The page's CSS pixels are the daemon's points: the viewport is the daemon's window.
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": WIDTH, "height": HEIGHT, "deviceScaleFactor": 1, "mobile": False})
        driver.get(f"{base}/?token={gateway.token}")
        shows(driver, "login", LOGGED_OUT)
        if "token" in driver.current_url:
            fail(f"the token stayed in the address bar: {driver.current_url}")
        if gateway.token in driver.execute_script("return document.cookie"):
            fail("the page's script can read the token's cookie")
        driver.execute_script("window.kioskMarker = 'not reloaded'")
        step(f"the page opens on {LOGGED_OUT}, showing #login, with the token out of the address bar")

        def page_line(d):
            return next((line for line in ctl("status").splitlines() if "default: page " in line), "")
        wait(driver, "the page reports itself to the daemon as a live front-end", lambda d: page_line(d).endswith(": live"))
        step(f"appstatectl status lists the page as a front-end: {page_line(driver).strip()}")

        field = driver.find_element(By.ID, "user")
        field.click()
        geometry = "const r = document.activeElement.getBoundingClientRect(); return [r.bottom, innerHeight, document.activeElement.id]"
        bottom, height, focused = driver.execute_script(geometry)
        if focused != "user" or bottom <= height - 320:
            fail(f"the focused input (#{focused}) ends at {bottom} of {height}: a 320-point keyboard would not cover it")
        ctl("keyboard", "show", "--height", "320", "--duration", "0")
        wait(driver, "--appstate-keyboard-height follows the keyboard", lambda d: style(d, "--appstate-keyboard-height") == "320px")
        wait(driver, "the focused input moves above the keyboard", lambda d: d.execute_script(geometry)[0] <= d.execute_script(geometry)[1] - 320)
        bottom, height, focused = driver.execute_script(geometry)
        if focused != "user" or style(driver, "--appstate-inset-bottom") != "320px":
            fail(f"after the keyboard: focus on #{focused}, inset {style(driver, '--appstate-inset-bottom')}")
        step(f"keyboard show --height 320: --appstate-keyboard-height 320px, the focused input ends at {bottom:g}, "
             f"{height - bottom:g} points above the window's bottom")

        reports = ("return performance.getEntriesByType('resource').filter(e => e.name.endsWith('/call/io.appstate.ReportActivity'))"
                   ".map(e => e.startTime)")
        began = time.monotonic()
        field.send_keys("ada")
        typed = time.monotonic() - began
        first = wait(driver, "a key press is reported as activity", lambda d: d.execute_script(reports))
        wait(driver, "a second has passed since the first report",
             lambda d: d.execute_script("return performance.now()") - first[0] >= 1000)
        if typed < 1 and len(driver.execute_script(reports)) != 1:
            fail(f"three key presses within {typed:.2f} s were reported {len(driver.execute_script(reports))} times, not once")
        driver.find_element(By.CSS_SELECTOR, "#login-form button").click()
        wait(driver, "a touch after a second is reported again", lambda d: len(d.execute_script(reports)) == 2)
        step(f"three key presses in {typed:.2f} s are one activity report, a touch a second later another")

        ctl("keyboard", "hide", "--duration", "0")
        wait(driver, "the keyboard's height goes back to 0", lambda d: style(d, "--appstate-keyboard-height") == "0px")
        ctl("login", "ada")
        shows(driver, "overview", LOGGED_IN)
        step(f"appstatectl login ada: the page shows #overview for {LOGGED_IN}")
        ctl("page", "next")
        shows(driver, "activity", "session/home/pages/activity/loading")
        ctl("page", "settings")
        shows(driver, "settings", "session/home/pages/settings")
        ctl("menu", "select", "dashboard")
        shows(driver, "dashboard", "session/home/dashboard")
        ctl("menu", "select", "pages")
        shows(driver, "settings", "session/home/pages/settings")
        remembered = ("return [document.cookie, localStorage.getItem('cart'), sessionStorage.getItem('cart'), "
                      "document.documentElement.dataset.appstateConnected]")
        driver.execute_script("document.cookie = 'cart=3; path=/'; localStorage.setItem('cart', '3'); sessionStorage.setItem('cart', '3')")
        if driver.execute_script(remembered) != ["cart=3", "3", "3", "true"]:
            fail(f"the page could not remember a cart: {driver.execute_script(remembered)}")
        ctl("logout")
        shows(driver, "login", LOGGED_OUT)
        wait(driver, "the customer's cookie and storage are cleared at the logout",
             lambda d: d.execute_script(remembered) == ["", None, None, "true"])
        step("page turns, the menu and logout follow: #activity, #settings, #dashboard, #login; "
             "the logout clears the page's cookie and storage, and the page stays connected")

        gateway.stop()
        wait(driver, "the page notices the gateway is gone", lambda d: d.execute_script(
            "return document.documentElement.dataset.appstateConnected") == "false")
        if not driver.find_element(By.ID, "offline").is_displayed():
            fail("#offline is not shown while the gateway is down")
        # Logged in again, home shows the page it showed at the logout.
        ctl("login", "ada")
        gateway.start(f"127.0.0.1:{gateway.port}")
        shows(driver, "settings", "session/home/pages/settings")
        wait(driver, "the page is connected again", lambda d: d.execute_script(
            "return document.documentElement.dataset.appstateConnected") == "true")
        step("the gateway restarted (ada logged in meanwhile): the page resyncs to #settings without a reload")

        ctl("page", "overview")
        shows(driver, "overview", LOGGED_IN)
        daemon.stop()
        wait(driver, "the page hears the daemon is gone", lambda d: d.execute_script(
            "return document.documentElement.dataset.appstateConnected") == "false")
        daemon.start(state="fresh-state")
        shows(driver, "login", LOGGED_OUT)
        wait(driver, "the page follows the daemon again", lambda d: d.execute_script(
            "return document.documentElement.dataset.appstateConnected") == "true")
        ctl("login", "grace")
        shows(driver, "overview", LOGGED_IN)
        if driver.execute_script("return window.kioskMarker") != "not reloaded":
            fail("the page was reloaded")
        step("the daemon restarted with another state: the page resyncs to #login, then follows it, never reloaded")

        # On the login screen, which is keyboard-aware, both refused calls would change the tree.
        ctl("logout")
        shows(driver, "login", LOGGED_OUT)
        before = ctl.tree()
        login = driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "fetch('/call/io.appstate.Login', {method: 'POST', body: JSON.stringify({user: 'mallory', switch: true})})"
            ".then(async r => done([r.status, (await r.json()).error]), e => done(String(e)))")
        if login != [403, "io.appstate.gateway.MethodNotAllowed"]:
            fail(f"a call of Login from the page answered {login}")
        step("the page calling Login, which is not allowed: 403 io.appstate.gateway.MethodNotAllowed")

        foreign = http.server.ThreadingHTTPServer(("127.0.0.1", 0), ForeignPage)
        threading.Thread(target=foreign.serve_forever, daemon=True).start()
        try:
            driver.get(f"http://127.0.0.1:{foreign.server_address[1]}/")
            wait(driver, "the page that went away says it is down", lambda d: page_line(d).endswith(": down (the page was closed)"))
            step(f"the page went away (pagehide): {page_line(driver).strip()}")
            outcome = driver.execute_async_script(
                "const done = arguments[arguments.length - 1];"
                "fetch(arguments[0] + '/call/io.appstate.ShowKeyboard', {method: 'POST', mode: 'no-cors', credentials: 'include',"
                " body: JSON.stringify({height: 100, duration: 0})}).then(() => done('sent'), e => done(String(e)))", base)
        finally:
            foreign.shutdown()
        code = status_of(base + "/call/io.appstate.ShowKeyboard", "POST", {
            "Authorization": f"Bearer {gateway.token}", "Origin": f"http://127.0.0.1:{foreign.server_address[1]}"},
            b'{"height": 100, "duration": 0}')
        if code != 403:
            fail(f"a call with another Origin answered {code}, not 403")
        step(f"a page of another origin calling ShowKeyboard with the cookie ({outcome}): refused 403")

        driver.delete_all_cookies()
        driver.get(base + "/")
        text = driver.find_element(By.TAG_NAME, "body").text
        if "io.appstate.gateway.Unauthorized" not in text:
            fail(f"the page without the token shows {text[:200]!r}")
        driver.get(base + "/watch")
        if "io.appstate.gateway.Unauthorized" not in driver.find_element(By.TAG_NAME, "body").text:
            fail("the stream without the token was not refused")
        step("a browser without the token gets 401 for the page and the stream")

        after = ctl.tree()
        if after != before:
            fail(f"the refused requests changed the daemon's tree:\n{json.dumps(before)}\n{json.dumps(after)}")
        step("the daemon's tree is what it was before the refused requests")
    finally:
        if driver:
            driver.quit()
        gateway.stop()
        daemon.stop()
        shutil.rmtree(work, ignore_errors=True)
    print("kiosk browser check: passed")


class ForeignPage(http.server.BaseHTTPRequestHandler):
    """A page of another origin than the gateway's, for the Origin check."""

    def do_GET(self):
        body = b"<!doctype html><title>another site</title><p>another site</p>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *arguments):
        pass


def percentiles(values):
    ordered = sorted(values)
    pick = lambda fraction: ordered[max(0, math.ceil(fraction * len(ordered)) - 1)]
    return {"count": len(ordered), "p50": pick(0.5), "p99": pick(0.99), "max": ordered[-1]}


def resident_kib(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


# The moment <html> changed, then which height it got: read from its own style, so that timing
# a page forces no style recalculation the page would not have done by itself.
OBSERVER = """
window.kioskTimes = [];
new MutationObserver(() => {
  const now = performance.timeOrigin + performance.now();
  window.kioskTimes.push([now, document.documentElement.style.getPropertyValue('--appstate-keyboard-height')]);
}).observe(document.documentElement, {attributes: true, attributeFilter: ['style']});
"""

# The floor of the kiosk page's figure: chromium following the same gateway's event stream with
# none of appstate.js, writing the keyboard's height on <html> as the kiosk page does.
FLOOR_FILES = {
    "index.html": '<!doctype html><meta charset="utf-8"><title>floor</title><script type="module" src="floor.js"></script>\n',
    "floor.js": """const html = document.documentElement;
const source = new EventSource("watch");
source.addEventListener("snapshot", () => { html.dataset.floor = "ready"; });
source.addEventListener("change", (message) => {
  const reply = JSON.parse(message.data);
  const nodes = [...(reply.changed ?? []), ...Object.values(reply.patches ?? {})];
  const height = Math.max(0, ...nodes.map((node) => node.keyboardOverlap ?? 0));
  html.style.setProperty("--appstate-keyboard-height", `${height}px`);
});
""",
}


def measure(arguments):
    import varlink  # only the benchmark drives the daemon from Python

    work = tempfile.mkdtemp(prefix="kiosk-measure-")
    daemon = Daemon(arguments.appstated, work)
    counts = [int(count) for count in arguments.pages.split(",")]
    hosts = [f"127.0.0.{index}" for index in range(1, 1 + max(1, math.ceil(max(counts) / 5)))]
    # Each gateway socket-activated on one port of several loopback addresses: each address is
    # a host of its own to the browser, whose limit of six connections per host would otherwise
    # hold back every page past the sixth.
    port, floor_port = free_port(), free_port()
    gateway = Gateway(arguments.gateway, work, daemon.socket, listen=None,
                      activation=[f"--listen={host}:{port}" for host in hosts])
    # Changes per page count: a p99 is the few slowest samples, so one page, which gives one
    # sample a change, gets more changes than many pages do.
    numbers = [int(number) for number in arguments.changes.split(",")]
    if len(numbers) == 1:
        numbers *= len(counts)
    if len(numbers) != len(counts):
        fail("--changes needs one number, or one for each count of --pages")
    changes = dict(zip(counts, numbers))
    result = {"interval_ms": arguments.interval_ms, "runs": []}
    floor = watcher = driver = None
    try:
        floor_work = os.path.join(work, "floor")
        os.makedirs(os.path.join(floor_work, "pages"))
        for name, text in FLOOR_FILES.items():
            with open(os.path.join(floor_work, "pages", name), "w") as file:
                file.write(text)
        floor = Gateway(arguments.gateway, floor_work, daemon.socket, listen=None, extra=["--pages", os.path.join(floor_work, "pages")],
                        activation=[f"--listen={host}:{floor_port}" for host in hosts])
        phases = [("page", gateway, port, lambda d: current(d) == LOGGED_OUT),
                  ("floor", floor, floor_port, lambda d: d.execute_script("return document.documentElement.dataset.floor ?? null") == "ready")]
        # Idle: started, one request answered, nothing followed; settled for a second.
        time.sleep(1)
        gateway_pid = gateway.pid
        result["idle_rss_kib"] = resident_kib(gateway_pid)
        result["daemon_idle_rss_kib"] = resident_kib(daemon.process.pid)
        watcher = subprocess.Popen([arguments.ctl, "--socket", daemon.socket, "watch", "--json"], stdout=subprocess.PIPE)
        watched = []
        watched_lock = threading.Lock()

        def read_watch():
            for line in watcher.stdout:
                arrived = time.time() * 1000
                with watched_lock:
                    watched.append(arrived)
        threading.Thread(target=read_watch, daemon=True).start()
        # The gateway alone: its event stream read by a plain HTTP client, without a browser.
        streamed = []
        stream = socket.create_connection((hosts[0], port))
        stream.sendall(f"GET /watch?token={gateway.token} HTTP/1.1\r\nHost: {hosts[0]}\r\n\r\n".encode())

        def read_stream():
            buffer = b""
            while chunk := stream.recv(65536):
                arrived = time.time() * 1000
                buffer += chunk
                while b"\n\n" in buffer:
                    event, buffer = buffer.split(b"\n\n", 1)
                    if b"\ndata:" in b"\n" + event or event.startswith(b"data:"):
                        with watched_lock:
                            streamed.append(arrived)
        threading.Thread(target=read_stream, daemon=True).start()

        def received(arrivals, sent, what):
            deadline = time.monotonic() + 30
            while True:
                with watched_lock:
                    if len(arrivals) >= len(sent):
                        return [arrived - sent[index] for index, arrived in enumerate(arrivals[:len(sent)])]
                if time.monotonic() > deadline:
                    fail(f"{what} did not carry every change")
                time.sleep(0.05)

        driver = browser(tabs_limit=8)
        handles = []
        with varlink.Client(address="unix:" + daemon.socket) as client, client.open("io.appstate") as appstate:
            heights = [300.0, 320.0]
            for count in counts:
                expected = [f"{heights[index % 2]:g}px" for index in range(changes[count])]
                while len(handles) < count:
                    if handles:
                        driver.switch_to.new_window("tab")
                    handles.append(driver.current_window_handle)
                run = {"pages": count, "changes": changes[count]}
                for name, serving, serving_port, ready in phases:
                    for index, handle in enumerate(handles):
                        driver.switch_to.window(handle)
                        driver.get(f"http://{hosts[index % len(hosts)]}:{serving_port}/?token={serving.token}")
                        wait(driver, f"the {name} page follows the daemon", ready)
                        driver.execute_script(OBSERVER)
                    with watched_lock:
                        watched.clear()
                        streamed.clear()
                    sent = []
                    start = time.monotonic()
                    for index in range(changes[count]):
                        delay = start + index * arguments.interval_ms / 1000 - time.monotonic()
                        if delay > 0:
                            time.sleep(delay)
                        sent.append(time.time() * 1000)
                        appstate.ShowKeyboard(height=heights[index % 2], duration=0.0)
                    pages = []
                    for handle in handles:
                        driver.switch_to.window(handle)
                        times = wait(driver, f"the {name} page shows all {changes[count]} changes", lambda d: (
                            lambda t: t if len(t) >= changes[count] else False)(d.execute_script("return window.kioskTimes")), timeout=120)
                        if [height for _, height in times[:changes[count]]] != expected:
                            fail(f"a {name} page saw the keyboard heights out of order")
                        pages += [arrived - sent[index] for index, (arrived, _) in enumerate(times[:changes[count]])]
                    run[name] = {"page": percentiles(pages), "watch": percentiles(received(watched, sent, "appstatectl watch"))}
                    if serving is gateway:
                        run[name]["stream"] = percentiles(received(streamed, sent, "the gateway's event stream"))
                run["gateway_rss_kib"] = resident_kib(gateway_pid)
                result["runs"].append(run)
    finally:
        if driver:
            driver.quit()
        if watcher:
            watcher.terminate()
            watcher.wait()
        if floor:
            floor.stop()
        gateway.stop()
        daemon.stop()
        shutil.rmtree(work, ignore_errors=True)
    print(json.dumps(result))


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    checking = commands.add_parser("check")
    measuring = commands.add_parser("measure")
    measuring.add_argument("--pages", default="1,50")
    measuring.add_argument("--changes", default="2000,600")
    measuring.add_argument("--interval-ms", type=float, default=50)
    for sub in (checking, measuring):
        sub.add_argument("--appstated", required=True)
        sub.add_argument("--gateway", required=True)
        sub.add_argument("--ctl", required=True)
    arguments = parser.parse_args()
    (check if arguments.command == "check" else measure)(arguments)


if __name__ == "__main__":
    main()
