#!/usr/bin/env python3
"""appstate-inspect in a real browser: Debian's chromium and chromedriver, driven by Selenium.

    inspector_browser.py check   --url URL --socket PATH --ctl APPSTATECTL [--screenshot PNG]
    inspector_browser.py measure --url URL --socket PATH [--paced N] [--interval-ms 16]
    inspector_browser.py kiosk   --url URL --width W --height H

`check` is what Tests/EndToEndTests/InspectorBrowserTests.swift runs against a real appstated
and appstate-inspect: the token is required, the page follows the daemon as appstatectl changes
it, shows the keyboard's rectangle, filters the timeline and shows an older window when an older
event is clicked, a viewer that connects late starts from the current state, and the tree's
front-ends and a blanked screen are shown, and without a kiosk the screenshot's place says so.
`kiosk` is what Tests/EndToEndTests/KioskBrowserTests.swift runs with a real appstate-kiosk: the
page shows the kiosk's screenshot beside the window, at the window's size. They assert on
the DOM (ids and data-* attributes), never on pixels, and prints one line per step.

`measure` is what scripts/benchmark-inspector runs: changes every 16 ms through the Python
varlink client, first with a short history (the baseline), then with the history full (1,000
events); it prints the page's own timings as JSON (see window.inspector in inspector.html).
"""
import argparse
import json
import math
import os
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

# Selenium Manager must never try to download a driver or a browser: the machine's are used.
os.environ["SE_OFFLINE"] = "true"
LOGGED_OUT = "session/login/login-form"
LOGGED_IN = "session/home/pages/overview"


def browser():
    options = webdriver.ChromeOptions()
    for argument in ("--headless", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1600,1000"):
        options.add_argument(argument)
    options.binary_location = "/usr/bin/chromium"
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def wait(driver, what, condition, timeout=15):
    """Waits until `condition(driver)` is truthy and returns it; fails naming `what`."""
    def probe(d):
        try:
            return condition(d)
        except Exception:  # an element replaced while being read: look again
            return False
    try:
        return WebDriverWait(driver, timeout, poll_frequency=0.05).until(probe)
    except Exception:
        current = driver.find_element(By.ID, "current-path").text
        rows = [item.get_attribute("data-name") for item in driver.find_elements(By.CSS_SELECTOR, "#timeline li")]
        sys.exit(f"FAILED: {what} (after {timeout} s; #current-path is {current!r}; timeline rows drawn: {rows})")


def step(text):
    print(f"ok: {text}", flush=True)


def status_of(url, method="GET"):
    request = urllib.request.Request(url, method=method)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def is_visible(driver, element_id):
    return driver.find_element(By.ID, element_id).is_displayed()


def svg_attribute(driver, name):
    return driver.find_element(By.CSS_SELECTOR, "#wireframe svg").get_attribute(name)


def keyboards(driver):
    return [element.get_attribute("data-frame") for element in driver.find_elements(By.CSS_SELECTOR, "#wireframe [data-keyboard]")]


def check(arguments):
    parts = urllib.parse.urlsplit(arguments.url)
    base = f"{parts.scheme}://{parts.netloc}"
    token = urllib.parse.parse_qs(parts.query)["token"][0]
    for path in ("/", "/events", "/entries/1", "/screenshot", f"/?token={token[:-1]}", f"/events?token={token}x", "/?token="):
        if (code := status_of(base + path)) != 403:
            sys.exit(f"FAILED: {path} without the right token answered {code}, not 403")
    if (code := status_of(arguments.url, method="POST")) != 405:
        sys.exit(f"FAILED: POST with the token answered {code}, not 405")
    step("requests without the token get 403; the page only reads (POST 405)")

    def ctl(*words):
        subprocess.run([arguments.ctl, "--socket", arguments.socket, *words], check=True, capture_output=True)

    driver = browser()
    try:
        driver.get(arguments.url)
        wait(driver, "the page shows the current path", lambda d: d.find_element(By.ID, "current-path").text == LOGGED_OUT)
        wait(driver, "the wireframe draws the current path",
             lambda d: d.find_element(By.CSS_SELECTOR, f'#wireframe g[data-path="{LOGGED_OUT}"][data-current="true"]'))
        step(f"the page opens on {LOGGED_OUT}")
        note = wait(driver, "beside the window, the line that says no kiosk shows the tree", lambda d: d.find_element(
            By.CSS_SELECTOR, '#screenshot-note[data-state="none"]').text)
        if not note.startswith("no appstate-kiosk shows the tree") or is_visible(driver, "screenshot"):
            sys.exit(f"FAILED: without a kiosk the screenshot's place reads {note!r}")
        step(f"without a kiosk the screenshot's place says: {note}")

        ctl("login", "ada")
        wait(driver, "the page follows the login", lambda d: d.find_element(By.ID, "current-path").text == LOGGED_IN)
        wait(driver, "the wireframe follows the login", lambda d: svg_attribute(d, "data-current-path") == LOGGED_IN)
        wait(driver, "the timeline lists the login", lambda d: d.find_element(By.CSS_SELECTOR, '#timeline li[data-name="Login"]'))
        step(f"after appstatectl login the page shows {LOGGED_IN}")

        ctl("logout")
        wait(driver, "the page follows the logout", lambda d: d.find_element(By.ID, "current-path").text == LOGGED_OUT)
        ctl("keyboard", "show", "--height", "320", "--duration", "0")
        wait(driver, "the keyboard's rectangle is drawn", lambda d: keyboards(d) == ["0 480 1280 320"])
        inset = wait(driver, "the change lists the login form's new inset", lambda d: d.find_element(
            By.CSS_SELECTOR, f'#changes .change[data-path="{LOGGED_OUT}"] tr[data-field="contentInset"]'))
        if "bottom 320" not in inset.find_element(By.CSS_SELECTOR, "td.after").text:
            sys.exit(f"FAILED: the inset after the keyboard reads {inset.text!r}")
        step("after appstatectl keyboard show the keyboard is drawn at 1280×320+0+480, the inset change listed")

        if arguments.screenshot:
            driver.save_screenshot(arguments.screenshot)
            step(f"screenshot in {arguments.screenshot}")

        search = driver.find_element(By.ID, "filter")
        search.send_keys("log")

        def counts(d):
            timeline = d.find_element(By.ID, "timeline")
            return int(timeline.get_attribute("data-shown")), int(timeline.get_attribute("data-count"))

        def filtered(d):
            shown = [item.get_attribute("data-name") for item in d.find_elements(By.CSS_SELECTOR, "#timeline li")]
            matching = all("log" in name.lower() for name in shown) and {"Login", "Logout"} <= set(shown)
            return matching and counts(d)[0] == len(shown) < counts(d)[1] and shown
        shown = wait(driver, "the filter shows only the events whose name holds \"log\"", filtered)
        search.clear()
        search.send_keys(" ")  # clear() fires no input event; a blank filter shows everything
        wait(driver, "an empty filter shows every event", lambda d: counts(d)[0] == counts(d)[1] == len(
            d.find_elements(By.CSS_SELECTOR, "#timeline li")))
        step(f"filtering by \"log\" shows only {shown}")

        driver.find_element(By.CSS_SELECTOR, '#timeline li[data-name="Login"]').click()
        wait(driver, "clicking the login shows the window as it was then",
             lambda d: d.find_element(By.ID, "wireframe").get_attribute("data-live") == "false"
             and svg_attribute(d, "data-current-path") == LOGGED_IN and keyboards(d) == [])
        if driver.find_element(By.ID, "current-path").text != LOGGED_OUT:
            sys.exit("FAILED: looking back moved #current-path, which follows the daemon")
        step(f"clicking the Login event shows the older window ({LOGGED_IN}, no keyboard)")

        driver.find_element(By.ID, "live").click()
        wait(driver, "back to live shows the keyboard again", lambda d: keyboards(d) == ["0 480 1280 320"])
        step("back to live shows the keyboard again")

        driver.switch_to.new_window("tab")
        driver.get(arguments.url)
        wait(driver, "a late viewer starts from the current state", lambda d: d.find_element(By.ID, "current-path").text == LOGGED_OUT
             and keyboards(d) == ["0 480 1280 320"])
        names = wait(driver, "a late viewer gets the history", lambda d: [
            item.get_attribute("data-name") for item in d.find_elements(By.CSS_SELECTOR, "#timeline li")])
        for name in ("Snapshot", "Login", "Logout"):
            if name not in names:
                sys.exit(f"FAILED: the late viewer's timeline {names} lacks {name}")
        step(f"a late viewer starts from the current state with the history ({len(names)} events)")

        import varlink  # ReportFrontEnd has no appstatectl command: a kiosk calls it
        with varlink.Client(address="unix:" + arguments.socket) as client, client.open("io.appstate") as appstate:
            appstate.ReportFrontEnd(kind="kiosk", name="appstate-kiosk 4242", state="recovering", reason="renderer crashed",
                                    reloads=2, livenessInterval=60.0)
        item = '#front-ends li[data-kind="kiosk"][data-name="appstate-kiosk 4242"]'
        shown = wait(driver, "the front-end is listed with its state", lambda d: d.find_element(
            By.CSS_SELECTOR, item + '[data-state="recovering"]').text)
        if shown != "kiosk appstate-kiosk 4242: recovering (renderer crashed; 2 reloads)":
            sys.exit(f"FAILED: the front-end reads {shown!r}")
        wait(driver, "the timeline lists the report", lambda d: d.find_element(By.CSS_SELECTOR, '#timeline li[data-name="ReportFrontEnd"]'))
        ctl("blank")
        wait(driver, "the tree says the screen is blanked", lambda d: "blanked" in d.find_element(By.ID, "tree").text.split("\n")[0])
        step(f"a kiosk's report is listed ({shown}) and in the timeline; appstatectl blank shows on the root")
    finally:
        driver.quit()
    print("inspector browser check: passed")


def kiosk(arguments):
    driver = browser()
    try:
        driver.get(arguments.url)
        size = wait(driver, "the kiosk's screenshot is shown beside the window", lambda d: d.find_element(
            By.CSS_SELECTOR, '#screenshot-note[data-state="shown"]') and d.find_element(By.ID, "screenshot").is_displayed()
            and d.execute_script("const i = document.getElementById('screenshot'); return i.complete && i.naturalWidth"
                                 " ? [i.naturalWidth, i.naturalHeight] : null"), timeout=30)
        if size != [arguments.width, arguments.height]:
            sys.exit(f"FAILED: the screenshot is {size}, not the window's {arguments.width}×{arguments.height}")
        step(f"the kiosk's screenshot is shown beside the window, {size[0]}×{size[1]}")
    finally:
        driver.quit()
    print("inspector kiosk check: passed")


def measure(arguments):
    import varlink  # only the benchmark drives the daemon from Python

    def percentiles(values):
        ordered = sorted(values)
        pick = lambda fraction: ordered[max(0, math.ceil(fraction * len(ordered)) - 1)]
        return {"count": len(ordered), "p50": pick(0.5), "p99": pick(0.99), "max": ordered[-1]}

    driver = browser()
    try:
        with varlink.Client(address="unix:" + arguments.socket) as client, client.open("io.appstate") as appstate:
            driver.get(arguments.url)
            wait(driver, "the page connects", lambda d: d.find_element(By.ID, "current-path").text == LOGGED_OUT)
            heights = [300.0, 320.0]

            sent = 0

            def changes(count, interval):
                nonlocal sent
                start = time.monotonic()
                for index in range(count):
                    if interval:
                        delay = start + index * interval - time.monotonic()
                        if delay > 0:
                            time.sleep(delay)
                    appstate.ShowKeyboard(height=heights[sent % 2], duration=0.0)
                    sent += 1

            def settle():
                """Waits until the page has shown every change sent (each is one event after the
                snapshot, entry 1), then a second more, so no backlog spills into what follows."""
                wait(driver, f"the page shows all {sent} changes", lambda d: int(d.find_element(
                    By.ID, "wireframe").get_attribute("data-seq")) >= sent + 1, timeout=300)
                time.sleep(1)

            def timings(count):
                series = ("arrivals", "latencies", "frameLatencies")
                values = driver.execute_script("return [" + ", ".join(f"window.inspector.{name}.slice(-{count})" for name in series) + "]")
                return {name: percentiles(value) for name, value in zip(("arrival", "dom", "frame"), values)}

            interval = arguments.interval_ms / 1000
            settle()
            changes(arguments.paced, interval)
            settle()
            baseline = timings(arguments.paced)
            baseline["history"] = int(driver.find_element(By.ID, "timeline").get_attribute("data-count"))
            changes(1000, 0)
            settle()
            changes(arguments.paced, interval)
            settle()
            full = timings(arguments.paced)
            full["history"] = int(driver.find_element(By.ID, "timeline").get_attribute("data-count"))
    finally:
        driver.quit()
    print(json.dumps({"interval_ms": arguments.interval_ms, "baseline": baseline, "full": full}))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    checking = commands.add_parser("check")
    checking.add_argument("--ctl", required=True)
    checking.add_argument("--screenshot")
    measuring = commands.add_parser("measure")
    measuring.add_argument("--paced", type=int, default=300)
    measuring.add_argument("--interval-ms", type=float, default=16)
    for sub in (checking, measuring):
        sub.add_argument("--socket", required=True)
    showing = commands.add_parser("kiosk")
    showing.add_argument("--width", type=int, required=True)
    showing.add_argument("--height", type=int, required=True)
    for sub in (checking, measuring, showing):
        sub.add_argument("--url", required=True)
    arguments = parser.parse_args()
    {"check": check, "measure": measure, "kiosk": kiosk}[arguments.command](arguments)


if __name__ == "__main__":
    main()
