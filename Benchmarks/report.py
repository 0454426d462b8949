#!/usr/bin/env python3
"""Runs every benchmark behind the performance targets (the targets table of BENCHMARKS.md)
and writes BENCHMARKS.md.

    scripts/benchmark            # everything, then BENCHMARKS.md
    scripts/benchmark --no-load  # only the in-process benchmarks (no release daemon)
    scripts/benchmark --quick    # fewer end-to-end samples: checks the tools, not for committing
    scripts/benchmark --no-write # print the report instead of writing it

What it does:
1. Runs the nested package Benchmarks/ (ordo-one/benchmark, release build) and exports every
   metric's percentiles; each figure is the median of its iterations divided by the operations
   one iteration performs (the ` xN` suffix of the benchmark's name).
2. Runs Benchmarks' BusProfile under callgrind, twice per workload with different post counts,
   and divides the difference: instructions, swift_retain/swift_release calls and mallocs per
   post, which this machine's `perf` cannot count and which no neighbour's load disturbs.
3. Runs scripts/benchmark-load: the end-to-end tool Benchmarks/Load against a release
   appstated and appstatectl, which prints its rows of the table below (a Wayland output's
   change beside a direct Resize among them, against a headless sway; and figure 10, leaf
   changes, GetTree, a subtree's Watch, memory and start on generated trees of 15, 997 and
   10,006 controllers, each beside the 15-controller tree's); then
   scripts/benchmark-inspector, the inspector's page in headless chromium, which prints its row;
   scripts/benchmark-gateway, the kiosk page through appstate-gateway with 1 and 50 pages open
   against appstatectl watch, and the gateway's idle memory, which prints its rows.
   Benchmarks/logind-latency.py against the same appstated: a logind property change on a
   private bus to a watcher's event, beside the same change by a direct Varlink call; and
   Benchmarks/idle-latency.py: logind's IdleHint to the event of the idle step it fires, beside
   a direct Present call.
4. Writes BENCHMARKS.md: each figure beside its baseline from the same run, the ratio, its
   target and whether it is met; a note on each row missed or met narrowly and on the rows of
   each caveat in CAVEATS; the last soak's result, from SOAK (scripts/soak writes it; this
   script does not run it); how to reproduce it; the callgrind counts and the model's figures.
   What LEFT_OUT names goes, in its order, while the file would be longer than DOCUMENT_LIMIT.
   The load tool's log stays in Benchmarks/Load/.build/run/log.txt.

The machine is shared and noisy: only ratios within one run mean anything.
"""
import argparse
import collections
import datetime
import json
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
# The result of the last soak, written by scripts/soak: ten minutes are too long for every
# benchmark run, so the report shows the last one with its date and commit.
SOAK = ROOT / "Benchmarks" / "soak.json"
# The largest BENCHMARKS.md the test suite accepts (DocumentFiguresTests): a longer report is
# not read. The tables without a target are left out first to stay within it, then the caveats of
# rows that have no note.
DOCUMENT_LIMIT = 15 * 1024
# A target met with less than this fraction to spare gets a note: on a shared machine the
# next run may miss it.
NARROW_MARGIN = 0.2
OBSERVER_COUNTS = (1, 10, 100)
# Post counts for the two callgrind runs of each workload: the difference cancels start-up.
PROFILE_POSTS = (1000, 2000)
ARC_CALLS = {
    "retains": ("swift_retain", "swift_retain_n", "swift_bridgeObjectRetain", "swift_unknownObjectRetain"),
    "releases": ("swift_release", "swift_release_n", "swift_bridgeObjectRelease", "swift_unknownObjectRelease"),
    "mallocs": ("malloc", "calloc", "realloc", "posix_memalign", "aligned_alloc"),
}
# The value of an end-to-end row when the end-to-end part did not run.
NOT_MEASURED = "not measured in this run (--no-load)"
# The end-to-end rows of the targets table, written as placeholders when the load tool does not run.
END_TO_END = [
    ("start to READY=1", "—", "≤ 15 ms"),
    ("idle memory", "—", "≤ 20 MiB"),
    ("idle memory: private", "—", "≤ 4 MiB"),
    ("request→reply round trip, one client", "echo server over a Unix socket", "≤ 2×"),
    ("pipelined calls, one connection", "—", "≥ 1,000,000 calls/s"),
    ('pipelined calls, C client: GetCurrent with `{"path":"session"}`, batches of 256 each read before the next', "—",
     "≥ 1,000,000 calls/s"),
    ("pipelined calls, C client: GetCurrent, batches of 1,000 each read before the next", "—", "≥ 1,000,000 calls/s"),
    ('round trip on one CPU, C client: GetCurrent with `{"path":"session"}`', "forking C server, fixed 80-byte reply", "≤ 2×"),
    ("watch fan-out, 1,000 watchers", "—", "every event to every watcher, p99 ≤ 10 ms"),
    ("watch fan-out paced at 60 changes/s", "C broadcaster (`appstate-load broadcast`)", "p99 ≤ 2× with 10 watchers, ≤ 1.5× with 1,000"),
    ("durable mutations, 16 clients", "one write+fsync+rename+fsync(dir) per mutation", "≥ 5× (group commit)"),
    ("one `appstatectl current`, whole process", "`busctl --version`", "≤ 1.3×"),
    ("inspector page update, 1,000 events in its history", "the same with a short history", "p99 ≤ 16.7 ms (one frame at 60 Hz)"),
    ("kiosk page update through appstate-gateway, 1 page open", "the same move reaching `appstatectl watch --json`, same run",
     "p99 ≤ 16.7 ms (one frame) and ≤ 2× the watcher"),
    ("kiosk page update through appstate-gateway, 50 pages open", "the same move reaching `appstatectl watch --json`, same run",
     "p99 ≤ 16.7 ms (one frame) and ≤ 2× the watcher"),
    ("appstate-gateway alone, 1 page open", "the same move reaching `appstatectl watch --json`, same run", "—"),
    ("appstate-gateway alone, 50 pages open", "the same move reaching `appstatectl watch --json`, same run", "—"),
    ("chromium's floor, 1 page open", "the same move reaching `appstatectl watch --json`, same run", "—"),
    ("chromium's floor, 50 pages open", "the same move reaching `appstatectl watch --json`, same run", "—"),
    ("appstate-gateway idle memory", "appstated's VmRSS, idle, same run", "—"),
    ("logind LockedHint change → watcher event", "the same Lock/Unlock by a direct Varlink call", "—"),
    ("Wayland output change → watcher event", "the same Resize by a direct Varlink call", "—"),
    ("ReportActivity sent `oneway`, per report", "GetCurrent round trip on the same connection", "< 1×"),
    ("ReportActivity round trip", "GetCurrent on the same connection, interleaved", "—"),
    ("logind IdleHint → the idle step's Present event", "the same Present by a direct Varlink call", "—"),
    ("keyboard move round trip, 10,006 controllers", "15 controllers", "≤ 2×"),
    ("page turn (durable) round trip, 10,006 controllers", "15 controllers", "≤ 2×"),
    ("Watch(path:) of an off-screen paginated container", "—", "0; 100"),
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
    """The end-to-end rows and the filesystem their fsync figures ran on."""
    run([ROOT / "scripts" / "benchmark-load", *(["--quick"] if quick else [])], stdout=sys.stderr)
    rows = (LOAD_RUN / "rows.md").read_text().splitlines()
    rows.append(run([ROOT / "scripts" / "benchmark-inspector"], stdout=subprocess.PIPE, text=True).stdout.strip())
    rows += run([ROOT / "scripts" / "benchmark-gateway"], stdout=subprocess.PIPE, text=True).stdout.strip().splitlines()
    # The system's Python: the logind mock is Debian's python3-dbusmock.
    bin_path = subprocess.run([ROOT / "scripts" / "build-release", "--show-bin-path"],
                              capture_output=True, text=True, check=True).stdout.strip()
    latency = run(["/usr/bin/python3", ROOT / "Benchmarks" / "logind-latency.py", "--appstated", pathlib.Path(bin_path) / "appstated",
                   "--changes", "100" if quick else "1000"], capture_output=True, text=True)
    rows += latency.stdout.splitlines()
    idle = run(["/usr/bin/python3", ROOT / "Benchmarks" / "idle-latency.py", "--appstated", pathlib.Path(bin_path) / "appstated",
                "--changes", "50" if quick else "300"], capture_output=True, text=True)
    rows += idle.stdout.splitlines()
    filesystem = subprocess.run(["stat", "-f", "-c", "%T", LOAD_RUN], capture_output=True, text=True).stdout.strip()
    return {"rows": rows, "filesystem": filesystem}


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


def in_process_rows(wall, mallocs):
    """The bus's rows of the targets table, from the in-process benchmarks."""
    rows = []
    for observers in OBSERVER_COUNTS:
        bus, center = wall[f"bus post {observers}"], wall[f"center post {observers}"]
        rows.append(f"| bus post, {observers} observer{'s' * (observers > 1)} | {number(bus, 'ns')} "
                    f"| Foundation NotificationCenter | {number(center, 'ns')} | {center / bus:.1f}× faster "
                    f"| ≥ 20× faster | {verdict(center / bus >= 20)} |")
    for observers in OBSERVER_COUNTS:
        allocations = mallocs[f"bus post {observers}"]
        rows.append(f"| bus heap allocations per post, {observers} observer{'s' * (observers > 1)} "
                    f"| {number(allocations)} | — | — | — | 0 | {verdict(allocations == 0)} |")
    for observers in OBSERVER_COUNTS:
        bus, direct = wall[f"bus post {observers}"], wall[f"direct post {observers}"]
        rows.append(f"| bus post vs the floor, {observers} observer{'s' * (observers > 1)} | {number(bus, 'ns')} "
                    f"| the same observers called in a loop | {number(direct, 'ns')} | {bus / direct:.2f}× "
                    f"| ≤ 2× | {verdict(bus / direct <= 2)} |")
    return rows


# The model's and the protocol's benchmarks, by name, and what each measures.
MODEL = {
    "containment swap": "containment swap: content-state container, seven-step timeline, visible window",
    "page change": "page change: paginated container, not animated, visible window",
    "keyboard show": "keyboard show: KeyboardWillShow through a KeyboardAwareController",
    "snapshot default tree": "full snapshot of the default tree (the embedded one, built by TreeBuilder, logged in)",
    "page turn published": "page turn in the default tree, published: its snapshot reusing the last one, and the changes since",
    "page turn published afresh": "the same with a fresh snapshot each time",
    "varlink service side": "Varlink: decode a GetCurrent call frame, encode its reply",
    "varlink client side": "Varlink: encode a GetCurrent call, decode its reply frame",
}

# What the report knows about some rows whatever their figures, as (label, which rows, note);
# `{filesystem}` is where this run's fsync figures ran. Each note says why the row's figure
# moves or reads oddly, so that a reader does not take it for a regression.
CAVEATS = [
    ("bus post vs the floor",
     lambda figure: figure.startswith("bus post vs the floor"),
     "the floor calls the bus workload's own closures from an array, and Swift retains and "
     "releases each closure it takes out of it, which the bus does not: with many observers "
     "the bus can beat its floor."),
    ("start to READY=1",
     lambda figure: figure.startswith("start to READY=1"),
     "a start's wall time follows the machine's speed at that minute; `busctl --version`, run "
     "before each start, shows that speed beside it, but the target is absolute."),
    ("round trip on two CPUs",
     lambda figure: figure.startswith("request→reply round trip") and "two CPUs" in figure,
     "waking the other CPU costs more than either server's work, so these ratios say more "
     "about the scheduler than about the daemon; the rows on one CPU measure the daemon's work."),
    ("pipelined calls",
     lambda figure: figure.startswith("pipelined calls"),
     "each pipeline repeats one call, as a poller does, which the daemon knows by its bytes "
     "and does not parse again; different calls are parsed each."),
    ("watch fan-out, 1,000 watchers, back to back",
     lambda figure: figure.startswith("watch fan-out, 1,000 watchers"),
     "each change follows as soon as the daemon has queued its writes, and the tool's reader "
     "shares the machine's CPUs with the daemon, so the p99 moves with the machine's load."),
    ("paced fan-out, 1,000 watchers",
     lambda figure: figure.startswith("watch fan-out paced at 60 changes/s, 1,000 watchers"),
     "the broadcaster calls send() once a watcher; the daemon writes each watcher's reply through "
     "its NIO channel, whose pipeline a thousand watchers pay a thousand times a change, so the "
     "ratio moves with how much of the machine the tool's readers leave the daemon."),
    ("paced fan-out, durable changes",
     lambda figure: figure.startswith("watch fan-out paced") and "(durable)" in figure,
     "the floor makes each change durable as the daemon does, so both wait for the disk and "
     "the ratio follows the disk's fsync tail in this run."),
    ("kiosk page through appstate-gateway",
     lambda figure: figure.startswith("kiosk page update through appstate-gateway"),
     "the page's time is the gateway's and chromium's. `appstate-gateway alone` times the same "
     "change reaching a plain HTTP client of the event stream; `chromium's floor` the same tabs "
     "on a page with none of appstate.js, a bare EventSource writing the height: the page's "
     "time above the floor is appstate.js and the page's own style and rendering. Where the "
     "floor itself is over 2× the watcher, no page chromium runs on this machine can meet that "
     "ratio. With 50 pages, 50 pages render in chromium on this machine's CPUs beside the "
     "daemon and the gateway (headless, every tab is visible), so the last page waits for the others."),
    ("page turn on a large tree",
     lambda figure: figure.startswith("page turn (durable) round trip"),
     "each durable change still encodes and rewrites the whole state file, which grows with "
     "the containers that save state."),
    ("durable mutations, 16 clients",
     lambda figure: figure.startswith("durable mutations, 16 clients"),
     "the baseline is one write+fsync+rename+fsync(dir) cycle on this run's file system "
     "({filesystem}); the sixteen clients share the machine's CPUs with the daemon, whose CPU "
     "per mutation limits the rate as well as the disk, so the ratio moves with the load."),
]

# A number as the table writes it: thousands separated by commas, a decimal point.
NUMBER = r"\d[\d,]*(?:\.\d+)?"


def cells(row):
    """The seven cells of a targets-table row: figure, value, baseline, baseline value, ratio,
    target, verdict."""
    return [cell.strip() for cell in row.strip().strip("|").split("|")]


def short_name(figure):
    """How the notes name a row: its figure without the parenthesised details, and after a
    colon only up to the next comma."""
    depth, kept = 0, []
    for character in figure:
        if character == "(":
            depth += 1
        elif character == ")":
            depth = max(depth - 1, 0)
        elif depth == 0:
            kept.append(character)
    name = re.sub(r" ([,:;])", r"\1", re.sub(r"\s+", " ", "".join(kept))).strip()
    head, colon, tail = name.partition(": ")
    return head + colon + tail.split(", ")[0]


def compared(row):
    """(measured, bound, limit, what was read) for each part of a row's target that reads `≤ X`
    or `≥ X` ("p99 ≤ 16.7 ms and ≤ 2× the watcher" has two): a ratio (X×) is read in the ratio
    cell, anything else in the value cell (its p99 when the target is a p99)."""
    _, value, _, _, ratio, target, _ = cells(row)
    readings = []
    for limit in re.finditer(rf"([≤≥])\s*({NUMBER})\s*(×)?", target):
        source = ratio if limit.group(3) else value
        unit = r"(?:\s?(?:×|ms|µs|MiB|calls/s|/s))?"
        measured = (re.search(rf"p99 ({NUMBER}){unit}", source) if "p99" in target and not limit.group(3) else None) \
            or re.search(rf"({NUMBER}){unit}", source)
        if measured:
            readings.append((float(measured.group(1).replace(",", "")), limit.group(1), float(limit.group(2).replace(",", "")),
                             measured.group(0)))
    return readings


def missed(reading, margin=0.0):
    """Whether a reading of `compared` is past its limit, or within `margin` of it."""
    measured, bound, limit, _ = reading
    return measured > limit * (1 - margin) if bound == "≤" else measured < limit * (1 + margin)


def notes(rows, filesystem, narrow=True, every_caveat=True):
    """A note on each row missed or (when `narrow`) met narrowly, one each, and one on the rows
    of each caveat; `every_caveat` False keeps the caveats of the rows noted only."""
    lines = []
    noted = []
    for row in rows:
        figure, value, _, _, _, target, outcome = cells(row)
        readings = compared(row)
        if outcome == "**not met**":
            read = ", ".join(reading[3] for reading in readings if missed(reading)) or value
            lines.append(f"- **{short_name(figure)}**: **not met**: {read} against {target}.")
            noted.append(figure)
        elif outcome == "met" and narrow and any(missed(reading, NARROW_MARGIN) for reading in readings):
            read = ", ".join(reading[3] for reading in readings if missed(reading, NARROW_MARGIN))
            lines.append(f"- **{short_name(figure)}**: met narrowly, {read} against {target}.")
            noted.append(figure)
    measured = [cells(row)[0] for row in rows if cells(row)[1] != NOT_MEASURED] if every_caveat else noted
    for label, applies, note in CAVEATS:
        if any(applies(figure) for figure in measured):
            lines.append(f"- **{label}**: " + note.format(filesystem=filesystem or "unknown"))
    return lines


def soak_section(soak, minutes):
    """The soak's section from its result (SOAK), with its table of minutes when `minutes`."""
    if soak is None:
        return ["## Soak", "", f"No soak result ({SOAK.relative_to(ROOT)}): run `scripts/soak`.", ""]

    def figure(value, digits, sign=False):
        return "n/a" if value is None else f"{value:{'+' if sign else ''}.{digits}f}"

    lost = soak["eventsLost"]
    rss = [rss for seconds, rss, _ in soak["samples"] if seconds >= 60]
    lines = [
        "## Soak",
        "",
        f"`scripts/soak`, {soak['date']} at {soak['commit']}: {soak['mutations']:,} mutations from {soak['clients']} clients, "
        f"{soak['watchers']} watchers, {soak['seconds'] / 60:.1f} min; {soak['errors']:,} errors, "
        + (f"each watcher had all {soak['eventsPerWatcher']:,} events" if lost == 0
           else f"{lost:,} of the {soak['watchers']} watchers' {soak['eventsPerWatcher']:,} events each lost")
        + (f" and {soak['eventsExtra']:,} more" if soak.get("eventsExtra") else "")
        + f", {soak['watchersCut']} cut off. From minute 1: descriptors "
        f"{figure(soak['fdSlopePerMinute'], 2, True)}/min, VmRSS {figure(soak['rssSlopeKiBPerMinute'], 1, True)} KiB/min"
        + (f" ({rss[0] / 1024:.1f} → {rss[-1] / 1024:.1f} MiB)" if rss else "")
        + f". p99 of the last whole minute over the first: round trip {figure(soak['roundTripP99LastOverFirst'], 2)}×, "
        f"a Login's event {figure(soak['loginEventP99LastOverFirst'], 2)}×. VmRSS steps up where the event p99 peaks: what "
        "a backlog of writes to watchers takes (within their limits) is kept for the next; a leak would climb between "
        f"the steps too. Mix, samples, minutes: `{SOAK.relative_to(ROOT)}`.",
        "",
    ]
    if minutes:
        lines += [
            "| minute | mutations | round trip p50 / p99 | Login event p99 | VmRSS | fds |",
            "|---|---|---|---|---|---|",
            *(f"| {m['minute']} | {m['mutations']:,} | {figure(m['roundTripP50Ms'], 2)} / {figure(m['roundTripP99Ms'], 2)} ms "
              f"| {figure(m['loginEventP99Ms'], 2)} ms | {m['rssKiB'] / 1024:.1f} MiB | {m['fds']} |" for m in soak["minutes"]),
            "",
        ]
    return lines


# What BENCHMARKS.md leaves out to stay within DOCUMENT_LIMIT, as much of it as needed, in this
# order: the tables without a target, then what the table or the sources also say.
LEFT_OUT = ("the callgrind counts and the model's figures", "the soak's minutes", "the notes on rows met narrowly",
            "the caveats of rows without a note", "how to run parts of it (the header of `Benchmarks/report.py` says)")


def document(command, info, rows, profile, model, filesystem, end_to_end, soak=None, left_out=0):
    """BENCHMARKS.md from the table's rows, the soak's result, the callgrind counts and the
    model's figures, without the first `left_out` parts of LEFT_OUT; `end_to_end` is False when
    the end-to-end part did not run."""
    tracked, soak_minutes, narrow_notes, every_caveat, reproducing = (left_out <= level for level in range(len(LEFT_OUT)))
    outcomes = [cells(row)[-1] for row in rows]
    targets = sum(outcome in ("met", "**not met**") for outcome in outcomes)
    lines = [
        "# Benchmarks",
        "",
        f"Written by `{command}` (Benchmarks/report.py says what it runs); do not edit by hand.",
        f"Measured {info['date']} at {info['commit']} on {info['nproc']} CPUs ({info['cpu']}), {info['kernel']}, "
        f"{info['swift']}; load average at the end {info['load']}.",
    ]
    if end_to_end:
        lines.append(f"The end-to-end figures ran against release builds; the state directory of their fsync "
                     f"figures was on {filesystem}.")
    else:
        lines.append("The end-to-end figures were not measured in this run (`--no-load`).")
    if "--quick" in command:
        lines.append("**Quick run: fewer end-to-end samples, for checking the tools only.**")
    lines += [
        "",
        f"**{outcomes.count('met')} of {targets} targets met.**",
        "",
        "## Targets",
        "",
        "The machine is shared: each figure (a median, per operation) stands beside a baseline from the",
        "same run. How each is measured: the header of `Benchmarks/report.py` and the sources it names.",
        "A row whose target is — is tracked for regressions.",
        "",
        "| figure | value | baseline (same run) | baseline value | ratio | target | |",
        "|---|---|---|---|---|---|---|",
        *rows,
        "",
        "## Notes",
        "",
        *(["Written from the table: every row not met or met with less than a fifth to spare (the next",
           "run may miss it), and the rows this report knows a caveat for."] if narrow_notes else
          ["Written from the table: every row not met, and the rows this report knows a caveat for."]),
        "",
        *(notes(rows, filesystem, narrow_notes, every_caveat) or ["No row is missed, met narrowly or caveated."]),
        "",
        *soak_section(soak, soak_minutes),
        "## Reproducing",
        "",
        *(["`scripts/benchmark` runs everything and writes this file (needs valgrind)."] if not reproducing else [
        "`scripts/benchmark` runs everything and writes this file (needs valgrind): `--no-load` the",
        "in-process figures only, `--quick` fewer end-to-end samples, `--no-write` prints it instead.",
        "Some rows alone: `scripts/benchmark-load --only 1,2` (numbered as in",
        "`Benchmarks/Load/Sources/appstate-load/main.swift`; its log: `Benchmarks/Load/.build/run/log.txt`),",
        "`scripts/benchmark-inspector`, `scripts/benchmark-gateway` (`--debug`, `--write`), and",
        "`swift package --package-path Benchmarks benchmark --filter 'bus post.*'`."]),
    ]
    if not tracked:
        parts = LEFT_OUT[:left_out]
        listed = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
        lines += ["", f"{listed[0].upper()}{listed[1:]} were left out to keep this file within {DOCUMENT_LIMIT // 1024} KB."]
        return "\n".join(lines) + "\n"
    lines += [
        "",
        "## Bus, counted by callgrind (per post)",
        "",
        "Instructions, calls into the Swift runtime's reference counting, and mallocs per post,",
        "counted by `valgrind --tool=callgrind` on `Benchmarks/Sources/BusProfile`: exact, whatever",
        "the machine's load. Retains include calls on immortal or nil references, which return",
        "without an atomic. Each cell: NotificationBus / NotificationCenter / the floor.",
        "",
        "| observers | instructions | retains | releases | mallocs |",
        "|---|---|---|---|---|",
    ]
    for observers in OBSERVER_COUNTS:
        entries = [profile[(kind, observers)] for kind in ("bus", "center", "direct")]
        lines.append(f"| {observers} | " + " | ".join(" / ".join(number(entry[key]) for entry in entries)
                                                    for key in ("instructions", "retains", "releases", "mallocs")) + " |")
    lines += [
        "",
        "## The model and the protocol (no target; tracked for regressions)",
        "",
        "Model benchmarks run on the main actor; the hop to it is outside the measurement.",
        "",
        "| figure | time per operation | heap allocations per operation |",
        "|---|---|---|",
    ]
    for description, nanoseconds, allocations in model:
        if nanoseconds is None:
            lines.append(f"| {description} | missing from this run | — |")
        else:
            lines.append(f"| {description} | {number(nanoseconds / 1000, 'µs')} | {number(allocations)} |")
    return "\n".join(lines) + "\n"


def report(command, info, figures, profile, load):
    """BENCHMARKS.md, without as many of the parts LEFT_OUT names as would take it past
    DOCUMENT_LIMIT; `load` is None when the end-to-end part did not run."""
    wall = {name: value for (name, metric), value in figures.items() if metric == "wallClock"}
    mallocs = {name: value for (name, metric), value in figures.items() if metric == "mallocCountTotal"}
    rows = in_process_rows(wall, mallocs)
    if load:
        rows += load["rows"]
    else:
        rows += [f"| {figure} | {NOT_MEASURED} | {baseline} | — | — | {target} | — |"
                 for figure, baseline, target in END_TO_END]
    model = [(description, wall.get(name), mallocs.get(name)) for name, description in MODEL.items()]
    filesystem = load["filesystem"] if load else None
    soak = json.loads(SOAK.read_text()) if SOAK.exists() else None
    for left_out in range(len(LEFT_OUT) + 1):
        text = document(command, info, rows, profile, model, filesystem, load is not None, soak, left_out)
        if len(text.encode()) <= DOCUMENT_LIMIT:
            break
    if len(text.encode()) > DOCUMENT_LIMIT:
        print(f"warning: the report is {len(text.encode()):,} bytes, over the {DOCUMENT_LIMIT:,} the test suite "
              "accepts (DocumentFiguresTests): shorten the rows or the notes", file=sys.stderr)
    return text


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0].replace("\n", " "))
    parser.add_argument("--no-write", action="store_true", help="print the report instead of writing BENCHMARKS.md")
    parser.add_argument("--no-load", action="store_true", help="skip the end-to-end figures (no release daemon)")
    parser.add_argument("--quick", action="store_true", help="fewer end-to-end samples, for checking the tools")
    arguments = parser.parse_args()
    command = " ".join(["scripts/benchmark", *sys.argv[1:]])
    with tempfile.TemporaryDirectory(prefix="appstate-benchmark-") as directory:
        out = pathlib.Path(directory)
        figures = run_benchmarks(out)
        profile = profile_bus(out)
        load = None if arguments.no_load else run_load(arguments.quick)
        text = report(command, machine(), figures, profile, load)
    if arguments.no_write:
        print(text, end="")
    else:
        (ROOT / "BENCHMARKS.md").write_text(text)
        print(f"wrote {ROOT / 'BENCHMARKS.md'}", file=sys.stderr)


if __name__ == "__main__":
    main()
