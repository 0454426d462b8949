"""What the browser figures' row scripts share (Benchmarks/inspector_row.py,
Benchmarks/gateway_row.py): the note of a run alone, putting rows in the targets table that
Benchmarks/results.json keeps (and writing BENCHMARKS.md and its pages again from it), and the
command line."""
import argparse
import datetime
import json
import os
import subprocess
import sys

import report


def ms(value):
    return f"{value:.1f} ms"


def alone_note(script):
    """What a row run by `script` alone says of its run: the commit, the time, the load."""
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    return f"; run alone by {script} at {commit} on {when}, load average {os.getloadavg()[0]:.2f}"


def write(path, prefixes, new):
    """Puts the rows `new` in the targets table of the results kept at `path`: in place of the
    rows that start with one of `prefixes`, or after the table's last row; then writes
    BENCHMARKS.md and its pages again from those results."""
    results = json.load(open(path))
    rows = results["rows"]
    existing = [index for index, text in enumerate(rows) if text.startswith(prefixes)]
    at = existing[0] if existing else len(rows)
    for index in reversed(existing):
        del rows[index]
    rows[at:at] = new
    with open(path, "w") as output:
        output.write(json.dumps(results, indent=1, ensure_ascii=False) + "\n")
    report.write_documents(report.documents(results))


def main(doc, prefixes, rows):
    """Reads the measure's JSON on stdin, prints `rows(timings, build, alone)` and, with
    --write FILE, puts them in FILE."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--build", required=True)
    parser.add_argument("--write")
    arguments = parser.parse_args()
    new = rows(json.load(sys.stdin), arguments.build, alone=arguments.write is not None)
    print("\n".join(new))
    if arguments.write:
        write(arguments.write, prefixes, new)
