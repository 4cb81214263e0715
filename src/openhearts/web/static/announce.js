// Announcements (ARIA live region), toasts and the status line's flash messages.

import { spokenCards } from "./cards.js";
import { $ } from "./dom.js";
import { renderStatus } from "./status.js";
import { app } from "./store.js";

/** Sentences kept in the live region: the last one (a screen reader has taken each
 * in when it was added; removals are not read). */
const KEPT = 1;
/** Sentences about to be added (see below). */
const waiting = new Set();

/**
 * Speak a sentence through the polite live region.  Each sentence is a node of its
 * own and the region reads additions only, so a sentence is read once, in the order
 * said, however many follow it.  A key's answer (not ``queue``) replaces whatever is
 * there or about to be, so it is read at once, and again when asked again; events
 * (``queue``) are added after what was said.
 */
export function announce(text, { queue = false } = {}) {
  text = spokenCards(text, ((app.table && app.table.seats) || []).map((seat) => seat.name));
  const region = $("announcer");
  if (!queue) {
    for (const timer of waiting) clearTimeout(timer);
    waiting.clear();
    region.replaceChildren();
  }
  // Added a moment later, so that a screen reader sees a change even when the same
  // sentence is said twice.
  const timer = setTimeout(() => {
    waiting.delete(timer);
    const line = document.createElement("p");
    line.textContent = text;
    region.appendChild(line);
    while (region.childElementCount > KEPT) region.firstElementChild.remove();
  }, 60);
  waiting.add(timer);
}

let toastTimer = null;

/**
 * A short message shown for a moment, and said through the live region (the box itself
 * is hidden from screen readers: as an alert as well, each toast was said twice).
 */
export function toast(text, kind = "error", said = {}) {
  announce(text, said);
  const box = $("toast");
  box.textContent = text;
  box.className = `toast ${kind}`;
  box.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { box.hidden = true; }, 4000);
}

/** A message that stays in the status line until the game moves on. */
export function flash(text, kind = "info") {
  app.flash = { text, kind, seq: app.seq };
  renderStatus();
  announce(text, { queue: true });
}
