// The keyboard: moving in the hand, typed cards and the announcement keys.

import { actOnTyped, confirmPass } from "./actions.js";
import { announce } from "./announce.js";
import { cardName } from "./cards.js";
import { openDialog } from "./dialogs.js";
import { $ } from "./dom.js";
import { focusCard } from "./hand.js";
import { openPlayed } from "./memory.js";
import {
  handSentence, oneCardSentence, scoresAnnouncement, tableSentence, turnSentence,
} from "./sentences.js";
import { app } from "./store.js";

const RANK_KEYS = { j: "J", q: "Q", k: "K", a: "A" };
const SUIT_KEYS = { c: "C", d: "D", s: "S", h: "H" };

export function onKeyDown(event) {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  const tag = target && target.tagName;
  if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
  if (document.querySelector("dialog[open]")) return;
  if ($("table-view").hidden || !app.state) return;
  const key = event.key;
  const lower = key.length === 1 ? key.toLowerCase() : key;

  if (target && target.classList && target.classList.contains("hand-card")) {
    const buttons = [...$("hand").querySelectorAll(".hand-card")];
    const index = buttons.indexOf(target);
    let next = null;
    if (key === "ArrowRight" || key === "ArrowDown") next = Math.min(index + 1, buttons.length - 1);
    else if (key === "ArrowLeft" || key === "ArrowUp") next = Math.max(index - 1, 0);
    else if (key === "Home") next = 0;
    else if (key === "End") next = buttons.length - 1;
    if (next !== null) {
      event.preventDefault();
      focusCard(buttons[next].dataset.card);
      return;
    }
  } else if (key === "ArrowRight" || key === "ArrowLeft") {
    const start = app.focusCard || ((app.state.legal || [])[0]) || (app.state.hand || [])[0];
    if (start) {
      event.preventDefault();
      focusCard(start);
    }
    return;
  }

  if (app.typed && lower in SUIT_KEYS) {
    event.preventDefault();
    const code = app.typed + SUIT_KEYS[lower];
    app.typed = "";
    actOnTyped(code);
    return;
  }
  app.typed = "";
  if (lower in RANK_KEYS) {
    event.preventDefault();
    app.typed = RANK_KEYS[lower];
    announce(`${cardName(`${RANK_KEYS[lower]}C`).split(" of ")[0]}: now the suit, C, D, S or H.`);
    return;
  }
  let sentence = null;
  if (lower === "c") sentence = tableSentence();
  else if (/^[1-6]$/.test(lower)) sentence = oneCardSentence(Number(lower));
  else if (lower === "s") sentence = scoresAnnouncement();
  else if (lower === "t") sentence = turnSentence();
  else if (lower === "h") sentence = handSentence();
  else if (lower === "m") {
    event.preventDefault();
    openPlayed();
    return;
  }
  else if (lower === "p") {
    event.preventDefault();
    confirmPass();
    return;
  } else if (lower === "/") {
    event.preventDefault();
    $("type-card").focus();
    return;
  } else if (lower === "?") {
    openDialog("help-dialog");
    return;
  }
  if (sentence !== null) {
    event.preventDefault();
    announce(sentence);
  }
}
