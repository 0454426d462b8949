#!/usr/bin/python3
"""From logind's IdleHint to the event of the idle step it fires, beside a direct Present
call, in one run (issue 26).

    Benchmarks/idle-latency.py [--appstated PATH] [--changes N]

It starts a private dbus-daemon standing in for the system bus, python-dbusmock's logind
template on it (seat0, one session of ada), and appstated with a tree file of two trees, each
with an attract screen its root may present: `followed` follows logind's seat0 and presents
it after 30 s idle; `direct` follows nothing. Two Watch streams follow them. Then, N times
each and interleaved so that both see the same machine:

- idle: with the session's IdleSinceHintMonotonic a minute back, `IdleHint` set to true on the
  mock; the clock runs from just before the call to the receipt of the `followed` watcher's
  Present event: the mock's PropertiesChanged, the follower's thread, the main actor, the idle
  clock firing the step, the durable commit and the fan-out. Then IdleHint false, activity,
  dismisses it.
- direct: `Present` on the `direct` tree over Varlink, from just before the call to the
  receipt of the `direct` watcher's event: the same durable commit and fan-out. Then Dismiss.

It prints p50, p99 and max of both, and their ratio, as a row for BENCHMARKS.md. It needs the
system's Python (/usr/bin/python3) with Debian's python3-dbusmock and python3-dbus
(`scripts/install-deps --test`), and an appstated (default: `make release`'s, in .build-release).
"""
import argparse
import importlib.util
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time

import dbus

ROOT = pathlib.Path(__file__).resolve().parent.parent
# The raw Varlink connection and the helpers of the LockedHint figure, shared.
_spec = importlib.util.spec_from_file_location("logind_latency", ROOT / "Benchmarks" / "logind-latency.py")
logind_latency = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(logind_latency)
Varlink, wait_until, next_event, percentile = (logind_latency.Varlink, logind_latency.wait_until,
                                               logind_latency.next_event, logind_latency.percentile)

TREES = """trees:
  - name: followed
    logindSeat: seat0
    root:
      type: LoginStateController
      id: session
      children: [{ type: Controller, id: welcome }, { type: Controller, id: home }]
    presentations: [{ type: Controller, id: attract }]
    idle:
      - { after: 30, present: attract }
  - name: direct
    root:
      type: LoginStateController
      id: session
      children: [{ type: Controller, id: welcome }, { type: Controller, id: home }]
    presentations: [{ type: Controller, id: attract }]
"""
SESSION = "org.freedesktop.login1.Session"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--appstated", default=str(ROOT / ".build-release" / "release" / "appstated"))
    parser.add_argument("--changes", type=int, default=300)
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
        session_object = bus.get_object("org.freedesktop.login1", session_path)
        properties = dbus.Interface(session_object, "org.freedesktop.DBus.Properties")

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

        def expect(tree, expected):
            name = next_event(watchers[tree])
            if name != expected:
                raise RuntimeError(f"{tree}: expected {expected}, got {name}")

        samples = {"followed": [], "direct": []}
        for _ in range(arguments.changes):
            now = time.clock_gettime_ns(time.CLOCK_MONOTONIC) // 1000
            properties.Set(SESSION, "IdleSinceHintMonotonic", dbus.UInt64(now - 60_000_000))
            start = time.perf_counter()
            properties.Set(SESSION, "IdleHint", True)
            expect("followed", "Present")
            samples["followed"].append(time.perf_counter() - start)
            properties.Set(SESSION, "IdleHint", False)
            expect("followed", "Dismiss")

            start = time.perf_counter()
            client.call("io.appstate.Present", {"tree": "direct", "id": "attract"})
            expect("direct", "Present")
            samples["direct"].append(time.perf_counter() - start)
            client.call("io.appstate.Dismiss", {"tree": "direct"})
            expect("direct", "Dismiss")

        def figures(values):
            return {"p50": percentile(values, 0.5) * 1000, "p99": percentile(values, 0.99) * 1000, "max": max(values) * 1000}
        followed, direct = figures(samples["followed"]), figures(samples["direct"])
        print(f"| logind IdleHint → the Present event of the idle step it fires ({arguments.changes} changes, durable: one commit each) "
              f"| p50 {followed['p50']:.2f} ms, p99 {followed['p99']:.2f} ms, max {followed['max']:.2f} ms "
              f"| the same Present by a direct Varlink call, interleaved "
              f"| p50 {direct['p50']:.2f} ms, p99 {direct['p99']:.2f} ms, max {direct['max']:.2f} ms "
              f"| p50 {followed['p50'] / direct['p50']:.2f}×, p99 {followed['p99'] / direct['p99']:.2f}× | — | — |")
    finally:
        for child in reversed(children):
            child.terminate()
            child.wait()
        shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    main()
