import AppStateCore

/// The JavaScript that appstate-kiosk puts into the pages it shows: what they need from
/// appstate without including appstate.js.
enum KioskScripts {
    /// The binding through which a page says whether an editable element has the focus.
    static let focusBinding = "appstateKioskFocus"

    /// Reports through ``focusBinding`` whether an editable element (a text input, a textarea,
    /// anything contenteditable) has the focus: "editable" when one gains it or is touched
    /// again while it has it, "none" once the focus has left every editable element. A frame
    /// reports for itself; a document whose focus is in one of its frames leaves it to that frame.
    static let focus = """
        (() => {
          const installed = Symbol.for("appstate-kiosk.focus");
          if (globalThis[installed]) return;
          globalThis[installed] = true;
          const send = globalThis.\(focusBinding);
          const textless = new Set(["button", "checkbox", "color", "file", "hidden", "image", "radio", "range", "reset", "submit"]);
          const focused = () => {
            let element = document.activeElement;
            while (element && element.shadowRoot && element.shadowRoot.activeElement) element = element.shadowRoot.activeElement;
            return element;
          };
          const editable = (element) => {
            if (!element || element.disabled || element.readOnly) return false;
            if (element.isContentEditable || element.localName === "textarea") return true;
            return element.localName === "input" && !textless.has(element.type);
          };
          let reported = null;
          const report = (again) => {
            const element = focused();
            if (element && (element.localName === "iframe" || element.localName === "frame")) return;
            const now = editable(element);
            if (now === reported && !(again && now)) return;
            reported = now;
            send(now ? "editable" : "none");
          };
          addEventListener("focusin", () => report(false), true);
          addEventListener("focusout", () => setTimeout(() => report(false), 0), true);
          addEventListener("pointerup", () => report(true), true);
        })();
        """

    /// The binding through which a blanked page says that someone touched it.
    static let wakeBinding = "appstateKioskWake"

    /// Covers the page with black and holds back every input from it: the first touch, click
    /// or key only asks through ``wakeBinding`` to wake the screen, and the rest of that
    /// gesture (its release, its click) is held back too, however soon the screen wakes.
    static let blank = """
        (() => {
          const key = Symbol.for("appstate-kiosk.blank");
          if (globalThis[key]) return globalThis[key].blank();
          const cover = document.createElement("div");
          cover.style.cssText = "position:fixed;inset:0;background:#000;z-index:2147483647;cursor:none";
          const types = ["pointerdown", "pointerup", "pointermove", "mousedown", "mouseup", "mousemove", "click", "dblclick",
            "auxclick", "contextmenu", "touchstart", "touchmove", "touchend", "keydown", "keypress", "keyup", "wheel"];
          const state = { blanked: false, gesture: false, listening: false };
          const stop = () => {
            if (!state.listening) return;
            state.listening = false;
            for (const type of types) removeEventListener(type, hold, true);
          };
          const hold = (event) => {
            event.stopImmediatePropagation();
            event.preventDefault();
            if (state.blanked && ["pointerdown", "mousedown", "touchstart", "keydown", "click"].includes(event.type) && !state.gesture) {
              state.gesture = true;
              globalThis.\(wakeBinding)("wake");
            }
            if (["pointerup", "mouseup", "touchend", "keyup", "click"].includes(event.type) && state.gesture) {
              // The click that follows a release comes in the same task: the gesture ends after it.
              setTimeout(() => {
                state.gesture = false;
                if (!state.blanked) stop();
              }, 0);
            }
          };
          const show = () => (document.documentElement ?? document).appendChild(cover);
          globalThis[key] = {
            blank() {
              state.blanked = true;
              if (!state.listening) {
                state.listening = true;
                for (const type of types) addEventListener(type, hold, { capture: true, passive: false });
              }
              if (document.documentElement) show();
              else new MutationObserver((_, observer) => {
                if (!document.documentElement) return;
                observer.disconnect();
                if (state.blanked) show();
              }).observe(document, { childList: true });
            },
            wake() {
              state.blanked = false;
              cover.remove();
              if (!state.gesture) stop();
            },
          };
          globalThis[key].blank();
        })();
        """

    /// Uncovers a blanked page; the input of a gesture that woke it is held back to its end.
    static let wake = """
        (() => {
          const blanked = globalThis[Symbol.for("appstate-kiosk.blank")];
          if (blanked) blanked.wake();
        })();
        """

    /// Writes the screen's attributes and custom properties on `<html>`: at once in a document
    /// that has its root element, else as soon as the parser makes it (a script evaluated on a
    /// new document runs before there is one).
    /// - Parameter screen: The screen whose properties to write.
    static func documentProperties(of screen: KioskScreen) -> String {
        let properties = JSONValue.array(screen.documentProperties.map { .array([.string($0.name), .string($0.value)]) })
        return """
            ((properties) => {
              const apply = () => {
                const html = document.documentElement;
                for (const [name, value] of properties) {
                  if (name.startsWith("--")) html.style.setProperty(name, value);
                  else html.setAttribute(name, value);
                }
              };
              if (document.documentElement) apply();
              else new MutationObserver((_, observer) => {
                if (!document.documentElement) return;
                observer.disconnect();
                apply();
              }).observe(document, { childList: true });
            })(\(properties.jsonText));
            """
    }

    /// The built-in offline page, for a tree whose file gives none: a screen that says it will
    /// be back, rather than the browser's error page.
    static let offlinePage =
        "data:text/html;charset=utf-8,"
        + "<!doctype html><html><head><title>Back soon</title></head>"
        + "<body style=%22margin:0;height:100vh;display:flex;align-items:center;justify-content:center;"
        + "background:%23111;color:%23eee;font:48px sans-serif%22>"
        + "<p>This screen will be back in a moment.</p></body></html>"

    /// Scrolls the focused element into view, once the viewport has made room for the keyboard.
    static let revealFocused = """
        (() => {
          let element = document.activeElement;
          while (element && element.shadowRoot && element.shadowRoot.activeElement) element = element.shadowRoot.activeElement;
          if (element && element !== document.body) element.scrollIntoView({ block: "nearest", inline: "nearest" });
        })();
        """
}
