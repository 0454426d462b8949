#!/usr/bin/env python3
"""Follow appstated's Watch stream and print the current screen on every change.

A front-end (a kiosk browser page, a Qt or GTK shell, a greeter) does the same: ask once
for the tree, then redraw whenever the daemon says the current screen changed.

    python3 watch-screen.py [unix:/run/appstate/io.appstate] [--count N]

Needs the `varlink` package from PyPI (pip install varlink).
"""
import argparse
import os
import sys

import varlink


def find(node, path):
    """The node at a full path in a snapshot."""
    if node["path"] == path:
        return node
    for child in node.get("children", []):
        if path == child["path"] or path.startswith(child["path"] + "/"):
            return find(child, path)
    return None


def describe(root, current):
    """One line: the current screen's path, its rectangle and its insets."""
    node = find(root, current) or root
    frame, inset = node["frame"], node["contentInset"]
    line = "%s %gx%g+%g+%g" % (current, frame["width"], frame["height"], frame["x"], frame["y"])
    if inset["bottom"]:
        line += " inset-bottom=%g" % inset["bottom"]
    return line


def deepest(node):
    """The end of the chain of current children."""
    while node.get("current"):
        node = next(child for child in node["children"] if child["identifier"] == node["current"])
    return node["path"]


def main():
    default = "unix:" + os.environ.get("APPSTATE_SOCKET", "/run/appstate/io.appstate")
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("address", nargs="?", default=default)
    parser.add_argument("--count", type=int, default=0, help="stop after this many changes (0: never)")
    arguments = parser.parse_args()
    with varlink.Client(address=arguments.address) as client, client.open("io.appstate") as appstate:
        changes = 0
        # full: every reply carries the whole tree, so this client keeps no copy of its own.
        for reply in appstate.Watch(full=True, _more=True):
            root = reply["root"]
            current = reply["event"]["current"] if "event" in reply else deepest(root)
            cause = reply["event"]["name"] if "event" in reply else "snapshot"
            print("%s: %s" % (cause, describe(root, current)), flush=True)
            if "event" in reply:
                changes += 1
                if arguments.count and changes >= arguments.count:
                    return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
