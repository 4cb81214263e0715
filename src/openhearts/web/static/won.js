// The cards each player has won this deal (W), from the seat's view: every one of them
// was played in front of everyone.

import { cardIndex, cardName, cardPretty, isRed } from "./cards.js";
import { openAndSay } from "./dialogs.js";
import { $, h } from "./dom.js";
import { app, mySeat, nameOf, whoOf } from "./store.js";
import { listWords, plural } from "./words.js";

function wonCards(seat) {
  const won = (app.state.won || [])[seat] || [];
  return [...won].sort((a, b) => cardIndex(a) - cardIndex(b));
}

export function renderWon() {
  const s = app.state;
  if (!s) return;
  const players = s.players || (s.names || []).length;
  const rows = [];
  for (let seat = 0; seat < players; seat++) {
    const cards = wonCards(seat);
    const points = (s.points_taken || [])[seat] ?? 0;
    rows.push(h("li", { "data-seat": seat, class: seat === mySeat() ? "you" : null }, [
      h("span", { class: "won-who", text: `${seat === mySeat() ? "You" : nameOf(seat)}: ` }),
      cards.length
        ? h("span", { class: "won-cards" }, cards.map((card) => h("span", {
          class: isRed(card) ? "card red" : "card", "data-card": card, title: cardName(card),
          text: cardPretty(card),
        })))
        : h("span", { class: "muted", text: "nothing yet" }),
      h("span", { class: "won-points", text: ` (${plural(points, "point")})` }),
    ]));
  }
  $("won-list").replaceChildren(...rows);
}

function wonSentence() {
  const s = app.state;
  const players = s.players || (s.names || []).length;
  const parts = [];
  for (let seat = 0; seat < players; seat++) {
    const cards = wonCards(seat);
    const who = whoOf(seat);
    const verb = seat === mySeat() ? "have" : "has";
    parts.push(cards.length
      ? `${who} ${verb} won ${listWords(cards.map(cardName))}.`
      : `${who} ${verb} won nothing.`);
  }
  return `Won this deal: ${parts.join(" ")}`;
}

export function openWon() {
  if (app.state) openAndSay("won", renderWon, wonSentence);
}
