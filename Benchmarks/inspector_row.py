#!/usr/bin/env python3
"""The inspector's row of BENCHMARKS.md's targets table, from the JSON that
`Tests/Browser/inspector_browser.py measure` prints (read on stdin).

    inspector_row.py --build release                 prints the row
    inspector_row.py --build debug --write FILE      also puts it in the targets table kept in FILE
                                                     (Benchmarks/results.json), in
                                                     place of an earlier inspector row or after
                                                     the table's last row, saying when and at
                                                     which commit it ran (it ran alone), and writes
                                                     BENCHMARKS.md and its pages again

The figure is the page's own timing (window.inspector in inspector.html): from the Watch reply
reaching appstate-inspect (its wall clock, stamped in the entry) to the page's DOM updated
(chromium's performance.timeOrigin + performance.now(), the same wall clock), p99 over the
paced changes with the history full; the baseline is the same measurement with a short history.
"""
from browser_rows import alone_note, main, ms

FRAME_MS = 1000 / 60
PREFIX = "| inspector page update"


def rows(timings, build, alone):
    full, base = timings["full"], timings["baseline"]
    interval = timings["interval_ms"]
    figure = (f"{PREFIX}, {full['history']:,} events in its history, a change every {interval:g} ms: from the Watch "
              f"reply reaching appstate-inspect to the page's DOM updated, in headless chromium "
              f"({full['dom']['count']} changes; {build} build")
    if alone:
        figure += alone_note("scripts/benchmark-inspector")
    figure += ")"
    value = (f"p99 {ms(full['dom']['p99'])} (p50 {ms(full['dom']['p50'])}, max {ms(full['dom']['max'])}; "
             f"reaching the page p99 {ms(full['arrival']['p99'])}; to the next frame p99 {ms(full['frame']['p99'])})")
    baseline = f"p99 {ms(base['dom']['p99'])} (p50 {ms(base['dom']['p50'])})"
    ratio = full["dom"]["p99"] / base["dom"]["p99"]
    met = full["dom"]["p99"] <= FRAME_MS
    return [f"{figure} | {value} | the same with a short history ({base['history']} events) | {baseline} "
            f"| {ratio:.2f}× | p99 ≤ 16.7 ms (one frame at 60 Hz) | {'met' if met else '**not met**'} |"]


if __name__ == "__main__":
    main(__doc__, (PREFIX,), rows)
