#!/usr/bin/env python3
"""appstate-kiosk's rows of BENCHMARKS.md's targets table, from the JSON that
`Benchmarks/kiosk_navigation.py` prints (read on stdin).

    kiosk_row.py --build release                 prints the rows
    kiosk_row.py --build debug --write FILE      also puts them in FILE's targets table

The navigation row's figure runs from SetPage's write on a Varlink connection to the new
page's first script in the browser appstate-kiosk drives; its baseline is chromium navigating
to the same page by itself (Page.navigate on its own DevTools pipe) in the same run, trials
interleaved. The target is p99 ≤ 1.5× the floor. The memory row is appstate-kiosk's own VmRSS
(not its browser's), idle after the trials, beside the daemon's.
"""
from browser_rows import alone_note, main, ms

RATIO = 1.5
PREFIXES = ("| current-path change to the kiosk browser's navigation", "| appstate-kiosk idle memory")


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
    return lines


if __name__ == "__main__":
    main(__doc__, PREFIXES, rows)
