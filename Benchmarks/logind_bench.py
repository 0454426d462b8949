"""What the logind figures share (Benchmarks/logind-latency.py, Benchmarks/idle-latency.py): a
private system bus with python-dbusmock's logind template on it (seat0, one session of ada), an
appstated on a tree file whose `followed` tree follows seat0 and whose `direct` tree follows
nothing, a Watch stream on each, and the row both print."""
import argparse
import contextlib
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


def parse_arguments(doc, changes):
    """The options both figures take: --appstated and --changes (default `changes`)."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("--appstated", default=str(ROOT / ".build-release" / "release" / "appstated"))
    parser.add_argument("--changes", type=int, default=changes)
    return parser.parse_args()


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

    def next_event(self):
        """The name of this Watch stream's next event."""
        reply = self.receive()
        if "error" in reply:
            raise RuntimeError(f"watch ended: {reply}")
        return reply["parameters"]["event"]["name"]


def wait_until(condition, what, timeout=15):
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise RuntimeError(f"timed out waiting for {what}")
        time.sleep(0.01)


class Setup:
    """The running bus, mock, daemon and watchers of one figure."""

    def __init__(self, bus, session_path, client, watchers):
        self.bus = bus
        self.session_path = session_path
        self.session_object = bus.get_object("org.freedesktop.login1", session_path)
        self.client = client
        self.watchers = watchers

    def expect(self, tree, expected):
        """Reads the tree's next event, which must be `expected`."""
        name = self.watchers[tree].next_event()
        if name != expected:
            raise RuntimeError(f"{tree}: expected {expected}, got {name}")


@contextlib.contextmanager
def logind_setup(appstated, trees):
    """Starts the bus, the logind mock and appstated on `trees` (YAML naming `followed` and
    `direct`), logs `direct` in as ada as logind does `followed`, and opens the watchers;
    stops and removes it all on the way out."""
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
        tree_file = directory / "trees.yaml"
        tree_file.write_text(trees)
        socket_path = str(directory / "io.appstate")
        children.append(subprocess.Popen([appstated, "--socket", socket_path, "--state-dir", str(directory / "state"),
                                          "--tree-file", str(tree_file)], env=environment,
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
        yield Setup(bus, session_path, client, watchers)
    finally:
        for child in reversed(children):
            child.terminate()
            child.wait()
        shutil.rmtree(directory, ignore_errors=True)


def print_row(figure, baseline, samples):
    """Prints the BENCHMARKS.md row of `samples["followed"]` against `samples["direct"]`
    (seconds): p50, p99, max and their ratios."""
    def figures(values):
        ordered = sorted(values)
        at = lambda fraction: ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] * 1000
        return {"p50": at(0.5), "p99": at(0.99), "max": ordered[-1] * 1000}
    followed, direct = figures(samples["followed"]), figures(samples["direct"])
    print(f"| {figure} "
          f"| p50 {followed['p50']:.2f} ms, p99 {followed['p99']:.2f} ms, max {followed['max']:.2f} ms "
          f"| {baseline} "
          f"| p50 {direct['p50']:.2f} ms, p99 {direct['p99']:.2f} ms, max {direct['max']:.2f} ms "
          f"| p50 {followed['p50'] / direct['p50']:.2f}×, p99 {followed['p99'] / direct['p99']:.2f}× | — | — |")
