// The pace of the table: the server sends a state after every move, bots' moves often
// several in a burst.  The page shows them one after the other, each for as long as the
// animation speed says (prefs.js), so that a finished trick stays on the table for a
// moment and bots' cards do not flash past.  Nothing is dropped or reordered: every
// state is shown, in the order it came, and its announcements are made as it is shown.
//
// The player is never kept waiting by it: a state that answers the player's own move
// (their card, pass or moon choice, an undo, a new game) is shown at once, with
// everything held back before it, and so is everything held back when the player sends
// an action (connection.js), so that the action answers what the server last said.

import { onState } from "./game.js";
import { speed } from "./prefs.js";

/** On a table with a turn clock, the player's turn is shown within this long of its
 * coming, the states held before it shown faster: at the slow speeds, with a 10 s
 * clock, the turn showed when the computer was about to move for the player. */
const TURN_SHOWN_WITHIN_MS = 1500;

/** Someone watching sees each state within this long of its coming, the states held
 * before it shown faster: the server's bots play a trick faster than the Normal pace
 * shows it (2.4 s at 0.6 s a move, against 3.3 s), and a spectator sends nothing that
 * shows the held states at once, as a player's moves do, so the page fell further
 * behind the game every trick (seven tricks in a minute and a half). */
const WATCHING_SHOWN_WITHIN_MS = 5000;

const held = [];
let timer = null;
/** When the next held state may be shown (performance.now() time). */
let readyAt = 0;

/** A state message from the server: shown now or after the ones held before it. */
export function receiveState(message) {
  message.receivedAt = performance.now();  // the time left on the clock counts from here
  const clocked = typeof (message.state || {}).clock_left === "number";
  if (clocked && turnOfThePlayer(message)) {
    message.dueBy = message.receivedAt + TURN_SHOWN_WITHIN_MS;
  } else if (watching(message)) {
    message.dueBy = message.receivedAt + WATCHING_SHOWN_WITHIN_MS;
  }
  held.push(message);
  if (answersThePlayer(message) || speed().card === 0) showHeld();
  else showWhenDue();
}

/** Show every state held back, at once and in order. */
export function showHeld() {
  clearTimeout(timer);
  timer = null;
  while (held.length) show(held.shift());
}

/** Forget the states held back: the page leaves the table's connection (the next one
 * starts with the whole table, or the page shows another). */
export function dropHeld() {
  clearTimeout(timer);
  timer = null;
  held.length = 0;
  readyAt = 0;
}

function showWhenDue() {
  clearTimeout(timer);
  timer = null;
  while (held.length) {
    const wait = nextWait(held, readyAt, performance.now());
    if (wait > 0) {
      timer = setTimeout(showWhenDue, wait);
      return;
    }
    show(held.shift());
  }
}

/**
 * How long before the first of the `queue` of held states may show: the pace's time,
 * unless one of them is the player's turn (`dueBy`), whose time left the states up to
 * it share.
 */
export function nextWait(queue, readyAt, now) {
  const wait = readyAt - now;
  const due = queue.findIndex((message) => message.dueBy !== undefined);
  return due < 0 ? wait : Math.min(wait, (queue[due].dueBy - now) / (due + 1));
}

function show(message) {
  onState(message);
  readyAt = performance.now() + shownFor(message);
}

/** How long a state stays before the next: a finished trick longer than a card. */
function shownFor(message) {
  const events = message.events || [];
  const pace = speed();
  const state = message.state || {};
  if (state.phase === "playing" && events.some((e) => e.event === "trick")) return pace.trick;
  if (events.some((e) => e.event === "played")) return pace.card;
  return 0;
}

/** Whether the state asks the player to act (the turn clock then runs for them). */
export function turnOfThePlayer(message) {
  const state = message.state || {};
  const me = state.seat;
  if (me === null || me === undefined || state.bot_playing) return false;
  if (state.phase === "passing") return (state.waiting_for || []).includes(me);
  if (state.phase === "moon_choice") return Boolean(state.moon && state.moon.shooter === me);
  return state.phase === "playing" && state.to_move === me;
}

/** Whether the state is a spectator's (no seat). */
function watching(message) {
  const seat = (message.state || {}).seat;
  return seat === null || seat === undefined;
}

/** Whether the state shows the player's own move (not one played for them). */
function answersThePlayer(message) {
  const state = message.state || {};
  const me = state.seat;
  if (me === null || me === undefined) return false;
  return (message.events || []).some((e) => e.event === "started" || e.event === "undone"
    || (e.seat === me && !state.bot_playing && (
      ((e.event === "played" || e.event === "passed") && !e.auto)
      || e.event === "moon_chosen")));
}
