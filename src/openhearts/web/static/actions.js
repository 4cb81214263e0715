// Acting on the hand: playing a card, choosing cards to pass, typed cards.

import { announce, flash } from "./announce.js";
import { cardName } from "./cards.js";
import { send, sendRaw } from "./connection.js";
import { focusCard, renderHand } from "./hand.js";
import { renderStatus } from "./status.js";
import { app, autoPlays, cardsToPass, isMyTurn, mustPass, mySeat, nameOf } from "./store.js";
import { plural } from "./words.js";

export function onCardClick(code) {
  const s = app.state;
  if (!s || mySeat() === null) return;
  app.focusCard = code;
  if (mustPass()) {
    togglePass(code);
    return;
  }
  if (s.phase === "passing") {
    flash("You have passed: waiting for the others.");
    return;
  }
  if (s.phase !== "playing") return;
  if (!isMyTurn()) {
    flash(`Not your turn: ${nameOf(s.to_move)} is to play.`, "error");
    return;
  }
  if (autoPlays()) {
    flash(s.settled
      ? "No points are left to take: your cards are played for you."
      : "Auto play one plays your only legal card for you.");
    return;
  }
  if (app.busy || app.autoWanted !== null) return;
  // Even a darkened card is sent: the server answers with the rule that forbids it.
  app.busy = true;
  app.hintCard = null;
  if (send("play", { card: code }) === null) app.busy = false;
}

function togglePass(code) {
  const n = cardsToPass();
  const i = app.selected.indexOf(code);
  if (i >= 0) {
    app.selected.splice(i, 1);
    announce(`${cardName(code)} put back. ${app.selected.length} of ${n} chosen.`);
  } else if (app.selected.length >= n) {
    flash(`You have chosen ${n} already: click one of them to put it back.`, "error");
    return;
  } else {
    app.selected.push(code);
    announce(`${cardName(code)} chosen. ${app.selected.length} of ${n}.`);
  }
  app.flash = null;
  sharePicks();
  renderHand();
  renderStatus();
}

/** Where a turn clock runs for the player, tell the server the cards picked so far:
 * a pass the computer makes when the clock runs out starts with them. */
export function sharePicks() {
  if (!mustPass() || app.state.clock_left === null || app.state.clock_left === undefined) {
    return;
  }
  const id = app.nextId++;
  // Not an action: nothing is flashed when it cannot be sent, nor when it is refused.
  if (sendRaw({ type: "picks", id, cards: [...app.selected] })) app.pending.set(id, "picks");
}

export function confirmPass() {
  if (!mustPass()) {
    // P said nothing out of a pass; the terminal game's words.
    const s = app.state;
    if (s && mySeat() !== null) {
      flash(s.phase === "passing" && s.passed ? "You have already passed."
        : "There is nothing to pass now.", "error");
    }
    return;
  }
  const n = cardsToPass();
  if (app.selected.length !== n) {
    flash(`Choose ${plural(n, "card")} to pass first.`, "error");
    return;
  }
  if (app.busy) return;
  app.busy = true;
  renderStatus();
  if (send("pass", { cards: [...app.selected] }) === null) app.busy = false;
}

export function actOnTyped(code) {
  if (!app.state || mySeat() === null) return;
  if (!(app.state.hand || []).includes(code)) {
    flash(`You do not hold the ${cardName(code)}.`, "error");
    return;
  }
  focusCard(code);
  onCardClick(code);
}

/** Escape: forget the cards chosen to pass. */
export function clearChoice() {
  if (!mustPass() || !app.selected.length) return;
  app.selected = [];
  // A refusal in the status line ("You have chosen 3 already") is answered.
  app.flash = null;
  sharePicks();
  announce(`No card chosen: choose ${plural(cardsToPass(), "card")} to pass.`);
  renderHand();
  renderStatus();
}
