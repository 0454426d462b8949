#!/usr/bin/python3
"""From a logind property change on the bus to a watcher's event, beside the same change made
by a direct Varlink call, in one run (issue 12).

    Benchmarks/logind-latency.py [--appstated PATH] [--changes N]

It starts a private dbus-daemon standing in for the system bus, python-dbusmock's logind
template on it (seat0, one session of ada), and appstated with a tree file of two trees:
`followed` follows logind's seat0, `direct` follows nothing. Two Watch streams follow them.
Then, N times each and interleaved so that both see the same machine:

- logind: `SetLockedHint(true/false)` on ada's session, called on the mock with dbus-python;
  the clock runs from just before the call to the receipt of the `followed` watcher's
  Lock/Unlock event: the mock's PropertiesChanged, the follower's thread, the main actor, the
  durable commit and the fan-out.
- direct: `Lock`/`Unlock` on the `direct` tree over Varlink, from just before the call to the
  receipt of the `direct` watcher's event: the same durable commit and fan-out.

It prints p50, p99 and max of both, and their ratio, as rows for BENCHMARKS.md. It needs the
system's Python (/usr/bin/python3) with Debian's python3-dbusmock and python3-dbus
(`scripts/install-deps --test`), and an appstated (default: `make release`'s, in .build-release).
"""
import argparse
import json
import os
import pathlib
import shutil
import socket
import subprocess
import sys
import tempfile
import time

import dbus

ROOT = pathlib.Path(__file__).resolve().parent.parent
TREES = """trees:
  - name: followed
    logindSeat: seat0
    root:
      type: LoginStateController
      id: session
      children: [{ type: Controller, id: welcome }, { type: Controller, id: home }]
  - name: direct
    root:
      type: LoginStateController
      id: session
      children: [{ type: Controller, id: welcome }, { type: Controller, id: home }]
"""


class Varlink:
    """A raw Varlink connection: NUL-terminated JSON frames on a Unix socket."""

    def __init__(self, path):
        self.socket = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.socket.connect(path)
        self.buffer = b""

    def send(self, method, parameters=None, more=False):
        message = {"method": method, "parameters": parameters or {}}
        if more:
            message["more"] = True
        self.socket.sendall(json.dumps(message).encode() + b"\0")

    def receive(self, timeout=10):
        self.socket.settimeout(timeout)
        while b"\0" not in self.buffer:
            chunk = self.socket.recv(65536)
            if not chunk:
                raise RuntimeError("the daemon closed the connection")
            self.buffer += chunk
        frame, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(frame)

    def call(self, method, parameters=None):
        self.send(method, parameters)
        reply = self.receive()
        if "error" in reply:
            raise RuntimeError(f"{method}: {reply}")
        return reply.get("parameters", {})


def wait_until(condition, what, timeout=15):
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise RuntimeError(f"timed out waiting for {what}")
        time.sleep(0.01)


def next_event(watcher):
    """The name of the watcher's next event."""
    reply = watcher.receive()
    if "error" in reply:
        raise RuntimeError(f"watch ended: {reply}")
    return reply["parameters"]["event"]["name"]


def percentile(samples, fraction):
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--appstated", default=str(ROOT / ".build-release" / "release" / "appstated"))
    parser.add_argument("--changes", type=int, default=1000)
    arguments = parser.parse_args()

    directory = pathlib.Path(tempfile.mkdtemp(prefix="as-bench-"))
    children = []
    try:
        bus_path = directory / "system"
        address = f"unix:path={bus_path}"
        environment = dict(os.environ, DBUS_SYSTEM_BUS_ADDRESS=address)
        children.append(subprocess.Popen(["dbus-daemon", "--session", "--nofork", "--nopidfile", f"--address={address}"],
                                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        wait_until(bus_path.exists, "dbus-daemon")
        children.append(subprocess.Popen([sys.executable, "-m", "dbusmock", "--system", "--template", "logind"],
                                         env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        bus = dbus.bus.BusConnection(address)
        wait_until(lambda: bus.name_has_owner("org.freedesktop.login1"), "the logind mock")
        manager = bus.get_object("org.freedesktop.login1", "/org/freedesktop/login1")
        session_path = manager.AddSession("c1", "seat0", dbus.UInt32(1000), "ada", True,
                                          dbus_interface="org.freedesktop.DBus.Mock")
        session = dbus.Interface(bus.get_object("org.freedesktop.login1", session_path), "org.freedesktop.login1.Session")

        trees = directory / "trees.yaml"
        trees.write_text(TREES)
        socket_path = str(directory / "io.appstate")
        children.append(subprocess.Popen([arguments.appstated, "--socket", socket_path, "--state-dir", str(directory / "state"),
                                          "--tree-file", str(trees)], env=environment,
                                         stdout=subprocess.DEVNULL, stderr=open(directory / "stderr.log", "w")))
        wait_until(lambda: os.path.exists(socket_path), "appstated")
        client = Varlink(socket_path)
        wait_until(lambda: client.call("io.appstate.GetTree", {"tree": "followed"})["root"].get("user") == "ada",
                   "the followed tree logged in as ada")
        client.call("io.appstate.Login", {"tree": "direct", "user": "ada"})
        watchers = {}
        for tree in ("followed", "direct"):
            watchers[tree] = Varlink(socket_path)
            watchers[tree].send("io.appstate.Watch", {"tree": tree}, more=True)
            watchers[tree].receive()

        samples = {"followed": [], "direct": []}
        for index in range(arguments.changes):
            locked = index % 2 == 0
            expected = "Lock" if locked else "Unlock"
            start = time.perf_counter()
            session.SetLockedHint(locked)
            name = next_event(watchers["followed"])
            samples["followed"].append(time.perf_counter() - start)
            if name != expected:
                raise RuntimeError(f"followed: expected {expected}, got {name}")
            start = time.perf_counter()
            client.call("io.appstate." + expected, {"tree": "direct"})
            name = next_event(watchers["direct"])
            samples["direct"].append(time.perf_counter() - start)
            if name != expected:
                raise RuntimeError(f"direct: expected {expected}, got {name}")

        def figures(values):
            return {"p50": percentile(values, 0.5) * 1000, "p99": percentile(values, 0.99) * 1000, "max": max(values) * 1000}
        followed, direct = figures(samples["followed"]), figures(samples["direct"])
        print(f"| logind LockedHint change → watcher event ({arguments.changes} changes, durable: one commit each) "
              f"| p50 {followed['p50']:.2f} ms, p99 {followed['p99']:.2f} ms, max {followed['max']:.2f} ms "
              f"| the same Lock/Unlock by a direct Varlink call, interleaved "
              f"| p50 {direct['p50']:.2f} ms, p99 {direct['p99']:.2f} ms, max {direct['max']:.2f} ms "
              f"| p50 {followed['p50'] / direct['p50']:.2f}×, p99 {followed['p99'] / direct['p99']:.2f}× | — | — |")
    finally:
        for child in reversed(children):
            child.terminate()
            child.wait()
        shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    main()
