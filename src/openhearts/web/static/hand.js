// The player's hand: cards as buttons, laid out in rows, keyboard focus.

import { onCardClick } from "./actions.js";
import { cardIndex, cardName, cardSvg, isCardCode } from "./cards.js";
import { $, h } from "./dom.js";
import { app, autoPlays, cardsToPass, mayPlay, mustPass, mySeat } from "./store.js";
import { plural } from "./words.js";

/** Split the hand into rows that fit the width, overlapping like a fan held in hand. */
function layoutHand(count) {
  const hand = $("hand");
  const style = getComputedStyle(document.documentElement);
  const cardW = parseFloat(style.getPropertyValue("--card-w")) || 90;
  const avail = Math.max(hand.clientWidth - 16, cardW);
  const fits = (n) => (n <= 1 ? cardW : (avail - cardW) / (n - 1));
  let perRow = count;
  if (count > 1 && fits(count) < cardW * 0.5) {
    const most = Math.max(2, Math.floor((avail - cardW) / (cardW * 0.55)) + 1);
    perRow = Math.ceil(count / Math.ceil(count / most));
  }
  const step = Math.min(cardW * 0.62, fits(perRow));
  return { perRow, overlap: step - cardW };
}

const handButtons = new Map();

export function renderHand() {
  const s = app.state;
  const hand = $("hand");
  if (!s) return;
  const me = mySeat();
  if (me === null) {
    handButtons.clear();
    // Not "Your hand": someone watching holds none.
    hand.setAttribute("aria-label", "Watching");
    hand.classList.remove("my-turn", "auto-playing", "passing");
    hand.replaceChildren(h("p", {
      class: "hand-empty", text: "You are watching this table: only played cards are shown.",
    }));
    return;
  }
  const cards = [...(s.hand || [])].filter(isCardCode).sort((a, b) => cardIndex(a) - cardIndex(b));
  const myTurn = mayPlay();
  const passing = mustPass();
  const legal = new Set(s.legal || []);
  // Received cards stay marked until the player's first own play of the deal.
  // The cards received, marked until our first card of the deal (the server says which).
  const received = new Set(s.marked || []);
  hand.classList.toggle("my-turn", myTurn);
  hand.classList.toggle("auto-playing", autoPlays());
  hand.classList.toggle("passing", passing);
  hand.setAttribute(
    "aria-label",
    passing ? `Your hand: choose ${plural(cardsToPass(), "card")} to pass` : "Your hand",
  );
  const activeCard = document.activeElement && document.activeElement.dataset
    ? document.activeElement.dataset.card : null;
  for (const [code, button] of handButtons) {
    if (!cards.includes(code)) handButtons.delete(code);
  }
  if (!cards.includes(app.focusCard)) {
    const old = app.focusCard;
    app.focusCard = old
      ? cards.find((c) => cardIndex(c) > cardIndex(old)) || cards[cards.length - 1] || null
      : cards[0] || null;
  }
  const { perRow, overlap } = layoutHand(cards.length);
  const rows = [];
  cards.forEach((code, i) => {
    let button = handButtons.get(code);
    if (!button) {
      button = h("button", {
        type: "button", class: "hand-card", "data-card": code, "aria-label": cardName(code),
      }, [cardSvg(code)]);
      button.addEventListener("click", () => onCardClick(code));
      handButtons.set(code, button);
    }
    const isLegal = legal.has(code);
    button.classList.toggle("legal", myTurn && isLegal);
    button.classList.toggle("illegal", myTurn && !isLegal);
    button.classList.toggle("received", received.has(code));
    button.classList.toggle("hint", app.hintCard === code);
    const selectable = passing || (myTurn && isLegal);
    button.setAttribute("aria-disabled", String(!selectable));
    if (passing) button.setAttribute("aria-pressed", String(app.selected.includes(code)));
    else button.removeAttribute("aria-pressed");
    const description = received.has(code) ? `${cardName(code)}, received` : cardName(code);
    button.setAttribute("aria-label", description);
    button.tabIndex = code === app.focusCard ? 0 : -1;
    button.style.marginLeft = i % perRow === 0 ? "0" : `${overlap}px`;
    if (i % perRow === 0) rows.push(h("div", { class: "hand-row" }));
    rows[rows.length - 1].appendChild(button);
  });
  hand.replaceChildren(...rows);
  if (!cards.length) {
    const text = s.phase === "game_over" ? "The game is over." : "No cards in your hand.";
    hand.appendChild(h("p", { class: "hand-empty", text }));
  }
  if (activeCard && handButtons.has(activeCard)) {
    handButtons.get(activeCard).focus({ preventScroll: true });
  }
  else if (activeCard && app.focusCard && handButtons.has(app.focusCard)) {
    handButtons.get(app.focusCard).focus({ preventScroll: true });
  }
}

export function focusCard(code) {
  if (!code || !handButtons.has(code)) return;
  app.focusCard = code;
  for (const [c, button] of handButtons) button.tabIndex = c === code ? 0 : -1;
  handButtons.get(code).focus();
}
