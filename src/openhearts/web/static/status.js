// The status line: what is going on and what the player is to do.

import { cardName, cardPretty, suitSingular, suitWord } from "./cards.js";
import { $ } from "./dom.js";
import {
  app, autoPlays, cardsToPass, mustPass, mySeat, nameOf, settledForMe, whoOf,
} from "./store.js";
import { counted, directionWords, listWords, plural } from "./words.js";

/** Why nothing moves at a table everyone has left (its bots wait for them). */
export const PAUSED = "Everyone at the table has gone: the game waits until one of them is back.";

/** Why nothing moves while the server's database fails (the summary's cannot_save). */
export const CANNOT_SAVE = "The server cannot save the game right now: it goes on as soon as it can.";

export function statusText() {
  const s = app.state;
  const me = mySeat();
  if (!s) return "";
  if (s.phase === "game_over") {
    const winners = (s.winners || []).map(whoOf);
    const youWin = (s.winners || []).includes(me);
    if (youWin && winners.length === 1) return "Game over: you win!";
    return `Game over: ${listWords(winners)} ${winners.length === 1 ? "wins" : "win"}.`;
  }
  // Nothing moves, and a move of the player's own is refused, until the server can save.
  if (app.table && app.table.cannot_save) {
    return me === null ? `You are watching. ${CANNOT_SAVE}` : CANNOT_SAVE;
  }
  if (me === null) {
    if (app.table && app.table.paused) return `You are watching. ${PAUSED}`;
    if (s.phase === "passing") {
      return `You are watching. The players pass ${counted(cardsToPass(), "card")} `
        + `${directionWords(s.pass_direction)}.`;
    }
    if (s.phase === "playing") return `You are watching. ${nameOf(s.to_move)} to play.`;
    if (s.phase === "moon_choice") {
      const shooter = s.moon ? s.moon.shooter : s.to_move;
      return `You are watching. ${nameOf(shooter)} shot the moon and is choosing how it scores.`;
    }
    return "You are watching.";
  }
  const prefix = s.bot_playing ? "A bot is playing for you: act to take your seat back. " : "";
  if (s.phase === "passing") {
    if (mustPass()) {
      const n = cardsToPass();
      const target = s.pass_target !== null && s.pass_target !== undefined
        ? ` to ${nameOf(s.pass_target)}` : "";
      const chosen = app.selected.length;
      return `${prefix}Choose ${plural(n, "card")} to pass${target} `
        + `(${directionWords(s.pass_direction)}): ${chosen} of ${n} chosen.`;
    }
    const waiting = (s.waiting_for || []).filter((seat) => seat !== me).map(nameOf);
    const gave = s.passed && s.passed.length
      ? ` You pass ${listWords(s.passed.map(cardPretty))}.` : "";
    return `${prefix}Waiting for ${listWords(waiting) || "the others"} to pass.${gave}`;
  }
  if (s.phase === "moon_choice") {
    const shooter = s.moon ? s.moon.shooter : s.to_move;
    return shooter === me
      ? "You shot the moon: choose how it scores."
      : `${nameOf(shooter)} shot the moon and is choosing how it scores.`;
  }
  if (s.phase === "playing") {
    if (autoPlays()) {
      return s.settled
        ? "No points are left to take: the rest of the deal plays itself."
        : `Your only legal card, the ${cardName(s.legal[0])}, is played for you.`;
    }
    if (s.to_move === me) {
      const trick = s.trick || [];
      if (!trick.length) {
        if ((s.tricks || []).length === 0) {
          return `${prefix}Your lead: the ${cardName(s.legal[0] || "2C")} starts the deal.`;
        }
        const unbroken = s.hearts_broken || s.hearts_free ? "" : " (hearts are not broken yet)";
        return `${prefix}Your lead: play any highlighted card${unbroken}.`;
      }
      const led = trick[0][1][1];
      const hasSuit = (s.hand || []).some((c) => c[1] === led);
      return hasSuit
        ? `${prefix}Your turn: follow suit with a ${suitSingular(led)}.`
        : `${prefix}Your turn: you have no ${suitWord(led)}, play any highlighted card.`;
    }
    const settled = settledForMe() ? " No points are left: your cards play themselves." : "";
    return `${prefix}${nameOf(s.to_move)} to play.${settled}`;
  }
  return "";
}

export function renderStatus() {
  const status = $("status");
  const text = app.flash ? app.flash.text : statusText();
  if (status.textContent !== text) status.textContent = text;
  status.classList.toggle("error-text", Boolean(app.flash && app.flash.kind === "error"));
  const passBox = $("pass-box");
  const passing = mustPass();
  passBox.hidden = !passing;
  if (passing) {
    const n = cardsToPass();
    const button = $("pass-confirm");
    button.disabled = app.selected.length !== n || app.busy;
    const target = app.state.pass_target;
    button.textContent = target !== null && target !== undefined
      ? `Pass ${plural(n, "card")} to ${nameOf(target)}` : `Pass ${plural(n, "card")}`;
  }
}
