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
import time

import dbus

from logind_bench import logind_setup, parse_arguments, print_row

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
    arguments = parse_arguments(__doc__, changes=300)

    with logind_setup(arguments.appstated, TREES) as setup:
        properties = dbus.Interface(setup.session_object, "org.freedesktop.DBus.Properties")
        samples = {"followed": [], "direct": []}
        for _ in range(arguments.changes):
            now = time.clock_gettime_ns(time.CLOCK_MONOTONIC) // 1000
            properties.Set(SESSION, "IdleSinceHintMonotonic", dbus.UInt64(now - 60_000_000))
            start = time.perf_counter()
            properties.Set(SESSION, "IdleHint", True)
            setup.expect("followed", "Present")
            samples["followed"].append(time.perf_counter() - start)
            properties.Set(SESSION, "IdleHint", False)
            setup.expect("followed", "Dismiss")

            start = time.perf_counter()
            setup.client.call("io.appstate.Present", {"tree": "direct", "id": "attract"})
            setup.expect("direct", "Present")
            samples["direct"].append(time.perf_counter() - start)
            setup.client.call("io.appstate.Dismiss", {"tree": "direct"})
            setup.expect("direct", "Dismiss")
        print_row(f"logind IdleHint → the Present event of the idle step it fires ({arguments.changes} changes, "
                  "durable: one commit each)", "the same Present by a direct Varlink call, interleaved", samples)


if __name__ == "__main__":
    main()
