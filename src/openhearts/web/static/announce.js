// Announcements (ARIA live region), toasts and the status line's flash messages.

import { $ } from "./dom.js";
import { renderStatus } from "./status.js";
import { app } from "./store.js";

let announceTimer = null;
let announced = { text: "", at: 0 };

/**
 * Speak a sentence through the polite live region (cleared first so that a repeat is
 * read again).  Keys replace what was said; events (``queue``) follow what was said
 * a moment ago instead of cutting it off.
 */
export function announce(text, { queue = false } = {}) {
  const region = $("announcer");
  const now = Date.now();
  const text2 = queue && now - announced.at < 1500 && announced.text
    ? `${announced.text} ${text}` : text;
  announced = { text: text2, at: now };
  region.textContent = "";
  clearTimeout(announceTimer);
  announceTimer = setTimeout(() => { region.textContent = text2; }, 60);
}

let toastTimer = null;

export function toast(text, kind = "error") {
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
