#!/usr/bin/env python3
"""Writes the order in which the release link lays out appstated's functions
(scripts/build-release, which runs this when the daemon it builds has no order yet): the code a
keyboard change and its events to watchers run, then what a page change adds, then reads, then
a one-shot connection, then the rest of what a start runs.

Between two changes of a UI the machine runs other work, so a change starts with its code out
of the caches and the TLB. Linked in source order, the code a change runs is spread over the
whole binary; laid out hot first, it sits on few pages, so a cold change misses less.

How: runs the given appstated under valgrind's callgrind, with WATCHERS watchers and a
logged-in client, once idle and twice for each workload (WARM_UP rounds, and ROUNDS more); a
function whose instruction count grows with the rounds is hot for the workload, and goes with
the first it is hot for. Only the daemon's own functions are written, by the linker's names
(callgrind --demangle=no): those of the shared libraries it loads are not the link's to lay out.
The binary to profile is the one the order is for, linked without an order (callgrind counts
instructions, which the layout does not change), so every name is one the ordered link has.

    Benchmarks/order_hot_code.py BINARY OUTPUT    profiles BINARY, writes its order to OUTPUT
Needs valgrind (scripts/install-deps --release installs it).
"""
import argparse
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time

WATCHERS = 10
ROUNDS = 100
WARM_UP = 5


def frame(method, **parameters):
    return json.dumps({"method": "io.appstate." + method, "parameters": parameters}).encode() + b"\0"


class Connection:
    def __init__(self, path):
        self.socket = socket.socket(socket.AF_UNIX)
        try:
            self.socket.connect(path)
        except OSError:
            self.socket.close()
            raise
        self.buffer = b""

    def send(self, data):
        self.socket.sendall(data)

    def receive(self):
        while b"\0" not in self.buffer:
            chunk = self.socket.recv(65536)
            if not chunk:
                sys.exit("order_hot_code: the daemon closed a connection")
            self.buffer += chunk
        message, _, self.buffer = self.buffer.partition(b"\0")
        reply = json.loads(message)
        if "error" in reply:
            sys.exit(f"order_hot_code: {reply}")
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
    # Stopped however the run ends, so that no daemon outlives a failed profile.
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                first = Connection(path)
                break
            except (FileNotFoundError, ConnectionRefusedError):
                # The socket's file appears when the daemon binds it, before it listens.
                if process.poll() is not None or time.monotonic() > deadline:
                    sys.exit("order_hot_code: the daemon did not start under valgrind")
                time.sleep(0.1)
        watchers = [first] + [Connection(path) for _ in range(WATCHERS - 1)]
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
    finally:
        process.terminate()
        process.wait()
    return own_costs(output, daemon)


def own_costs(path, binary):
    """Each function's own instructions in a callgrind file (calls' costs are the callee's),
    for the functions of `binary` alone."""
    binary = os.path.realpath(binary)
    objects, names, costs, function, after_calls = {}, {}, {}, None, False
    mine = False
    for line in open(path, encoding="utf-8", errors="replace"):
        match = re.match(r"(c?ob)=\((\d+)\)(?: (.*))?", line)
        if match:
            # An object is named where it first appears, as a caller's or a callee's.
            if match.group(3):
                objects[match.group(2)] = os.path.realpath(match.group(3).strip())
            if match.group(1) == "ob":
                mine = objects.get(match.group(2)) == binary
            continue
        match = re.match(r"(c?fn)=\((\d+)\)(?: (.*))?", line)
        if match:
            if match.group(3):
                # Calls within a recursion are counted as `name'2`: one function to the linker.
                names[match.group(2)] = match.group(3).strip().split("'")[0]
            if match.group(1) == "fn":
                function = match.group(2) if mine else None
            continue
        if line.startswith("calls="):
            after_calls = True
            continue
        fields = line.split()
        if len(fields) == 2 and re.match(r"^([+-]?\d+|\*)$", fields[0]):
            if after_calls:
                after_calls = False
            elif function:
                costs[names[function]] = costs.get(names[function], 0) + int(fields[1])
    return costs


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binary", help="the release appstated to profile, linked without an order")
    parser.add_argument("output", help="where to write the order, one symbol name a line, hot first")
    arguments = parser.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("order_hot_code: needs valgrind (scripts/install-deps --release installs it)")
    began = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="order_hot_code-") as work:
        # valgrind 3.19 cannot read the toolchain's DWARF 5: a copy without it has the symbols.
        daemon = os.path.join(work, "appstated")
        subprocess.run(["strip", "-g", "-o", daemon, arguments.binary], check=True)
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
    # Not names of the link: code without a symbol (0x…) and valgrind's "(below main)".
    names = [name for name in names + start if not name.startswith(("0x", "("))]
    with open(arguments.output, "w") as file:
        file.write("\n".join(names) + "\n")
    print(f"order_hot_code: hot functions: {', '.join(counts)}; then {len(start)} more of the start; "
          f"profiled in {time.monotonic() - began:.0f} s", file=sys.stderr)


main()
