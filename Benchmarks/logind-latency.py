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
import time

from logind_bench import logind_setup, parse_arguments, print_row

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


def main():
    arguments = parse_arguments(__doc__, changes=1000)

    with logind_setup(arguments.appstated, TREES) as setup:
        session = setup.session_object
        samples = {"followed": [], "direct": []}
        for index in range(arguments.changes):
            locked = index % 2 == 0
            expected = "Lock" if locked else "Unlock"
            start = time.perf_counter()
            session.SetLockedHint(locked, dbus_interface="org.freedesktop.login1.Session")
            setup.expect("followed", expected)
            samples["followed"].append(time.perf_counter() - start)
            start = time.perf_counter()
            setup.client.call("io.appstate." + expected, {"tree": "direct"})
            setup.expect("direct", expected)
            samples["direct"].append(time.perf_counter() - start)
        print_row(f"logind LockedHint change → watcher event ({arguments.changes} changes, durable: one commit each)",
                  "the same Lock/Unlock by a direct Varlink call, interleaved", samples)


if __name__ == "__main__":
    main()
