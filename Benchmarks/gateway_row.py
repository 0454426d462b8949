#!/usr/bin/env python3
"""The gateway's rows of BENCHMARKS.md's targets table, from the JSON that
`Tests/Browser/kiosk_browser.py measure` prints (read on stdin).

    gateway_row.py --build release                 prints the rows
    gateway_row.py --build debug --write FILE      also puts them in the targets table kept in FILE
                                                   (Benchmarks/results.json), in
                                                   place of earlier gateway rows or after the
                                                   table's last row, saying when and at which
                                                   commit they ran (they ran alone), and writes
                                                   BENCHMARKS.md and its pages again

The page's figure is from the moment the Python varlink client sends ShowKeyboard (its wall
clock) to the kiosk page's <html> updated by appstate.js (a MutationObserver in the page, on
chromium's performance.timeOrigin + performance.now(), the same wall clock), p99 over every
change in every page open; the baseline is the same change reaching an `appstatectl watch
--json` started in the same run, timed when the benchmark reads its line. The target is both
one frame at 60 Hz and at most twice the baseline. Beside each, with no target, the same change
reaching a plain HTTP client that reads the gateway's `GET /watch` stream (the gateway's own
share of the page's time), and chromium's floor: the same tabs on a page with none of appstate.js,
a bare EventSource of a second gateway that writes the height on <html>. The memory row is the gateway's VmRSS once
socket-activated and idle (one request answered, no page following), beside the daemon's.
"""
from browser_rows import alone_note, main, ms

FRAME_MS = 1000 / 60
RATIO = 2.0
PREFIXES = ("| kiosk page update through appstate-gateway", "| appstate-gateway idle memory", "| appstate-gateway alone",
            "| chromium's floor")
BASELINE = "the same move reaching `appstatectl watch --json`, same run"


def mib(kib):
    return f"{kib / 1024:.1f} MiB"


def open_pages(count):
    return f"{count} page{'s' * (count > 1)} open"


def rows(timings, build, alone):
    note = alone_note("scripts/benchmark-gateway") if alone else ""
    lines = []
    for run in timings["runs"]:
        kiosk, floor, pages = run["page"], run["floor"], open_pages(run["pages"])
        page, watch = kiosk["page"], kiosk["watch"]
        figure = (f"{PREFIXES[0]}, {pages}: a keyboard move from the call to the page's <html> updated, in headless chromium "
                  f"({run['changes']} changes every {timings['interval_ms']:g} ms, {page['count']} page updates; {build} build{note})")
        baseline = f"p99 {ms(watch['p99'])} (p50 {ms(watch['p50'])})"
        ratio = page["p99"] / watch["p99"]
        met = page["p99"] <= FRAME_MS and ratio <= RATIO
        lines.append(f"{figure} | p99 {ms(page['p99'])} (p50 {ms(page['p50'])}, max {ms(page['max'])}) | {BASELINE} | {baseline} "
                     f"| {ratio:.2f}× | p99 ≤ 16.7 ms (one frame) and ≤ 2× the watcher | {'met' if met else '**not met**'} |")
        stream = kiosk["stream"]
        lines.append(f"{PREFIXES[2]}, {pages}: the same move reaching a plain HTTP client's `GET /watch` event stream, no browser "
                     f"| p99 {ms(stream['p99'])} (p50 {ms(stream['p50'])}) | {BASELINE} | {baseline} | {stream['p99'] / watch['p99']:.2f}× | — | — |")
        bare, bare_watch = floor["page"], floor["watch"]
        lines.append(f"{PREFIXES[3]}, {pages}: the same move to <html> of a page with none of appstate.js (a bare EventSource "
                     f"writing the height), same tabs, right after | p99 {ms(bare['p99'])} (p50 {ms(bare['p50'])}) | {BASELINE} "
                     f"| p99 {ms(bare_watch['p99'])} (p50 {ms(bare_watch['p50'])}) | {bare['p99'] / bare_watch['p99']:.2f}× | — | — |")
    idle, daemon = timings["idle_rss_kib"], timings["daemon_idle_rss_kib"]
    lines.append(f"{PREFIXES[1]}: VmRSS socket-activated, one request answered, no page following ({build} build{note}) "
                 f"| {mib(idle)} | appstated's VmRSS, idle, same run | {mib(daemon)} | {idle / daemon:.2f}× | — | — |")
    return lines


if __name__ == "__main__":
    main(__doc__, PREFIXES, rows)
