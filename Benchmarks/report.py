#!/usr/bin/env python3
"""Runs every benchmark behind the performance targets (the targets table of BENCHMARKS.md and
its pages in docs/benchmarks/) and writes them.

    scripts/benchmark            # everything, then BENCHMARKS.md and its pages
    scripts/benchmark --no-load  # only the in-process benchmarks (no release daemon)
    scripts/benchmark --quick    # fewer end-to-end samples: checks the tools, not for committing
    scripts/benchmark --no-write # print the documents instead of writing them
    scripts/benchmark --render   # write the documents again from Benchmarks/results.json
    scripts/benchmark --check    # exit 1 unless the documents are what results.json gives

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
   against appstatectl watch, and the gateway's idle memory, which prints its rows;
   scripts/benchmark-kiosk, a current-path change to the navigation committed in the browser
   appstate-kiosk drives, beside chromium navigating by itself, and appstate-kiosk's idle
   memory, which prints its rows.
   Benchmarks/logind-latency.py against the same appstated: a logind property change on a
   private bus to a watcher's event, beside the same change by a direct Varlink call; and
   Benchmarks/idle-latency.py: logind's IdleHint to the event of the idle step it fires, beside
   a direct Present call.
4. Keeps what it measured in Benchmarks/results.json (RESULTS) and writes BENCHMARKS.md from
   it: a summary of every row of the targets table, linked to its page, the notes on the rows
   missed, a map of the pages and how to reproduce them. The pages, in docs/benchmarks/, hold
   the rows by topic (TOPICS), each figure beside its baseline from the same run, the ratio,
   its target and whether it is met, with a note on each row missed or met narrowly and on the
   rows of each caveat in CAVEATS; the bus's page has the callgrind counts; model.md the
   model's figures; soak.md the last soak's result, from SOAK (scripts/soak writes it; this
   script does not run it). Nothing is left out to fit a size: a page over DOCUMENT_LIMIT is
   written whole, with a warning, and its topic is then to be split.
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
# The largest document the test suite accepts (DocumentFiguresTests), past which readers stop
# reading. A longer page is still written whole: its topic is for a person to split in TOPICS.
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
    ("current-path change to the kiosk browser's navigation committed",
     "chromium navigating to the same page by itself (Page.navigate on its own pipe), same run", "p99 ≤ 1.5× the floor"),
    ("appstate-kiosk idle memory", "appstated's VmRSS, idle, same run", "—"),
    ("appstate-kiosk recovery: renderer killed", "chromium's own cold start to the same page, same run", "≤ 1.5× the floor"),
    ("appstate-kiosk recovery: renderer stopped", "chromium's own cold start to the same page, same run",
     "≤ the hang timeout + 1.5× the floor"),
    ("appstate-kiosk recovery: browser killed", "chromium's own cold start to the same page, same run", "≤ 1.5× the floor"),
    ("logind LockedHint change → watcher event", "the same Lock/Unlock by a direct Varlink call", "—"),
    ("Wayland output change → watcher event", "the same Resize by a direct Varlink call", "—"),
    ("ReportActivity sent `oneway`, per report", "GetCurrent round trip on the same connection", "< 1×"),
    ("ReportActivity round trip", "GetCurrent on the same connection, interleaved", "—"),
    ("logind IdleHint → the idle step's Present event", "the same Present by a direct Varlink call", "—"),
    ("keyboard move round trip, 10,006 controllers", "15 controllers", "≤ 2×"),
    ("page turn (durable) round trip, 10,006 controllers", "15 controllers", "≤ 2×"),
    ("page turn (durable), daemon main-thread CPU per call, 10,006 controllers", "15 controllers", "≤ 1.2×"),
    ("start to READY=1, 10,006 controllers", "15 controllers", "≤ 60 ms"),
    ("Watch(path:) of an off-screen paginated container", "—", "0; 100"),
    ("Watch bytes per page turn per watcher, default tree", "the same turns to a watcher asking `subtrees`", "≤ 600 B"),
    ("Watch bytes per page turn per watcher, a container of 1,000 pages", "a container of 3 pages, same daemon", "≤ 1.1×"),
    ("GetTree right after a change, 10,006 controllers", "the same reply written by `appstate-load echo`, same client", "≤ 3×"),
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
    rows += run([ROOT / "scripts" / "benchmark-kiosk"], stdout=subprocess.PIPE, text=True).stdout.strip().splitlines()
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
     "a durable change appends what changed to the journal; the main thread encodes again only "
     "the controllers marked since the last change, which give the change with no comparison of "
     "whole states, but copies the tree's document of saved controllers when it updates it (the "
     "store keeps the last for its next snapshot), and publishes the trees' snapshots."),
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


def soak_section(soak, heading="## Soak"):
    """The soak's result (SOAK) and its table of minutes."""
    if soak is None:
        return [heading, "", f"No soak result ({SOAK.relative_to(ROOT)}): run `scripts/soak`.", ""]

    def figure(value, digits, sign=False):
        return "n/a" if value is None else f"{value:{'+' if sign else ''}.{digits}f}"

    lost = soak["eventsLost"]
    rss = [rss for seconds, rss, _ in soak["samples"] if seconds >= 60]
    return [
        heading,
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
        "| minute | mutations | round trip p50 / p99 | Login event p99 | VmRSS | fds |",
        "|---|---|---|---|---|---|",
        *(f"| {m['minute']} | {m['mutations']:,} | {figure(m['roundTripP50Ms'], 2)} / {figure(m['roundTripP99Ms'], 2)} ms "
          f"| {figure(m['loginEventP99Ms'], 2)} ms | {m['rssKiB'] / 1024:.1f} MiB | {m['fds']} |" for m in soak["minutes"]),
        "",
    ]


# The pages of docs/benchmarks/ that hold the targets table's rows, by topic: (file, title,
# what the page measures, which rows it takes). A row goes to the first topic that takes it,
# and a row no topic takes goes to OTHER, so that no row is ever left out.
TOPICS = [
    ("bus.md", "the notification bus",
     "Posting one notification to 1, 10 and 100 observers, in process: against Foundation's "
     "`NotificationCenter` and against calling the same observers in a loop (`Benchmarks/Sources/BusWorkloads`), "
     "then counted exactly by callgrind.",
     lambda figure: figure.startswith("bus ")),
    ("large-trees.md", "large trees",
     "Generated trees of 15, 997 and 10,006 controllers (`appstate-load scale-tree`): a leaf change's round trip, "
     "`GetTree`, a subtree's `Watch`, memory and start, each beside the 15-controller tree's.",
     lambda figure: "10,006 controllers" in figure or figure.startswith(("Watch(path:)", "VmRSS per controller"))),
    ("daemon.md", "start, memory and calls",
     "A release `appstated` driven end to end by `Benchmarks/Load`: its start and memory, a call's round trip "
     "against an echo server and a forking C server, pipelined calls, `ReportActivity` and `appstatectl`. The "
     "daemon's memory after the load is its VmRSS once the load tool has run every figure.",
     lambda figure: figure.startswith((
         "start to READY=1", "shared libraries", "idle memory", "daemon memory", "request→reply", "round trip on one CPU",
         "pipelined calls", "ReportActivity", "one `appstatectl current`"))),
    ("watchers.md", "watchers",
     "Changes reaching 10 and 1,000 `Watch` streams, back to back and paced at 60 changes a second beside a C "
     "broadcaster (`appstate-load broadcast`) driven by the same client; and the bytes a page turn costs each watcher.",
     lambda figure: figure.startswith(("watch fan-out", "Watch bytes"))),
    ("durability.md", "durable changes",
     "Durable changes from 1 and 16 clients against one write, fsync, rename and fsync of the directory per "
     "change on the same file system: what group commit buys.",
     lambda figure: figure.startswith("durable mutations")),
    ("web.md", "the inspector, the gateway and the kiosk",
     "`appstate-inspect`'s page and the kiosk page through `appstate-gateway`, in headless chromium "
     "(`scripts/benchmark-inspector`, `scripts/benchmark-gateway`), beside a watcher of the same run; and a "
     "screen change reaching the browser `appstate-kiosk` drives, beside chromium navigating by itself "
     "(`scripts/benchmark-kiosk`).",
     lambda figure: figure.startswith(("inspector page", "kiosk page", "appstate-gateway", "chromium's floor",
                                       "current-path change to the kiosk", "appstate-kiosk"))),
    ("followers.md", "following the system",
     "A change of logind (on a private bus) or of a headless sway's output reaching a watcher, beside the same "
     "change by a direct Varlink call, interleaved (`Benchmarks/logind-latency.py`, `Benchmarks/idle-latency.py`, "
     "the load tool's figure 9).",
     lambda figure: figure.startswith(("logind", "Wayland output"))),
]
OTHER = ("other.md", "other figures", "Rows that no other page takes.", lambda figure: True)
# The pages that hold no rows of the targets table.
MODEL_PAGE, SOAK_PAGE = "model.md", "soak.md"
# Where the pages go, and where BENCHMARKS.md's results are kept between runs.
PAGES = ROOT / "docs" / "benchmarks"
RESULTS = ROOT / "Benchmarks" / "results.json"
TABLE_HEADER = ["| figure | value | baseline (same run) | baseline value | ratio | target | |",
                "|---|---|---|---|---|---|---|"]


def measured_lines(info, filesystem=None, end_to_end=None, command=""):
    """The lines that say where and when a part was measured."""
    lines = [f"Measured {info['date']} at {info['commit']} on {info['nproc']} CPUs ({info['cpu']}), {info['kernel']}, "
             f"{info['swift']}; load average at the end {info['load']}."]
    if end_to_end:
        lines.append(f"The end-to-end figures ran against release builds; the state directory of their fsync "
                     f"figures was on {filesystem}.")
    elif end_to_end is not None:
        lines.append("The end-to-end figures were not measured in this run (`--no-load`).")
    if "--quick" in command:
        lines.append("**Quick run: fewer end-to-end samples, for checking the tools only.**")
    return lines


def topic_of(figure):
    return next(topic for topic in [*TOPICS, OTHER] if topic[3](figure))


def counts(rows):
    outcomes = [cells(row)[-1] for row in rows]
    return outcomes.count("met"), sum(outcome in ("met", "**not met**") for outcome in outcomes)


def page_header(title, results, info=None):
    return [
        f"# Benchmarks: {title}",
        "",
        f"Written by `{results['command']}` (Benchmarks/report.py) from `{RESULTS.relative_to(ROOT)}`; do not edit by "
        "hand. [BENCHMARKS.md](../../BENCHMARKS.md) has every target's summary and the other pages.",
        *measured_lines(info or results["info"]),
        "",
    ]


def topic_page(topic, rows, results):
    """A page of docs/benchmarks/: its rows of the targets table in full, and every note on them."""
    name, title, about, _ = topic
    met, targets = counts(rows)
    lines = [
        *page_header(title, results),
        about,
        "",
        f"**{met} of {targets} targets met.**" if targets else "No target here: these rows are tracked for regressions.",
        "",
        "Each figure (a median, per operation) stands beside a baseline from the same run: the machine is shared, so",
        "only ratios within one run mean anything. How each is measured: the header of `Benchmarks/report.py` and the",
        "sources it names. A row whose target is — is tracked for regressions.",
        "",
        *TABLE_HEADER,
        *rows,
        "",
        "## Notes",
        "",
        "Written from the table: every row not met or met with less than a fifth to spare (the next run may miss it),",
        "and the rows this report knows a caveat for.",
        "",
        *(notes(rows, results["filesystem"]) or ["No row here is missed, met narrowly or caveated."]),
    ]
    if name == "bus.md":
        lines += ["", *profile_section(results)]
    return "\n".join(lines) + "\n"


def profile_section(results):
    profile = results.get("profile")
    lines = ["## Counted by callgrind (per post)", ""]
    if not profile:
        return lines + ["Not counted in the run these results come from."]
    same = profile["measured"] == results["info"]
    lines += [
        "Instructions, calls into the Swift runtime's reference counting, and mallocs per post,",
        "counted by `valgrind --tool=callgrind` on `Benchmarks/Sources/BusProfile`: exact, whatever",
        "the machine's load. Retains include calls on immortal or nil references, which return",
        "without an atomic. Each cell: NotificationBus / NotificationCenter / the floor.",
        *([] if same else ["", *measured_lines(profile["measured"])]),
        "",
        "| observers | instructions | retains | releases | mallocs |",
        "|---|---|---|---|---|",
    ]
    by_kind = {(entry["kind"], entry["observers"]): entry for entry in profile["counts"]}
    for observers in OBSERVER_COUNTS:
        entries = [by_kind[(kind, observers)] for kind in ("bus", "center", "direct")]
        lines.append(f"| {observers} | " + " | ".join(" / ".join(number(entry[key]) for entry in entries)
                                                    for key in ("instructions", "retains", "releases", "mallocs")) + " |")
    return lines


def model_page(results):
    model = results.get("model")
    lines = [
        *page_header("the model and the protocol", results, model["measured"] if model else None),
        "The model's and the framing's figures, in process (`Benchmarks/Benchmarks/ModelBenchmarks`,",
        "`Benchmarks/Benchmarks/IPCBenchmarks`). No target: they are tracked for regressions. Model benchmarks",
        "run on the main actor; the hop to it is outside the measurement.",
        "",
        "| figure | time per operation | heap allocations per operation |",
        "|---|---|---|",
    ]
    for figure in model["figures"] if model else []:
        if figure["nanoseconds"] is None:
            lines.append(f"| {figure['description']} | missing from this run | — |")
        else:
            lines.append(f"| {figure['description']} | {number(figure['nanoseconds'] / 1000, 'µs')} "
                         f"| {number(figure['allocations'])} |")
    if not model:
        lines.append("| not measured in the run these results come from | — | — |")
    return "\n".join(lines) + "\n"


def soak_page(results, soak):
    lines = [
        "# Benchmarks: the soak",
        "",
        f"Written by `{results['command']}` (Benchmarks/report.py) from `{SOAK.relative_to(ROOT)}`, which `scripts/soak` "
        "writes; do not edit by hand. [BENCHMARKS.md](../../BENCHMARKS.md) has every target's summary and the other pages.",
        "",
        "`scripts/soak` drives a release daemon with mutations from many clients while watchers follow its tree, and",
        "samples its memory and descriptors every 10 s: memory or descriptors that climb, events lost or watchers cut",
        "off would show here. It takes about ten minutes, too long for every benchmark run, so this page shows the last",
        "soak with its date and commit.",
        "",
        *soak_section(soak, "## The last soak"),
    ]
    return "\n".join(lines).rstrip("\n") + "\n"


def summary_row(row, page):
    """A row of BENCHMARKS.md's summary: the figure's short name, linked to its page, its value,
    ratio, target and verdict."""
    figure, value, _, _, ratio, target, outcome = cells(row)
    return f"| [{short_name(figure)}](docs/benchmarks/{page}) | {value} | {ratio} | {target} | {outcome} |"


def summary(results, pages, soak):
    """BENCHMARKS.md: every target's summary, the rows not met, and a map of the pages."""
    rows = results["rows"]
    met, targets = counts(rows)
    missed = [row for row in rows if cells(row)[-1] == "**not met**"]
    lines = [
        "# Benchmarks",
        "",
        f"Written by `{results['command']}` (Benchmarks/report.py says what it runs) from "
        f"`{RESULTS.relative_to(ROOT)}`; do not edit by hand.",
        *measured_lines(results["info"], results["filesystem"], results["endToEnd"], results["command"]),
        "",
        f"**{met} of {targets} targets met.**",
        "",
        "## Targets",
        "",
        "The machine is shared: each figure (a median, per operation) stands beside a baseline from the",
        "same run, on the page its name links to, with the notes on it. A row whose target is — is",
        "tracked for regressions.",
        "",
        "| figure | value | ratio | target | |",
        "|---|---|---|---|---|",
        *(summary_row(row, topic_of(cells(row)[0])[0]) for row in rows),
        "",
        "## Notes",
        "",
        "Every row not met, with the caveats on it; its page has every note on its rows, those met narrowly too.",
        "",
        *(notes(missed, results["filesystem"], narrow=False, every_caveat=False) or ["Every target is met."]),
        "",
        "## The pages",
        "",
    ]
    for name, title, about, _ in [*TOPICS, OTHER]:
        if name in pages:
            page_met, page_targets = counts(pages[name])
            lines.append(f"- [docs/benchmarks/{name}](docs/benchmarks/{name}): {title}: {len(pages[name])} rows, "
                         + (f"{page_met} of {page_targets} targets met" if page_targets else "no target")
                         + ("; and the bus counted by callgrind" if name == "bus.md" else "") + ".")
    model_run = results["model"]["measured"] if results.get("model") else None
    lines.append(f"- [docs/benchmarks/{MODEL_PAGE}](docs/benchmarks/{MODEL_PAGE}): the model and the protocol, "
                 "tracked without targets"
                 + (f" (measured at {model_run['commit']})" if model_run and model_run != results["info"] else "") + ".")
    lines.append(f"- [docs/benchmarks/{SOAK_PAGE}](docs/benchmarks/{SOAK_PAGE}): the last soak"
                 + (f", {soak['date']} at {soak['commit']}: {soak['mutations']:,} mutations, {soak['watchers']} watchers"
                    if soak else ": none yet") + ".")
    lines += [
        "",
        "## Reproducing",
        "",
        "`scripts/benchmark` runs everything, keeps the results in `Benchmarks/results.json` and writes this file",
        "and its pages (needs valgrind): `--no-load` the in-process figures only, `--quick` fewer end-to-end samples,",
        "`--no-write` prints them instead, `--render` writes them again from the kept results without measuring.",
        "Some rows alone: `scripts/benchmark-load --only 1,2` (numbered as in",
        "`Benchmarks/Load/Sources/appstate-load/main.swift`; its log: `Benchmarks/Load/.build/run/log.txt`),",
        "`scripts/benchmark-inspector`, `scripts/benchmark-gateway` (`--debug`, `--write`), and",
        "`swift package --package-path Benchmarks benchmark --filter 'bus post.*'`.",
        "[docs/measuring.md](docs/measuring.md) says how each part is measured.",
    ]
    return "\n".join(lines) + "\n"


def documents(results):
    """BENCHMARKS.md and its pages, by path from the repository's root, from the kept results.
    Nothing is left out: a document over DOCUMENT_LIMIT is written whole, with a warning."""
    soak = json.loads(SOAK.read_text()) if SOAK.exists() else None
    pages = collections.OrderedDict()
    for row in results["rows"]:
        pages.setdefault(topic_of(cells(row)[0])[0], []).append(row)
    texts = {"BENCHMARKS.md": summary(results, pages, soak)}
    for topic in [*TOPICS, OTHER]:
        if topic[0] in pages:
            texts[f"docs/benchmarks/{topic[0]}"] = topic_page(topic, pages[topic[0]], results)
    texts[f"docs/benchmarks/{MODEL_PAGE}"] = model_page(results)
    texts[f"docs/benchmarks/{SOAK_PAGE}"] = soak_page(results, soak)
    for path, text in texts.items():
        if len(text.encode()) > DOCUMENT_LIMIT:
            print(f"warning: {path} is {len(text.encode()):,} bytes, over the {DOCUMENT_LIMIT:,} the test suite accepts "
                  "(DocumentFiguresTests): split its topic in TOPICS", file=sys.stderr)
    return texts


def results_of(command, info, figures, profile, load):
    """What a run measured, as BENCHMARKS.md and its pages are written from it and RESULTS keeps it;
    `load` is None when the end-to-end part did not run."""
    wall = {name: value for (name, metric), value in figures.items() if metric == "wallClock"}
    mallocs = {name: value for (name, metric), value in figures.items() if metric == "mallocCountTotal"}
    rows = in_process_rows(wall, mallocs)
    if load:
        rows += load["rows"]
    else:
        rows += [f"| {figure} | {NOT_MEASURED} | {baseline} | — | — | {target} | — |"
                 for figure, baseline, target in END_TO_END]
    return {
        "command": command,
        "info": info,
        "endToEnd": load is not None,
        "filesystem": load["filesystem"] if load else None,
        "rows": rows,
        "profile": {"measured": info, "counts": [{"kind": kind, "observers": observers, **entry}
                                                 for (kind, observers), entry in profile.items()]},
        "model": {"measured": info, "figures": [{"description": description, "nanoseconds": wall.get(name),
                                                 "allocations": mallocs.get(name)} for name, description in MODEL.items()]},
    }


def load_results():
    return json.loads(RESULTS.read_text())


def save_results(results):
    RESULTS.write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n")


def write_documents(texts):
    """Writes the documents, and removes pages of an earlier run that this one has not."""
    PAGES.mkdir(parents=True, exist_ok=True)
    for stale in set(PAGES.glob("*.md")) - {ROOT / path for path in texts}:
        stale.unlink()
    for path, text in texts.items():
        (ROOT / path).write_text(text)
        print(f"wrote {ROOT / path}", file=sys.stderr)


def check():
    """Whether the documents on disk are those the kept results give: 0 if so, else 1, naming
    each that is not."""
    texts = documents(load_results())
    wrong = [path for path, text in texts.items()
             if not (ROOT / path).exists() or (ROOT / path).read_text() != text]
    wrong += [str(path.relative_to(ROOT)) for path in PAGES.glob("*.md") if str(path.relative_to(ROOT)) not in texts]
    for path in wrong:
        print(f"{path} is not what Benchmarks/report.py writes from {RESULTS.relative_to(ROOT)}: "
              "run scripts/benchmark --render (never edit it by hand)", file=sys.stderr)
    return 1 if wrong else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0].replace("\n", " "))
    parser.add_argument("--no-write", action="store_true", help="print the documents instead of writing them")
    parser.add_argument("--no-load", action="store_true", help="skip the end-to-end figures (no release daemon)")
    parser.add_argument("--quick", action="store_true", help="fewer end-to-end samples, for checking the tools")
    parser.add_argument("--render", action="store_true", help="write the documents from the kept results, measuring nothing")
    parser.add_argument("--check", action="store_true", help="exit 1 unless the documents are what the kept results give")
    arguments = parser.parse_args()
    if arguments.check:
        sys.exit(check())
    if arguments.render:
        results = load_results()
    else:
        command = " ".join(["scripts/benchmark", *sys.argv[1:]])
        with tempfile.TemporaryDirectory(prefix="appstate-benchmark-") as directory:
            out = pathlib.Path(directory)
            figures = run_benchmarks(out)
            profile = profile_bus(out)
            load = None if arguments.no_load else run_load(arguments.quick)
            results = results_of(command, machine(), figures, profile, load)
    texts = documents(results)
    if arguments.no_write:
        for path, text in texts.items():
            print(f"==> {path} <==\n{text}")
        return
    if not arguments.render:
        save_results(results)
    write_documents(texts)


if __name__ == "__main__":
    main()
