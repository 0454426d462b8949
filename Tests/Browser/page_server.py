"""Pages for appstate-kiosk's tests, served on 127.0.0.1 by the test itself.

Every page reports what it sees back to this server, which prints each request as one JSON
line on stdout (after a first line "listening on PORT"), so that a test reads what the
browser did without driving the browser itself:

  GET /NAME                  a page that reports "load" with its innerHeight and the cookie and
                             localStorage item it found on arrival, "resize" with its
                             innerHeight, "focus" and "blur" of its text field, and polls
                             /command
  GET /NAME?remember=VALUE   the same page, which first sets the cookie "customer" and the
                             localStorage item "cart" to VALUE
  GET /NAME?focus=1          the same page, which focuses its text field once loaded
  GET /report?...            what a page reports (printed, answered 204)
  GET /command?page=NAME     the next command the test wrote on stdin for that page:
                             "NAME focus", "NAME blur", "NAME navigate PATH" or "NAME click",
                             which presses and releases the pointer on the page's counter
                             (it reports "count" with the count when it counts a click)

It listens on a free port, or on the port given as its only argument. Stop it by closing its
stdin.
"""

import http.server
import json
import queue
import sys
import threading
import urllib.parse

COMMANDS = {}
LOCK = threading.Lock()
# print() writes a line and its end apart: requests served at once would mix their lines.
OUTPUT = threading.Lock()

PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>%(name)s</title>
<style>html, body { margin: 0; height: 100%%; } input { position: absolute; bottom: 40px; left: 40px; }</style>
</head><body>
<h1>%(name)s</h1>
<input id="field" type="text" placeholder="type here">
<button id="counter" type="button">0</button>
<script>
const page = %(name_json)s;
const parameters = new URLSearchParams(location.search);
// What the page found on arrival, before it remembers anything itself.
const arrived = { cookie: document.cookie, storage: String(localStorage.getItem("cart")) };
function report(event, extra = {}) {
  const query = new URLSearchParams({ page, event, innerHeight: String(innerHeight), innerWidth: String(innerWidth),
    cookie: arrived.cookie, storage: arrived.storage,
    current: document.documentElement.getAttribute("data-appstate-current") || "",
    keyboard: getComputedStyle(document.documentElement).getPropertyValue("--appstate-keyboard-height").trim(), ...extra });
  return fetch("/report?" + query).catch(() => {});
}
if (parameters.has("remember")) {
  document.cookie = "customer=" + parameters.get("remember") + "; path=/; max-age=3600";
  localStorage.setItem("cart", parameters.get("remember"));
}
addEventListener("load", () => {
  report("load");
  if (parameters.get("focus") === "1") document.getElementById("field").focus();
});
addEventListener("resize", () => report("resize"));
// Whatever is put over the page beside <head> and <body>, as a blanked screen's cover is.
new MutationObserver(() => report("cover", { covers: String(document.documentElement.children.length - 2) }))
  .observe(document.documentElement, { childList: true });
document.getElementById("field").addEventListener("focus", () => report("focus"));
document.getElementById("field").addEventListener("blur", () => report("blur"));
let count = 0;
document.getElementById("counter").addEventListener("click", () => {
  count += 1;
  document.getElementById("counter").textContent = String(count);
  report("count", { count: String(count) });
});
// A touch as the browser delivers one: down, up, then the click.
function press(target) {
  const options = { bubbles: true, cancelable: true, composed: true, view: window };
  for (const type of ["pointerdown", "mousedown", "pointerup", "mouseup"]) {
    const Event = type.startsWith("pointer") ? PointerEvent : MouseEvent;
    target.dispatchEvent(new Event(type, options));
  }
  target.click();
}
async function poll() {
  for (;;) {
    try {
      const command = await (await fetch("/command?page=" + encodeURIComponent(page))).text();
      if (command === "focus") document.getElementById("field").focus();
      else if (command === "blur") document.getElementById("field").blur();
      else if (command.startsWith("navigate ")) location.href = command.slice(9);
      else if (command === "click") press(document.getElementById("counter"));
    } catch (error) {}
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
poll();
</script>
</body></html>
"""


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        query = dict(urllib.parse.parse_qsl(url.query, keep_blank_values=True))
        with OUTPUT:
            sys.stdout.write(json.dumps({"path": url.path, "query": query}) + "\n")
            sys.stdout.flush()
        if url.path == "/report":
            self.send_response(204)
            self.end_headers()
            return
        if url.path == "/command":
            with LOCK:
                pending = COMMANDS.get(query.get("page", ""))
                command = pending.pop(0) if pending else ""
            self.reply(200, "text/plain", command)
            return
        if url.path == "/favicon.ico":
            self.reply(404, "text/plain", "")
            return
        name = url.path.strip("/") or "index"
        self.reply(200, "text/html", PAGE % {"name": name, "name_json": json.dumps(name)})

    def reply(self, status, content_type, body):
        data = body.encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type + "; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(data)


def main():
    # A port given as the only argument: the same server again, after a test stopped it.
    port = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
    server.daemon_threads = True
    print(f"listening on {server.server_address[1]}", flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    for line in sys.stdin:
        parts = line.split(maxsplit=1)
        if len(parts) == 2:
            with LOCK:
                COMMANDS.setdefault(parts[0], []).append(parts[1].strip())
    server.shutdown()


if __name__ == "__main__":
    main()
