// appstate.js: follow appstated from a web page, through appstate-gateway.
//
//   import { connect } from "/appstate.js";
//   const appstate = connect();                 // the token from ?token= or the gateway's cookie
//   appstate.on("change", ({ current }) => console.log(current));
//   await appstate.call("ShowKeyboard", { height: 320 });
//   await appstate.call("RequestKeyboard", { visible: true });  // the keyboard appstated follows
//
// connect({ token, path, tree, report }) returns an object with
//   tree       the followed (sub)tree as GetTree returns it, updated in place; null until the first
//   current    the deepest current path, e.g. "session/home/pages/overview"; null until the first
//   connected  whether the page follows the daemon right now
//   ready      a promise settled once the first tree has arrived
//   on(name, listener)  "change" ({ tree, current, event }) after each change, the first tree
//                       included (event null); "status" ({ connected, message }); returns a function
//                       that removes the listener
//   call(method, parameters)  calls an allowed method ("GetTree" or "io.appstate.GetTree"); resolves
//                       to the reply's parameters, rejects with an AppStateError (name, parameters,
//                       status)
//   close()    stops following
//
// While it follows the daemon it reports the page to it as a front-end of the tree (unless
// connect is given report: false): ReportFrontEnd with kind "page", a name of the page's own
// ("page 7f3a9c01 /index.html", drawn at each load), state "live" every REPORT_EVERY_MS with a
// liveness interval (LIVENESS_INTERVAL_S) twice as long, so that one lost report does not mark
// it down, and "down" when the page goes away (pagehide). `appstatectl status` lists it; the
// daemon marks it down when its reports stop. A gateway that does not allow the method (403)
// or a daemon without it (501) ends the reports.
//
// Without any code of the page's, it keeps <html> in step with the daemon, for CSS to use:
//   data-appstate-current        the deepest current path
//   data-appstate-connected      "true" while the page follows the daemon, else "false"
//   --appstate-keyboard-height   how far the keyboard covers the screen: the largest keyboard
//                                overlap of an on-screen keyboard-aware container, 0px without one
//   --appstate-inset-top, -left, -bottom, -right   the current controller's content insets
//   --appstate-width, --appstate-height            the current controller's frame size
// Lengths are in CSS pixels, one per point of the daemon's window.
//
// When a customer's session ends (the tree's login container logs out, or another user
// replaces the one logged in), it clears the page's local and session storage and asks the
// gateway for POST /clear-site-data, whose answer clears the gateway's origin: cache, storage,
// IndexedDB, service workers and every cookie but the gateway's own.
//
// It reconnects by itself, with a growing delay, after the gateway or the daemon went away, and
// is then brought back to the current tree.

const INTERFACE = "io.appstate";
const FIRST_RETRY_MS = 250;
const LAST_RETRY_MS = 3000;
const REPORT_EVERY_MS = 5000;
const LIVENESS_INTERVAL_S = 10;

/** An error the gateway or the daemon answered a call with. */
export class AppStateError extends Error {
  constructor(name, parameters, status) {
    super(`${name}${Object.keys(parameters).length ? " " + JSON.stringify(parameters) : ""}`);
    this.name = name;
    this.parameters = parameters;
    this.status = status;
  }
}

/** Starts following the daemon; see the top of this file. */
export function connect({ token = null, path = null, tree = null, report = true, base = new URL(".", import.meta.url) } = {}) {
  return new AppState({ token: token ?? takeTokenFromLocation(), path, tree, report, base: new URL(base, location.href) });
}

// The page's name as a front-end: drawn at each load, with its path for a person to recognise.
function frontEndName() {
  const id = Array.from(crypto.getRandomValues(new Uint8Array(4)), (byte) => byte.toString(16).padStart(2, "0")).join("");
  return `page ${id} ${location.pathname}`.slice(0, 200);
}

// A token in the page's own URL (a kiosk opens http://…/?token=…) is used, and taken out of the
// address bar: the gateway has set its cookie, which the page's later requests carry.
function takeTokenFromLocation() {
  const url = new URL(location.href);
  const token = url.searchParams.get("token");
  if (token === null) return null;
  url.searchParams.delete("token");
  history.replaceState(history.state, "", url);
  return token;
}

class AppState {
  #options;
  #listeners = { change: new Set(), status: new Set() };
  #source = null;
  #lastEventId = null;
  #retryMs = FIRST_RETRY_MS;
  #retryTimer = null;
  #closed = false;
  #streamOpen = false;
  #daemonConnected = false;
  #written = new Map();
  #sessions = null;
  #settle;
  #reportTimer = null;
  #reporting;
  #reportedLive = false;
  #name = frontEndName();

  constructor(options) {
    this.#options = options;
    this.tree = null;
    this.current = null;
    this.connected = false;
    this.ready = new Promise((resolve) => { this.#settle = resolve; });
    this.#reporting = options.report;
    if (this.#reporting) {
      addEventListener("pagehide", () => this.#stopReporting("the page was closed"));
      // A page the browser kept (the back-forward cache) and shows again is live again.
      addEventListener("pageshow", (event) => { if (event.persisted && this.connected) this.#startReporting(); });
    }
    this.#open();
  }

  on(name, listener) {
    const listeners = this.#listeners[name];
    if (listeners === undefined) throw new TypeError(`appstate.js has no "${name}" event`);
    listeners.add(listener);
    return () => listeners.delete(listener);
  }

  async call(method, parameters = {}) {
    return this.#post(method, parameters, false);
  }

  // keepalive lets a call made as the page goes away outlive it.
  async #post(method, parameters, keepalive) {
    const name = method.includes(".") ? method : `${INTERFACE}.${method}`;
    const headers = { "Content-Type": "application/json" };
    if (this.#options.token !== null) headers.Authorization = `Bearer ${this.#options.token}`;
    const response = await fetch(new URL(`call/${name}`, this.#options.base), {
      method: "POST", headers, body: JSON.stringify(parameters), credentials: this.#credentials(), keepalive,
    });
    const body = await response.json().catch(() => null);
    if (response.ok) return body ?? {};
    throw new AppStateError(body?.error ?? `HTTP ${response.status}`, body?.parameters ?? {}, response.status);
  }

  close() {
    this.#closed = true;
    this.#stopReporting("the page stopped following the daemon");
    this.#reporting = false;
    clearTimeout(this.#retryTimer);
    this.#source?.close();
    this.#source = null;
  }

  #credentials() {
    return this.#options.base.origin === location.origin ? "same-origin" : "include";
  }

  #open() {
    const url = new URL("watch", this.#options.base);
    if (this.#options.path !== null) url.searchParams.set("path", this.#options.path);
    if (this.#options.tree !== null) url.searchParams.set("tree", this.#options.tree);
    if (this.#lastEventId !== null) url.searchParams.set("lastEventId", this.#lastEventId);
    if (this.#options.token !== null) url.searchParams.set("token", this.#options.token);
    const source = new EventSource(url, { withCredentials: this.#credentials() === "include" });
    this.#source = source;
    source.addEventListener("open", () => {
      this.#streamOpen = true;
      this.#retryMs = FIRST_RETRY_MS;
    });
    source.addEventListener("status", (message) => {
      const status = JSON.parse(message.data);
      this.#daemonConnected = status.connected;
      this.#status(status.message);
    });
    source.addEventListener("snapshot", (message) => {
      this.#lastEventId = message.lastEventId;
      this.tree = JSON.parse(message.data).root;
      this.#changed(null);
    });
    source.addEventListener("change", (message) => {
      this.#lastEventId = message.lastEventId;
      const reply = JSON.parse(message.data);
      if (this.tree === null) return;
      this.tree = applyChanges(this.tree, reply.changed ?? [], reply.removed ?? [], reply.patches ?? {});
      this.#changed(reply.event ?? null);
    });
    source.addEventListener("refused", (message) => {
      this.#status(`the daemon refused to follow: ${message.data}`);
    });
    // Whatever went wrong (the gateway restarting, a refusal, a network error), this module
    // reconnects itself, waiting longer each time, rather than at the browser's fixed pace.
    source.addEventListener("error", () => {
      source.close();
      if (this.#source !== source || this.#closed) return;
      this.#streamOpen = false;
      this.#status("the gateway cannot be reached; reconnecting");
      this.#retryTimer = setTimeout(() => this.#open(), this.#retryMs * (0.75 + Math.random() / 2));
      this.#retryMs = Math.min(this.#retryMs * 2, LAST_RETRY_MS);
    });
  }

  #status(message) {
    const was = this.connected;
    this.connected = this.#streamOpen && this.#daemonConnected;
    // Reports go out while they can reach the daemon; one that cannot is marked down by it.
    if (this.connected && !was) this.#startReporting();
    if (!this.connected) this.#stopReporting(null);
    this.#write("data-appstate-connected", String(this.connected));
    for (const listener of this.#listeners.status) listener({ connected: this.connected, message });
  }

  #changed(event) {
    const sessions = new Map();
    collectSessions(this.tree, sessions);
    if (this.#sessions !== null && [...this.#sessions].some(([path, user]) => sessions.get(path) !== user)) this.#clearSession();
    this.#sessions = sessions;
    this.current = deepestCurrentPath(this.tree);
    this.#sync();
    this.#settle();
    const detail = { tree: this.tree, current: this.current, event };
    for (const listener of this.#listeners.change) listener(detail);
  }

  #startReporting() {
    if (!this.#reporting || this.#reportTimer !== null) return;
    this.#reportedLive = true;
    this.#report("live", null, false);
    this.#reportTimer = setInterval(() => this.#report("live", null, false), REPORT_EVERY_MS);
  }

  // Stops the reports; with a reason, says the page is down, as it goes away (the stream may
  // be closed by then: the browser ends it as it leaves the page).
  #stopReporting(reason) {
    clearInterval(this.#reportTimer);
    this.#reportTimer = null;
    if (reason === null || !this.#reporting || !this.#reportedLive) return;
    this.#reportedLive = false;
    this.#report("down", reason, true);
  }

  #report(state, reason, keepalive) {
    const parameters = { kind: "page", name: this.#name, state, livenessInterval: LIVENESS_INTERVAL_S };
    if (this.#options.tree !== null) parameters.tree = this.#options.tree;
    if (reason !== null) parameters.reason = reason;
    this.#post("ReportFrontEnd", parameters, keepalive).catch((error) => {
      if (error.status !== 403 && error.status !== 501) return;
      this.#reporting = false;
      this.#stopReporting(null);
    });
  }

  // The customer's session ended: nothing of it stays for the next customer.
  #clearSession() {
    try {
      localStorage.clear();
      sessionStorage.clear();
    } catch (error) {}
    const headers = {};
    if (this.#options.token !== null) headers.Authorization = `Bearer ${this.#options.token}`;
    fetch(new URL("clear-site-data", this.#options.base), { method: "POST", headers, credentials: this.#credentials() }).catch(() => {});
  }

  // Writes what CSS reads on <html>, touching only what changed.
  #sync() {
    const node = nodeAt(this.tree, this.current) ?? this.tree;
    const inset = node.contentInset ?? { top: 0, left: 0, bottom: 0, right: 0 };
    this.#write("data-appstate-current", this.current);
    this.#write("--appstate-keyboard-height", px(keyboardHeight(this.tree)));
    for (const edge of ["top", "left", "bottom", "right"]) this.#write(`--appstate-inset-${edge}`, px(inset[edge]));
    this.#write("--appstate-width", px(node.frame.width));
    this.#write("--appstate-height", px(node.frame.height));
  }

  #write(name, value) {
    if (this.#written.get(name) === value) return;
    this.#written.set(name, value);
    const html = document.documentElement;
    if (name.startsWith("--")) html.style.setProperty(name, value);
    else html.setAttribute(name, value);
  }
}

function px(points) {
  return `${Number.isFinite(points) ? points : 0}px`;
}

// Watch's changes: each changed subtree replaces the node at its path, children included,
// each removed path goes with its descendants, and each patch (a JSON Merge Patch of a node's
// members but its children) is merged into the node at its path, null taking a member away.
function applyChanges(root, changed, removed, patches) {
  for (const node of changed) {
    if (node.path === root.path) {
      root = node;
      continue;
    }
    const parent = nodeAt(root, parentPath(node.path));
    const index = parent?.children.findIndex((child) => child.path === node.path) ?? -1;
    if (index >= 0) parent.children[index] = node;
    else parent?.children.push(node);
  }
  for (const path of removed) {
    const parent = nodeAt(root, parentPath(path));
    if (parent) parent.children = parent.children.filter((child) => child.path !== path);
  }
  for (const [path, patch] of Object.entries(patches)) {
    const node = nodeAt(root, path);
    if (!node) continue;
    for (const [member, value] of Object.entries(patch)) {
      if (member === "children") continue;
      if (value === null) delete node[member];
      else node[member] = value;
    }
  }
  return root;
}

function parentPath(path) {
  return path.slice(0, Math.max(0, path.lastIndexOf("/")));
}

function nodeAt(root, path) {
  if (root === null || path === null) return null;
  if (path === root.path) return root;
  if (!path.startsWith(root.path + "/")) return null;
  let node = root;
  for (const identifier of path.slice(root.path.length + 1).split("/")) {
    node = node.children.find((child) => child.identifier === identifier);
    if (node === undefined) return null;
  }
  return node;
}

function deepestCurrentPath(node) {
  for (;;) {
    const child = node.current == null ? undefined : node.children.find((candidate) => candidate.identifier === node.current);
    if (child === undefined) return node.path;
    node = child;
  }
}

// Each login-state container's user, by the container's path.
function collectSessions(node, sessions) {
  if (node.user != null) sessions.set(node.path, node.user);
  for (const child of node.children) collectSessions(child, sessions);
}

function keyboardHeight(node) {
  let height = node.onScreen && node.keyboardOverlap > 0 ? node.keyboardOverlap : 0;
  for (const child of node.children) height = Math.max(height, keyboardHeight(child));
  return height;
}
