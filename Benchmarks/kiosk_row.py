#!/usr/bin/env python3
"""appstate-kiosk's rows of BENCHMARKS.md's targets table, from the JSON that
`Benchmarks/kiosk_navigation.py` prints (read on stdin).

    kiosk_row.py --build release                 prints the rows
    kiosk_row.py --build debug --write FILE      also puts them in FILE's targets table

The navigation row's figure runs from SetPage's write on a Varlink connection to the new
page's first script in the browser appstate-kiosk drives; its baseline is chromium navigating
to the same page by itself (Page.navigate on its own DevTools pipe) in the same run, trials
interleaved. The target is p99 ≤ 1.5× the floor. The memory row is appstate-kiosk's own VmRSS
(not its browser's), idle after the trials, beside the daemon's. The recovery rows run from the
renderer killed or stopped, or the browser killed, to the current page's first script again,
beside chromium's own cold start to the same page; the stopped renderer's ratio is taken after
the hang timeout, which its target allows.
"""
from browser_rows import alone_note, main, ms

RATIO = 1.5
PREFIXES = ("| current-path change to the kiosk browser's navigation", "| appstate-kiosk idle memory", "| appstate-kiosk recovery")


def rows(timings, build, alone):
    note = alone_note("scripts/benchmark-kiosk") if alone else ""
    kiosk, floor = timings["kiosk"], timings["floor"]
    ratio = kiosk["p99"] / floor["p99"]
    lines = [
        f"{PREFIXES[0]} committed, headless chromium ({timings['trials']} page turns; {build} build{note}) "
        f"| p99 {ms(kiosk['p99'])} (p50 {ms(kiosk['p50'])}, max {ms(kiosk['max'])}) "
        f"| chromium navigating to the same page by itself (Page.navigate on its own pipe), same run "
        f"| p99 {ms(floor['p99'])} (p50 {ms(floor['p50'])}) | {ratio:.2f}× | p99 ≤ 1.5× the floor "
        f"| {'met' if ratio <= RATIO else '**not met**'} |",
        f"{PREFIXES[1]}: VmRSS of appstate-kiosk itself, following a tree, idle ({build} build{note}) "
        f"| {timings['kiosk_idle_rss_kib'] / 1024:.1f} MiB | appstated's VmRSS, idle, same run "
        f"| {timings['daemon_idle_rss_kib'] / 1024:.1f} MiB | {timings['kiosk_idle_rss_kib'] / timings['daemon_idle_rss_kib']:.2f}× | — | — |",
    ]
    recovery = timings.get("recovery", {})
    floor = recovery.get("cold start")
    for what in ("renderer killed", "renderer stopped", "browser killed"):
        if what not in recovery or not floor:
            continue
        figure = recovery[what]
        # A stopped renderer is known only once the hang timeout has passed: the target allows it.
        allowance = timings["hang_timeout_ms"] if what == "renderer stopped" else 0
        ratio = (figure["p99"] - allowance) / floor["p99"]
        target = f"≤ the hang timeout ({allowance / 1000:g} s) + 1.5× the floor" if allowance else "≤ 1.5× the floor"
        lines.append(
            f"{PREFIXES[2]}: {what} → the current page's first script again, headless chromium ({figure['count']} trials; "
            f"{build} build{note}) | p99 {ms(figure['p99'])} (p50 {ms(figure['p50'])}) "
            f"| chromium's own cold start to the same page, same run | p99 {ms(floor['p99'])} (p50 {ms(floor['p50'])}) "
            f"| {ratio:.2f}× | {target} | {'met' if ratio <= RATIO else '**not met**'} |")
    return lines


if __name__ == "__main__":
    main(__doc__, PREFIXES, rows)
