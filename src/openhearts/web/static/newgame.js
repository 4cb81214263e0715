// N: a new game.  Against bots only, the host gives the game in progress up for a new
// one at the same table (same seats and rules), after asking; after the game is over it
// is "Play again".  With other people at the table a new game is started from the lobby.

import { toast } from "./announce.js";
import { send } from "./connection.js";
import { closeDialog, openDialog } from "./dialogs.js";
import { $ } from "./dom.js";
import { app, mySeat } from "./store.js";

/** Whether every other seat at the table is a bot's (the "Play now" kind of table). */
export function againstBotsOnly() {
  const seats = (app.table && app.table.seats) || [];
  return seats.length > 0 && seats.every((seat) => seat.seat === mySeat() || seat.kind === "bot");
}

function explain(text) {
  toast(text, "info");
}

export function askNewGame() {
  const s = app.state;
  if (!s || mySeat() === null) {
    explain("You are watching: start a game of your own from the lobby.");
    return;
  }
  if (s.phase === "game_over") {
    if (app.host) playAgain();
    else explain("The host starts the next game at this table; or start one from the lobby.");
    return;
  }
  if (!againstBotsOnly() || !app.host) {
    explain("Other people play at this table: start a new game from the lobby.");
    return;
  }
  openDialog("new-game-dialog");
  $("new-game-cancel").focus();
}

/** The same table, the same seats: the game that is over gives way to a new one. */
export function playAgain() {
  closeDialog("scores-dialog");
  // A key held down (N N) asked twice, and the second was refused after the first began
  // the game: "The game has already started."
  if ([...app.pending.values()].includes("start")) return;
  if (send("start") !== null) awaitTheNewHand();
}

/** The button that started the new game kept the focus through its first pass: the
 * hand has it until that pass lands it on a card (game.js, landFocus). */
function awaitTheNewHand() {
  $("hand").focus({ preventScroll: true });
}

export function startNewGame() {
  closeDialog("new-game-dialog");
  if (app.state && app.state.phase === "game_over") playAgain();
  else if (send("start", { abandon: true }) !== null) awaitTheNewHand();
}
