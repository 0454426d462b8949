#!/usr/bin/env python3
"""Writes Sources/appstated/appstated.order, the order in which the release link lays out
appstated's functions (scripts/build-release): the code a keyboard change and its events to
watchers run, then what a page change adds, then reads, then a one-shot connection, then the
rest of what a start runs.

Between two changes of a UI (16 ms at 60 per second) the machine runs other work, so a change
starts with its code out of the caches and the TLB. Linked in source order, the code a change
runs is spread over the whole binary; laid out hot first, it sits on few pages, so a cold
change misses less.

How: runs a release appstated under valgrind's callgrind, with ten watchers and a logged-in
client, once idle and twice for each workload (5 and 105 rounds); a function whose instruction
count grows with the rounds is hot for the workload, and goes with the first it is hot for.
Symbol names are the linker's (callgrind --demangle=no). A name the next build no longer has is
skipped by the linker (--no-warn-symbol-ordering), so an old order file stays harmless, only
less useful: run this again after large changes to the code a change runs.

    scripts/order-hot-code    builds with scripts/build-release, profiles, writes the file
Needs valgrind (apt-get install valgrind).
"""
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ORDER = os.path.join(ROOT, "Sources", "appstated", "appstated.order")
WATCHERS = 10
ROUNDS = 100
WARM_UP = 5


def frame(method, **parameters):
    return json.dumps({"method": "io.appstate." + method, "parameters": parameters}).encode() + b"\0"


class Connection:
    def __init__(self, path):
        self.socket = socket.socket(socket.AF_UNIX)
        self.socket.connect(path)
        self.buffer = b""

    def send(self, data):
        self.socket.sendall(data)

    def receive(self):
        while b"\0" not in self.buffer:
            chunk = self.socket.recv(65536)
            if not chunk:
                sys.exit("order-hot-code: the daemon closed a connection")
            self.buffer += chunk
        message, _, self.buffer = self.buffer.partition(b"\0")
        reply = json.loads(message)
        if "error" in reply:
            sys.exit(f"order-hot-code: {reply}")
        return reply

    def call(self, data):
        self.send(data)
        return self.receive()


# What a client does, in the order the file lays out their code: the changes a UI makes, with
# their events to watchers, first, since their latency is what a user sees; then reads on a
# connection, then a one-shot connection's (appstatectl's) whole life.
WORKLOADS = {
    "keyboard": [frame("ShowKeyboard", height=300), frame("HideKeyboard")],
    "page": [frame("SetPage", path="session/home/pages", index=1), frame("SetPage", path="session/home/pages", index=0)],
    "read": [frame("GetCurrent"), frame("GetTree")],
    "connect": [frame("GetCurrent")],
}


def profile(daemon, workload, rounds, work):
    """Runs the daemon under callgrind with `rounds` rounds of a workload; returns each
    function's own instruction count."""
    output = os.path.join(work, f"callgrind.{workload}.{rounds}")
    path = os.path.join(work, f"socket.{workload}.{rounds}")
    process = subprocess.Popen(
        ["valgrind", "--tool=callgrind", "--demangle=no", f"--callgrind-out-file={output}",
         daemon, "--socket", path, "--state-dir", os.path.join(work, f"state.{workload}.{rounds}")],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while not os.path.exists(path):
        if process.poll() is not None or time.monotonic() > deadline:
            sys.exit("order-hot-code: the daemon did not start under valgrind")
        time.sleep(0.1)
    watchers = [Connection(path) for _ in range(WATCHERS)]
    for watcher in watchers:
        watcher.send(json.dumps({"method": "io.appstate.Watch", "more": True, "parameters": {}}).encode() + b"\0")
        watcher.receive()
    client = Connection(path)
    client.call(frame("Login", user="order"))
    for watcher in watchers:
        watcher.receive()
    for _ in range(rounds):
        for call in WORKLOADS[workload]:
            if workload == "connect":
                Connection(path).call(call)
                continue
            client.call(call)
            if workload in ("keyboard", "page"):
                for watcher in watchers:
                    watcher.receive()
    process.terminate()
    process.wait()
    return own_costs(output)


def own_costs(path):
    """Each function's own instructions in a callgrind file (calls' costs are the callee's)."""
    names, costs, function, after_calls = {}, {}, None, False
    for line in open(path, encoding="utf-8", errors="replace"):
        match = re.match(r"(c?fn)=\((\d+)\)(?: (.*))?", line)
        if match:
            if match.group(3):
                # Calls within a recursion are counted as `name'2`: one function to the linker.
                names[match.group(2)] = match.group(3).strip().split("'")[0]
            if match.group(1) == "fn":
                function = match.group(2)
            continue
        if line.startswith("calls="):
            after_calls = True
            continue
        fields = line.split()
        if len(fields) == 2 and function and re.match(r"^([+-]?\d+|\*)$", fields[0]):
            if after_calls:
                after_calls = False
            else:
                costs[names[function]] = costs.get(names[function], 0) + int(fields[1])
    return costs


def main():
    if len(sys.argv) > 1:
        sys.exit(__doc__)
    if shutil.which("valgrind") is None:
        sys.exit("order-hot-code: needs valgrind (apt-get install valgrind)")
    build = os.path.join(ROOT, "scripts", "build-release")
    subprocess.run([build, "--product", "appstated"], check=True, stdout=sys.stderr)
    binary = subprocess.run([build, "--show-bin-path"], check=True, capture_output=True, text=True).stdout.strip()
    with tempfile.TemporaryDirectory(prefix="order-hot-code-") as work:
        # valgrind 3.19 cannot read the toolchain's DWARF 5: a copy without it has the symbols.
        daemon = os.path.join(work, "appstated")
        subprocess.run(["strip", "-g", "-o", daemon, os.path.join(binary, "appstated")], check=True)
        idle = profile(daemon, "keyboard", 0, work)
        names, chosen, counts = [], set(), []
        for workload in WORKLOADS:
            # Against a run of a few rounds, not the idle one: what a workload's first round
            # alone runs (a type's metadata made, a cache filled) is not hot.
            warm = profile(daemon, workload, WARM_UP, work)
            busy = profile(daemon, workload, WARM_UP + ROUNDS, work)
            hot = sorted((name for name in busy if name not in chosen and busy[name] - warm.get(name, 0) >= ROUNDS),
                         key=lambda name: warm.get(name, 0) - busy[name])
            names += hot
            chosen.update(hot)
            counts.append(f"{len(hot)} for {workload}")
    start = sorted((name for name in idle if name not in chosen), key=lambda name: -idle[name])
    names = [name for name in names + start if not name.startswith("0x")]
    with open(ORDER, "w") as file:
        file.write("\n".join(names) + "\n")
    # The link does not know the file as an input: remove the binary so that the next
    # release build links it again, in the new order.
    os.remove(os.path.join(binary, "appstated"))
    print(f"order-hot-code: hot functions: {', '.join(counts)}; then {len(start)} more of the start; in {ORDER}", file=sys.stderr)


main()
