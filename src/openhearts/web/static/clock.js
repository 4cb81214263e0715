// The turn clock, where one runs for the player (at a table with other people): the
// time left beside the status line, and said as it runs low, since when it runs out the
// computer moves for the player (it was nowhere to be seen or heard).

import { announce } from "./announce.js";
import { $ } from "./dom.js";

/** Seconds left at which the time is said, once each per turn. */
const SAID_AT = [30, 10];

let ticker = null;
let dueAt = null;
let said = new Set();

/** A state was shown: `message.receivedAt` is when it came (performance.now()). */
export function followClock(message) {
  const state = message.state || {};
  const left = state.clock_left;
  if (typeof left !== "number" || state.seat === null || state.seat === undefined) {
    stopClock();
    return;
  }
  const due = (message.receivedAt ?? performance.now()) + left * 1000;
  // The same turn's clock again (a state that changed nothing of it): said once.
  if (dueAt === null || Math.abs(due - dueAt) > 1500) {
    said = new Set(SAID_AT.filter((seconds) => seconds >= left));
  }
  dueAt = due;
  if (ticker === null) ticker = setInterval(tick, 250);
  tick();
}

export function stopClock() {
  clearInterval(ticker);
  ticker = null;
  dueAt = null;
  for (const id of CLOCKS) {
    const shown = $(id);
    if (shown) {
      shown.hidden = true;
      shown.textContent = "";
    }
  }
}

/** Where the time left shows: beside the status line, and in the score table, which
 * covers it after a deal while the next deal's pass clock already runs. */
const CLOCKS = ["clock", "scores-clock"];

function tick() {
  if (dueAt === null) return;
  const left = Math.max(0, Math.ceil((dueAt - performance.now()) / 1000));
  for (const id of CLOCKS) {
    const shown = $(id);
    if (!shown) continue;
    shown.hidden = false;
    const text = id === "clock" ? `${left} s left` : `${left} s left for your move`;
    if (shown.textContent !== text) shown.textContent = text;
    shown.classList.toggle("low", left <= SAID_AT[SAID_AT.length - 1]);
  }
  for (const seconds of SAID_AT) {
    if (left <= seconds && left > 0 && !said.has(seconds)) {
      said.add(seconds);
      announce(`${seconds} seconds left: then the computer moves for you.`, { queue: true });
    }
  }
  if (left === 0) {
    clearInterval(ticker);
    ticker = null;
  }
}
