#!/usr/bin/env python3
"""Runs every benchmark behind the performance targets (docs/ARCHITECTURE.md, Performance) and
writes BENCHMARKS.md.

    scripts/benchmark            # everything, then BENCHMARKS.md
    scripts/benchmark --no-load  # only the in-process benchmarks (no release daemon)
    scripts/benchmark --quick    # fewer end-to-end samples: checks the tools, not for committing
    scripts/benchmark --no-write # print the report instead of writing it
    scripts/benchmark --notes    # measure nothing: copy Benchmarks/Load/NOTES.md anew to the
                                 # end of BENCHMARKS.md, after editing the notes on its run

What it does:
1. Runs the nested package Benchmarks/ (ordo-one/benchmark, release build) and exports every
   metric's percentiles; each figure is the median of its iterations divided by the operations
   one iteration performs (the ` xN` suffix of the benchmark's name).
2. Runs Benchmarks' BusProfile under callgrind, twice per workload with different post counts,
   and divides the difference: instructions, swift_retain/swift_release calls and mallocs per
   post, which this machine's `perf` cannot count and which no neighbour's load disturbs.
3. Runs scripts/benchmark-load: the end-to-end tool Benchmarks/Load against a release
   appstated and appstatectl, which prints its rows of the table below; then
   scripts/benchmark-inspector, the inspector's page in headless chromium, which prints its row.
   Benchmarks/logind-latency.py against the same appstated: a logind property change on a
   private bus to a watcher's event, beside the same change by a direct Varlink call.
4. Writes each figure beside its baseline from the same run, the ratio, and its target,
   then the callgrind counts, the model's figures, the load tool's log and Benchmarks/Load/NOTES.md.

The machine is shared and noisy: only ratios within one run mean anything.
"""
import argparse
import collections
import datetime
import os
import pathlib
import platform
import re
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "Benchmarks"
# Where scripts/benchmark-load leaves the tool's rows (rows.md) and its log (log.txt).
LOAD_RUN = ROOT / "Benchmarks" / "Load" / ".build" / "run"
LOAD_NOTES = ROOT / "Benchmarks" / "Load" / "NOTES.md"
OBSERVER_COUNTS = (1, 10, 100)
# Post counts for the two callgrind runs of each workload: the difference cancels start-up.
PROFILE_POSTS = (1000, 2000)
ARC_CALLS = {
    "retains": ("swift_retain", "swift_retain_n", "swift_bridgeObjectRetain", "swift_unknownObjectRetain"),
    "releases": ("swift_release", "swift_release_n", "swift_bridgeObjectRelease", "swift_unknownObjectRelease"),
    "mallocs": ("malloc", "calloc", "realloc", "posix_memalign", "aligned_alloc"),
}
# The end-to-end rows of the targets table, written as placeholders when the load tool does not run.
END_TO_END = [
    ("start to READY=1", "—", "≤ 15 ms"),
    ("idle memory", "—", "≤ 20 MiB"),
    ("idle memory: private", "—", "≤ 4 MiB"),
    ("request→reply round trip, one client", "echo server over a Unix socket", "≤ 2×"),
    ("pipelined calls, one connection", "—", "≥ 1,000,000 calls/s"),
    ("watch fan-out, 1,000 watchers", "—", "every event to every watcher, p99 ≤ 10 ms"),
    ("watch fan-out paced at 60 changes/s", "C broadcaster (`appstate-load broadcast`)", "p99 ≤ 2× with 10 watchers, ≤ 1.5× with 1,000"),
    ("durable mutations, 16 clients", "one write+fsync+rename+fsync(dir) per mutation", "≥ 5× (group commit)"),
    ("one `appstatectl current`, whole process", "`busctl --version`", "≤ 1.3×"),
    ("inspector page update, 1,000 events in its history", "the same with a short history", "p99 ≤ 16.7 ms (one frame at 60 Hz)"),
    ("logind LockedHint change → watcher event", "the same Lock/Unlock by a direct Varlink call", "—"),
]


def run(command, **kwargs):
    print("+", " ".join(map(str, command)), file=sys.stderr, flush=True)
    return subprocess.run(command, check=True, **kwargs)


def machine():
    cpu = "unknown CPU"
    for line in pathlib.Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            cpu = line.split(":", 1)[1].strip()
            break
    swift = subprocess.run(["swift", "--version"], capture_output=True, text=True).stdout.splitlines()
    commit = subprocess.run(["git", "-C", ROOT, "describe", "--always", "--dirty"],
                            capture_output=True, text=True).stdout.strip()
    return {
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "commit": commit or "unknown commit",
        "nproc": subprocess.run(["nproc"], capture_output=True, text=True).stdout.strip(),
        "cpu": cpu,
        "kernel": f"{platform.system()} {platform.release()}",
        "swift": swift[0] if swift else "unknown",
        "load": " ".join(f"{value:.2f}" for value in os.getloadavg()),
    }


def run_load(quick):
    """The end-to-end rows, the tool's log and the filesystem its fsync figures ran on."""
    run([ROOT / "scripts" / "benchmark-load", *(["--quick"] if quick else [])], stdout=sys.stderr)
    rows = (LOAD_RUN / "rows.md").read_text().splitlines()
    rows.append(run([ROOT / "scripts" / "benchmark-inspector"], stdout=subprocess.PIPE, text=True).stdout.strip())
    # The system's Python: the logind mock is Debian's python3-dbusmock.
    bin_path = subprocess.run([ROOT / "scripts" / "build-release", "--show-bin-path"],
                              capture_output=True, text=True, check=True).stdout.strip()
    latency = run(["/usr/bin/python3", ROOT / "Benchmarks" / "logind-latency.py", "--appstated", pathlib.Path(bin_path) / "appstated",
                   "--changes", "100" if quick else "1000"], capture_output=True, text=True)
    rows += latency.stdout.splitlines()
    log = (LOAD_RUN / "log.txt").read_text()
    filesystem = subprocess.run(["stat", "-f", "-c", "%T", LOAD_RUN], capture_output=True, text=True).stdout.strip()
    return {"rows": rows, "log": log, "filesystem": filesystem}


def run_benchmarks(out):
    log = out / "benchmark.log"
    with log.open("w") as output:
        run(
            ["swift", "package", "--package-path", PACKAGE, "--allow-writing-to-directory", out,
             "benchmark", "--format", "histogramPercentiles", "--path", out, "--no-progress"],
            stdout=output, stderr=subprocess.STDOUT,
        )
    # Current_run.<Target>.<name with _ for spaces>_x<operations>.<metric>.histogram.percentiles.tsv
    pattern = re.compile(r"Current_run\.(\w+)\.(.+)_x(\d+)\.(\w+)\.histogram\.percentiles\.tsv")
    figures = {}
    for path in out.iterdir():
        match = pattern.fullmatch(path.name)
        if not match:
            continue
        _, name, operations, metric = match.groups()
        median = next(int(value) for percentile, value in
                      (line.split("\t") for line in path.read_text().splitlines()[1:]) if percentile == "50")
        figures[(name.replace("_", " "), metric)] = median / int(operations)
    if not figures:
        sys.exit(f"no benchmark results; see {log}")
    return figures


def callgrind_calls(path):
    """Instructions and calls per callee name in one callgrind output file."""
    names, calls, callee, total = {}, collections.Counter(), None, 0
    for line in path.read_text().splitlines():
        if line.startswith(("fn=", "cfn=")):
            match = re.match(r"c?fn=\((\d+)\)(?: (.*))?", line)
            if match.group(2):
                names[match.group(1)] = match.group(2)
            callee = names.get(match.group(1)) if line.startswith("cfn=") else None
        elif line.startswith("calls=") and callee:
            calls[callee] += int(line[6:].split()[0])
        elif line.startswith(("summary:", "totals:")):
            total = int(line.split()[1])
    return total, calls


def profile_bus(out):
    run(["nice", "-n", "10", "swift", "build", "--package-path", PACKAGE, "-c", "release", "--product", "BusProfile"],
        stdout=subprocess.DEVNULL)
    binary = subprocess.run(["swift", "build", "--package-path", PACKAGE, "-c", "release", "--show-bin-path"],
                            capture_output=True, text=True, check=True).stdout.strip() + "/BusProfile"
    profile = {}
    for kind in ("bus", "center", "direct"):
        for observers in OBSERVER_COUNTS:
            runs = []
            for posts in PROFILE_POSTS:
                output = out / f"callgrind.{kind}.{observers}.{posts}.out"
                run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={output}",
                     binary, kind, str(observers), str(posts)],
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                runs.append(callgrind_calls(output))
            (small_total, small), (large_total, large) = runs
            posts = PROFILE_POSTS[1] - PROFILE_POSTS[0]
            entry = {"instructions": (large_total - small_total) / posts}
            for label, functions in ARC_CALLS.items():
                entry[label] = sum(large[f] - small[f] for f in functions) / posts
            profile[(kind, observers)] = entry
    return profile


def number(value, unit=""):
    if value >= 100:
        text = f"{value:,.0f}"
    elif value >= 10:
        text = f"{value:.1f}"
    else:
        text = f"{value:.2f}"
    return f"{text} {unit}".strip()


def verdict(met):
    return "met" if met else "**not met**"


def report(command, info, figures, profile, load):
    """BENCHMARKS.md; `load` is None when the end-to-end part did not run."""
    wall = {name: value for (name, metric), value in figures.items() if metric == "wallClock"}
    mallocs = {name: value for (name, metric), value in figures.items() if metric == "mallocCountTotal"}
    lines = [
        "# Benchmarks",
        "",
        f"Written by `{command}` (see its header for what it runs); do not edit by hand.",
        f"Measured {info['date']} at {info['commit']} on {info['nproc']} CPUs ({info['cpu']}), {info['kernel']}, "
        f"{info['swift']}; load average at the end {info['load']}.",
    ]
    if load:
        lines.append(f"The end-to-end figures ran against release builds; the state directory of their fsync "
                     f"figures was on {load['filesystem']}.")
    if "--quick" in command:
        lines.append("**Quick run: fewer end-to-end samples, for checking the tools only.**")
    lines += [
        "",
        "The machine is shared with other builds, so absolute times mean little: every figure is",
        "the median over the benchmark's iterations and is compared with a baseline measured in the",
        "same run. Times are per operation (one post, one swap, one snapshot…).",
        "",
        "## Targets",
        "",
        "The targets, and how each figure is measured: "
        "[docs/ARCHITECTURE.md, Performance](docs/ARCHITECTURE.md#performance).",
        "",
        "| figure | value | baseline (same run) | baseline value | ratio | target | |",
        "|---|---|---|---|---|---|---|",
    ]
    for observers in OBSERVER_COUNTS:
        bus, center = wall[f"bus post {observers}"], wall[f"center post {observers}"]
        lines.append(f"| bus post, {observers} observer{'s' * (observers > 1)} | {number(bus, 'ns')} "
                     f"| Foundation NotificationCenter | {number(center, 'ns')} | {center / bus:.1f}× faster "
                     f"| ≥ 20× faster | {verdict(center / bus >= 20)} |")
    for observers in OBSERVER_COUNTS:
        allocations = mallocs[f"bus post {observers}"]
        lines.append(f"| bus heap allocations per post, {observers} observer{'s' * (observers > 1)} "
                     f"| {number(allocations)} | — | — | — | 0 | {verdict(allocations == 0)} |")
    for observers in OBSERVER_COUNTS:
        bus, direct = wall[f"bus post {observers}"], wall[f"direct post {observers}"]
        lines.append(f"| bus post vs the floor, {observers} observer{'s' * (observers > 1)} | {number(bus, 'ns')} "
                     f"| the same observers called in a loop | {number(direct, 'ns')} | {bus / direct:.2f}× "
                     f"| ≤ 2× | {verdict(bus / direct <= 2)} |")
    if load:
        lines += load["rows"]
    else:
        for figure, baseline, target in END_TO_END:
            lines.append(f"| {figure} | not measured in this run (--no-load) | {baseline} | — | — | {target} | — |")
    lines += [
        "",
        "## Bus, counted by callgrind (per post)",
        "",
        "Instructions and calls into the Swift runtime's reference counting and malloc, counted by",
        "`valgrind --tool=callgrind` on `Benchmarks/Sources/BusProfile`: exact and independent of the",
        "machine's load (`perf` counters are not available here, and the benchmark tool's ARC",
        "metrics crash this toolchain without a runtime interposer the package mirror lacks).",
        "Retains include calls on immortal or nil references, which return without an atomic.",
        "",
        "| observers | workload | instructions | vs NotificationCenter | vs floor | retains | releases | mallocs |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for observers in OBSERVER_COUNTS:
        center = profile[("center", observers)]["instructions"]
        direct = profile[("direct", observers)]["instructions"]
        for kind, label in (("bus", "NotificationBus"), ("center", "NotificationCenter"), ("direct", "floor")):
            entry = profile[(kind, observers)]
            versus_center = "—" if kind == "center" else f"{center / entry['instructions']:.1f}× fewer"
            versus_floor = "—" if kind == "direct" else f"{entry['instructions'] / direct:.2f}×"
            lines.append(f"| {observers} | {label} | {number(entry['instructions'])} "
                         f"| {versus_center} | {versus_floor} "
                         f"| {number(entry['retains'])} | {number(entry['releases'])} | {number(entry['mallocs'])} |")
    lines += [
        "",
        "## The model and the protocol (no target; tracked for regressions)",
        "",
        "| figure | time per operation | heap allocations per operation |",
        "|---|---|---|",
    ]
    descriptions = {
        "containment swap": "containment swap: content-state container, seven-step timeline, visible window",
        "page change": "page change: paginated container, not animated, visible window",
        "keyboard show": "keyboard show: KeyboardWillShow through a KeyboardAwareController",
        "snapshot default tree": "full snapshot of the default tree (the embedded one, built by TreeBuilder, logged in)",
        "page turn published": "page turn in the default tree, published: its snapshot reusing the last one, and the changes since",
        "page turn published afresh": "the same with a fresh snapshot each time",
        "varlink service side": "Varlink: decode a GetCurrent call frame, encode its reply",
        "varlink client side": "Varlink: encode a GetCurrent call, decode its reply frame",
    }
    for name, description in descriptions.items():
        if name in wall:
            lines.append(f"| {description} | {number(wall[name] / 1000, 'µs')} | {number(mallocs[name])} |")
        else:
            lines.append(f"| {description} | missing from this run | — |")
    lines += [
        "",
        "## How the in-process figures are taken",
        "",
        "- The bus, NotificationCenter and the floor do the same work: post one name with no",
        "  object and no userInfo to N observers that each increment a counter",
        "  (`Benchmarks/Sources/BusWorkloads`). The floor builds the notification the observers",
        "  take and calls the bus workload's own closures in a plain `for` loop over an array.",
        "  Swift retains and releases each closure it takes out of the array (see the callgrind",
        "  table), which the bus avoids; that is why the bus can beat the floor with many observers.",
        "- Model benchmarks run on the main actor; the hop to it is outside the measurement.",
        "- One benchmark: `swift package --package-path Benchmarks benchmark --filter 'bus post.*'`;",
        "  some end-to-end figures: `scripts/benchmark-load --only 1,2` (numbers as in",
        "  `Benchmarks/Load/Sources/appstate-load/main.swift`).",
        "",
    ]
    if load:
        lines += ["## End to end: the load tool's log", "", "```", load["log"].rstrip("\n"), "```", "",
                  LOAD_NOTES.read_text().rstrip("\n"), ""]
    return "\n".join(lines)


def copy_notes():
    """Replaces what follows the load tool's log in BENCHMARKS.md with NOTES.md as it is now."""
    path = ROOT / "BENCHMARKS.md"
    text = path.read_text()
    log = text.find("## End to end: the load tool's log")
    end = text.find("\n```\n", text.find("\n```\n", log) + 1) if log >= 0 else -1
    if end < 0:
        sys.exit("BENCHMARKS.md has no load tool's log to put the notes after: run scripts/benchmark")
    path.write_text(text[:end] + "\n```\n\n" + LOAD_NOTES.read_text().rstrip("\n") + "\n")
    print(f"copied {LOAD_NOTES} to the end of {path}", file=sys.stderr)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-write", action="store_true", help="print the report instead of writing BENCHMARKS.md")
    parser.add_argument("--no-load", action="store_true", help="skip the end-to-end figures (no release daemon)")
    parser.add_argument("--quick", action="store_true", help="fewer end-to-end samples, for checking the tools")
    parser.add_argument("--notes", action="store_true", help="only copy Benchmarks/Load/NOTES.md anew to the end of BENCHMARKS.md")
    arguments = parser.parse_args()
    if arguments.notes:
        copy_notes()
        return
    command = " ".join(["scripts/benchmark", *sys.argv[1:]])
    with tempfile.TemporaryDirectory(prefix="appstate-benchmark-") as directory:
        out = pathlib.Path(directory)
        figures = run_benchmarks(out)
        profile = profile_bus(out)
        load = None if arguments.no_load else run_load(arguments.quick)
        text = report(command, machine(), figures, profile, load)
    if arguments.no_write:
        print(text)
    else:
        (ROOT / "BENCHMARKS.md").write_text(text)
        print(f"wrote {ROOT / 'BENCHMARKS.md'}", file=sys.stderr)


if __name__ == "__main__":
    main()
