// The page's own preferences, kept by the browser (localStorage): nothing secret, and
// nothing the server needs to know.

import { storage } from "./dom.js";

const SPEED_KEY = "openhearts.speed";

/**
 * Animation speeds, named as in the terminal game's options: how long a card stays
 * before the next one is shown (cards that arrive together, e.g. several bots' plays),
 * and how long a finished trick stays on the table (two and a half times as long, as in
 * the terminal game).  "off" shows every state as soon as it arrives.
 */
export const SPEEDS = {
  slow: { label: "Slow", card: 1100, trick: 2750 },
  normal: { label: "Normal", card: 600, trick: 1500 },
  fast: { label: "Fast", card: 250, trick: 625 },
  off: { label: "Off: show every card at once", card: 0, trick: 0 },
};

export const DEFAULT_SPEED = "normal";

/** The speed chosen in this browser (a stored name the page does not know counts as none). */
export function speedName() {
  const stored = storage.get(SPEED_KEY);
  return stored && Object.hasOwn(SPEEDS, stored) ? stored : DEFAULT_SPEED;
}

export function speed() {
  return SPEEDS[speedName()];
}

export function setSpeed(name) {
  if (Object.hasOwn(SPEEDS, name)) storage.set(SPEED_KEY, name);
}
