// The kiosk page's only script: follow the daemon (appstate.js keeps <html>'s attributes and
// custom properties in step, which kiosk.css reads) and report touches and key presses to the
// daemon as activity, at most once per ACTIVITY_INTERVAL_MS, so that its idle steps (lock,
// log out) wait while someone uses the kiosk.

import { connect } from "./appstate.js";

const ACTIVITY_INTERVAL_MS = 1000;

const appstate = connect();
let lastReport = -Infinity;

function reportActivity() {
  const now = performance.now();
  if (now - lastReport < ACTIVITY_INTERVAL_MS) return;
  lastReport = now;
  // A daemon without ReportActivity, or one that is restarting, answers with an error: the
  // page carries on.
  appstate.call("ReportActivity").catch(() => {});
}

for (const type of ["pointerdown", "keydown", "wheel"]) {
  addEventListener(type, reportActivity, { capture: true, passive: true });
}
