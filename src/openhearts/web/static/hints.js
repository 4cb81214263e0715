// Hints from the server's strongest bot, "For me" (the hint's choice made for the
// player), and undo (all for games against bots only).

import { confirmPass, onCardClick, sharePicks } from "./actions.js";
import { flash, toast } from "./announce.js";
import { cardName, isCardCode } from "./cards.js";
import { $ } from "./dom.js";
import { send } from "./connection.js";
import { focusCard, renderHand } from "./hand.js";
import { showHeld } from "./pace.js";
import { closeDialog } from "./dialogs.js";
import { againstBots, app, cardsToPass, isMyTurn, mustPass, mySeat, nameOf } from "./store.js";
import { listWords } from "./words.js";

/** Why a hint, "For me" or an undo cannot be had now, in the other faces' words. */
function refusal(kind) {
  if (app.state.phase === "game_over") {
    return kind === "undo" ? "The game is over: there is nothing to undo." : "The game is over.";
  }
  if (!againstBots()) {
    return {
      hint: "Hints are only for games against computer players.",
      forMe: "The computer plays for you only in games against computer players.",
      undo: "Undo is only for games against computer players.",
    }[kind];
  }
  return kind === "undo" ? "There is nothing of yours to undo yet." : "Not now.";
}

/** A hint or an undo makes a rated game unrated: said the first time, at once. */
function sayUnrated(what) {
  const game = app.table ? `${app.tableId}:${app.table.game}` : null;
  if (app.table && app.table.rated && app.unratedSaid !== game) {
    app.unratedSaid = game;
    toast(`After ${what}, this game does not count in your statistics.`, "info");
  }
}

export function requestHint() {
  if (mySeat() === null || !app.state) return;
  // Whether it is the player's turn is the server's latest word, not a state held back.
  showHeld();
  if (!app.state.can_hint) {
    flash(refusal("hint"), "error");
    return;
  }
  if (!mustPass() && !isMyTurn() && !shootingNow()) {
    // The server refuses it, and the game still counts: "does not count" was said.
    flash(app.state.phase === "game_over" ? "The game is over: there is no move to choose."
      : "A hint is for when it is your turn.", "error");
    return;
  }
  sayUnrated("a hint");
  send("hint");
}

/** Whether the player shot the moon and is to choose how it scores. */
function shootingNow() {
  const s = app.state;
  return s.phase === "moon_choice" && Boolean(s.moon) && s.moon.shooter === mySeat();
}

/** "For me": the computer makes the player's move, the one a hint would suggest. */
export function requestPlayForMe() {
  if (mySeat() === null || !app.state) return;
  showHeld();
  if (!app.state.can_hint) {
    flash(refusal("forMe"), "error");
    return;
  }
  const s = app.state;
  if (!mustPass() && !isMyTurn() && !shootingNow()) {
    // In the other faces' words (the session core's not_now).
    flash(s.phase === "passing" ? "Wait for the others to pass."
      : s.to_move !== null && s.to_move !== undefined ? `Wait: it is ${nameOf(s.to_move)}'s turn.`
        : "You cannot play now.", "error");
    return;
  }
  // A second press while the first is being worked out would be refused as busy, and
  // the first answer then shown as a plain hint.
  if (app.forMe !== null && app.pending.has(app.forMe)) return;
  sayUnrated("the computer's choice for you");
  const id = send("hint");
  if (id === null) return;
  app.forMe = id;
  flash("The computer is choosing for you…");
}

export function requestUndo() {
  if (mySeat() === null || !app.state) return;
  if (!app.state.can_undo) {
    flash(refusal("undo"), "error");
    return;
  }
  sayUnrated("an undo");
  app.selected = [];
  app.hintCard = null;
  if (choicePending()) {
    // The card (pass, moon choice) just sent is not in the state shown yet: an undo
    // naming that state would answer a position before it, and be refused as stale.
    // It goes once the state with the choice has come.
    app.undoQueued = true;
    return;
  }
  send("undo");
}

const CHOICES = ["play", "pass", "moon"];

function choicePending() {
  return [...app.pending.values()].some((type) => CHOICES.includes(type));
}

/** A new state has come: the undo asked while a choice was on its way goes now (none
 * if that choice was refused). */
export function sendQueuedUndo() {
  if (!app.undoQueued || choicePending()) return;
  app.undoQueued = false;
  if (app.state && app.state.can_undo) send("undo");
}

export function onHint(message) {
  app.pending.delete(message.id);
  const forMe = message.id === app.forMe;
  if (forMe) app.forMe = null;
  // Thought about while the player went on (a card played, a pass, an undo): shown now,
  // it would mark a card or a pass for a turn that is over.
  if (!(message.id > app.lastAction) || !app.state || app.state.phase !== message.phase) return;
  if ((message.phase === "passing" && !mustPass())
      || (message.phase === "playing" && !isMyTurn())) {
    return;
  }
  if (forMe) {
    followHint(message);
    return;
  }
  if (message.phase === "passing" && Array.isArray(message.pass)) {
    app.selected = message.pass.filter(isCardCode).slice(0, cardsToPass());
    sharePicks();
    renderHand();
    const cards = listWords(app.selected.map((c) => `the ${cardName(c)}`));
    flash(`Hint: pass ${cards} (chosen for you: confirm with Pass).${passNumbers(message.ranking)}`);
  } else if (message.phase === "playing" && Array.isArray(message.ranking)
      && message.ranking.length) {
    // Best first: the order is the expert player's (points against the others' average).
    const best = message.ranking[0];
    if (!isCardCode(best.card)) return;
    app.hintCard = best.card;
    renderHand();
    focusCard(best.card);
    flash(`Hint: play the ${cardName(best.card)}: you can expect about ${points(best.points)} `
      + `in the rest of the deal (${signed(best.margin)} against the others).`
      + playNumbers(message.ranking));
  } else if (message.phase === "moon_choice") {
    const text = message.others_add
      ? "Hint: let everyone else add the points."
      : "Hint: subtract the points yourself.";
    $("moon-hint").textContent = text;
    $("moon-hint").hidden = false;
    flash(text);
  }
}

/** Make the hint's choice: the same path as the player's own click or key. */
function followHint(message) {
  if (message.phase === "passing" && Array.isArray(message.pass)) {
    app.selected = message.pass.filter(isCardCode).slice(0, cardsToPass());
    renderHand();
    flash(`The computer passes ${listWords(app.selected.map((c) => `the ${cardName(c)}`))} `
      + "for you.");
    confirmPass();
  } else if (message.phase === "playing" && Array.isArray(message.ranking)
      && message.ranking.length && isCardCode(message.ranking[0].card)) {
    const card = message.ranking[0].card;
    flash(`The computer plays the ${cardName(card)} for you.`);
    onCardClick(card);
  } else if (message.phase === "moon_choice" && typeof message.others_add === "boolean") {
    closeDialog("moon-dialog");
    flash(message.others_add
      ? "The computer chooses for you: everyone else adds the points."
      : "The computer chooses for you: you subtract the points.");
    send("moon", { others_add: message.others_add });
  }
}

/** Expected points in words: "2.6 points", "1 point". */
function points(value) {
  const rounded = Math.round(Number(value) * 10) / 10;
  return `${rounded} point${rounded === 1 ? "" : "s"}`;
}

/**
 * The numbers a pass hint is ranked by, best pass first: " About 3.1 points to take
 * (-2 against the others). Next: ace of diamonds, king of hearts, ace of hearts:
 * 4 points (+0.2)." ("" without them).
 */
function passNumbers(ranking) {
  if (!Array.isArray(ranking) || !ranking.length) return "";
  const [best, ...others] = ranking;
  let text = ` About ${points(best.points)} to take (${signed(best.margin)} against the others).`;
  const next = others.slice(0, 2).filter((option) => Array.isArray(option.cards))
    .map((option) => `${option.cards.filter(isCardCode).map(cardName).join(", ")}: `
      + `${points(option.points)} (${signed(option.margin)})`);
  if (next.length) text += ` Next: ${next.join("; ")}.`;
  return text;
}

/**
 * The next cards of a play hint, as the other faces name them: " Next: queen of clubs
 * 2.5 points (+0.4), eight of clubs 2.6 points (+0.5)." (the ranking is by the number
 * in brackets: the points against the others' average, lower is better).
 */
function playNumbers(ranking) {
  const next = ranking.slice(1, 3).filter((option) => isCardCode(option.card))
    .map((option) => `${cardName(option.card)} ${points(option.points)} `
      + `(${signed(option.margin)})`);
  return next.length ? ` Next: ${next.join(", ")}.` : "";
}

/** A margin with its sign: "+0.4", "-1.3". */
function signed(value) {
  const rounded = Math.round(Number(value) * 10) / 10;
  return rounded > 0 ? `+${rounded}` : `${rounded}`;
}
