#!/usr/bin/env python3
"""appstate-kiosk's figures: a change of the current path to the browser's navigation
committed, beside chromium navigating to the same page by itself; and appstate-kiosk's idle
memory beside the daemon's. Prints JSON on stdout (scripts/benchmark-kiosk writes the rows).

    kiosk_navigation.py --appstated BIN --kiosk BIN [--trials N]

Both browsers are Debian's chromium, headless, with appstate-kiosk's own arguments, on the
same page server, in the same run, their trials interleaved so that both meet the same load:

- appstate-kiosk: SetPage over a raw Varlink connection turns between two pages whose nodes
  have different urls; the time runs from the call's write to the new page's first script,
  on the wall clock (performance.timeOrigin + performance.now(), which chromium takes from it).
- the floor: a second chromium, driven by this script over its own --remote-debugging-pipe,
  sent Page.navigate to the same two pages: from the command's write to the same first script.

Then its recovery, each over --recovery-trials (20) with the kiosk's --hang-timeout at 2 s:
- the renderer killed (SIGKILL) → the current page's first script again;
- the renderer stopped (SIGSTOP) → the same, after a reload or a restart;
- the browser killed → the same, in a new browser;
- the floor: chromium started cold on the same page, from its start to the same first script.
"""
import argparse
import http.server
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time

PAGE = b"""<!doctype html><html><head><script>
fetch("/committed?page=" + location.pathname + "&t=" + (performance.timeOrigin + performance.now()));
</script></head><body>page</body></html>"""
ARGUMENTS = ["--headless=new", "--no-sandbox", "--kiosk", "--no-first-run", "--no-default-browser-check", "--noerrdialogs",
             "--disable-session-crashed-bubble", "--password-store=basic", "--disable-features=Translate"]


class Pages(http.server.BaseHTTPRequestHandler):
    committed = {}
    lock = threading.Condition()

    def log_message(self, *arguments):
        pass

    def do_GET(self):
        if self.path.startswith("/committed?"):
            query = dict(part.split("=", 1) for part in self.path.split("?", 1)[1].split("&"))
            with Pages.lock:
                Pages.committed.setdefault(query["page"], []).append(float(query["t"]) / 1000)
                Pages.lock.notify_all()
            self.send_response(204)
            self.end_headers()
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Cache-Control", "no-store")
        self.send_header("Content-Length", str(len(PAGE)))
        self.end_headers()
        self.wfile.write(PAGE)


def wait_commit(page, count, timeout=20):
    """The wall-clock time of `page`'s commit number `count`."""
    with Pages.lock:
        if not Pages.lock.wait_for(lambda: len(Pages.committed.get(page, [])) >= count, timeout):
            sys.exit(f"kiosk_navigation: {page} did not commit")
        return Pages.committed[page][count - 1]


class Floor:
    """chromium alone, driven over its DevTools pipe."""

    def __init__(self, work):
        to_browser, self.commands = os.pipe()
        self.messages, from_browser = os.pipe()
        moved = {to_browser: 3, from_browser: 4}

        def descriptors():
            for source, target in moved.items():
                os.dup2(source, target)
        self.process = subprocess.Popen(["chromium", *ARGUMENTS, f"--user-data-dir={work}/floor", "--remote-debugging-pipe",
                                         "about:blank"], pass_fds=(3, 4), preexec_fn=descriptors,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_browser)
        os.close(from_browser)
        self.buffer, self.next = b"", 0
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        self.call("Page.enable", session=self.session)

    def send(self, method, parameters=None, session=None):
        self.next += 1
        message = {"id": self.next, "method": method, "params": parameters or {}}
        if session:
            message["sessionId"] = session
        os.write(self.commands, json.dumps(message).encode() + b"\0")
        return self.next

    def call(self, method, parameters=None, session=None):
        identifier = self.send(method, parameters, session)
        while True:
            while b"\0" in self.buffer:
                frame, self.buffer = self.buffer.split(b"\0", 1)
                message = json.loads(frame)
                if message.get("id") == identifier:
                    return message.get("result", {})
            self.buffer += os.read(self.messages, 1 << 16)

    def stop(self):
        self.process.kill()
        self.process.wait()


def varlink(path, method, parameters):
    with socket.socket(socket.AF_UNIX) as connection:
        connection.connect(path)
        began = time.time()
        connection.sendall(json.dumps({"method": method, "parameters": parameters}).encode() + b"\0")
        reply = b""
        while not reply.endswith(b"\0"):
            reply += connection.recv(65536)
        if "error" in json.loads(reply[:-1]):
            sys.exit(f"kiosk_navigation: {method} answered {reply!r}")
        return began


def below(pid):
    """The command lines of the processes below `pid`, by process id."""
    table = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                stat = open(f"/proc/{name}/stat").read()
                command = open(f"/proc/{name}/cmdline").read().replace("\0", " ")
            except OSError:
                continue
            table[int(name)] = (int(stat[stat.rindex(")") + 2:].split()[1]), command)
    found, grew = {pid}, True
    while grew:
        grew = False
        for child, (parent, _) in table.items():
            if parent in found and child not in found:
                found.add(child)
                grew = True
    return {child: table[child][1] for child in found if child != pid and child in table}


def renderers(kiosk):
    return [pid for pid, command in below(kiosk).items() if "--type=renderer" in command and "--top-chrome-webui" not in command]


def browser_of(kiosk):
    return next(pid for pid, command in below(kiosk).items() if "--type=" not in command and "chromium" in command)


def recovery(kiosk_pid, base, work, trials):
    """Seconds from each failure to the current page's first script again, and chromium's cold starts."""
    import signal
    times = {"renderer killed": [], "renderer stopped": [], "browser killed": [], "cold start": []}
    page = "/kiosk-a"
    for trial in range(trials):
        for what in ("renderer killed", "renderer stopped", "browser killed"):
            count = len(Pages.committed.get(page, []))
            began = time.time()
            if what == "browser killed":
                os.kill(browser_of(kiosk_pid), signal.SIGKILL)
            else:
                for pid in renderers(kiosk_pid):
                    os.kill(pid, signal.SIGKILL if what == "renderer killed" else signal.SIGSTOP)
            times[what].append(wait_commit(page, count + 1, timeout=60) - began)
            time.sleep(0.5)
        began = time.time()
        cold = subprocess.Popen(["chromium", *ARGUMENTS, f"--user-data-dir={work}/cold-{trial}", f"{base}/cold"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times["cold start"].append(wait_commit("/cold", trial + 1, timeout=60) - began)
        cold.kill()
        cold.wait()
    return {what: percentiles(values) for what, values in times.items()}


def resident_kib(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def percentiles(values):
    ordered = sorted(values)
    at = lambda fraction: ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]
    return {"p50": at(0.5) * 1000, "p99": at(0.99) * 1000, "max": ordered[-1] * 1000, "count": len(ordered)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--appstated", required=True)
    parser.add_argument("--kiosk", required=True)
    parser.add_argument("--trials", type=int, default=200)
    parser.add_argument("--recovery-trials", type=int, default=20)
    arguments = parser.parse_args()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Pages)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    work = tempfile.mkdtemp(prefix="kiosk-navigation-")
    tree = os.path.join(work, "tree.yaml")
    with open(tree, "w") as file:
        file.write(f"""version: 1
trees:
  - name: kiosk
    window: {{ width: 1280, height: 800 }}
    root:
      type: PaginatedController
      id: pages
      children:
        - {{ type: Controller, id: a, url: "{base}/kiosk-a" }}
        - {{ type: Controller, id: b, url: "{base}/kiosk-b" }}
""")
    socket_path = os.path.join(work, "io.appstate")
    daemon = subprocess.Popen([arguments.appstated, "--socket", socket_path, "--state-dir", os.path.join(work, "state"),
                               "--tree-file", tree], stderr=subprocess.DEVNULL)
    kiosk = floor = None
    try:
        while not os.path.exists(socket_path):
            time.sleep(0.01)
        kiosk = subprocess.Popen([arguments.kiosk, "--socket", socket_path, "--browser-arg=--headless=new",
                                  "--browser-arg=--no-sandbox", f"--browser-arg=--user-data-dir={work}/kiosk",
                                  "--liveness-interval", "0.5", "--hang-timeout", "2", "--max-restarts", "1000"],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_commit("/kiosk-a", 1)
        floor = Floor(work)
        time.sleep(1)
        kiosk_times, floor_times = [], []
        for trial in range(arguments.trials):
            page = "b" if trial % 2 == 0 else "a"
            count = trial // 2 + 1 + (1 if page == "a" else 0)
            began = varlink(socket_path, "io.appstate.SetPage", {"id": page})
            kiosk_times.append(wait_commit(f"/kiosk-{page}", count) - began)
            began = time.time()
            floor.send("Page.navigate", {"url": f"{base}/floor-{page}"}, floor.session)
            floor_times.append(wait_commit(f"/floor-{page}", trial // 2 + 1) - began)
            time.sleep(0.05)
        time.sleep(2)
        kiosk_rss = resident_kib(kiosk.pid)
        if trials_left := arguments.recovery_trials:
            if arguments.trials % 2:
                varlink(socket_path, "io.appstate.SetPage", {"id": "a"})
            recovered = recovery(kiosk.pid, base, work, trials_left)
        else:
            recovered = {}
        print(json.dumps({
            "trials": arguments.trials,
            "kiosk": percentiles(kiosk_times),
            "floor": percentiles(floor_times),
            "kiosk_idle_rss_kib": kiosk_rss,
            "hang_timeout_ms": 2000,
            "recovery": recovered,
            "daemon_idle_rss_kib": resident_kib(daemon.pid),
        }))
    finally:
        for process in (kiosk, daemon):
            if process:
                process.terminate()
                process.wait()
        if floor:
            floor.stop()
        server.shutdown()


if __name__ == "__main__":
    main()
