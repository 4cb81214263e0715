// Memory aids (M, "Played"): the cards played and not yet seen, the voids, hearts,
// the points taken.  All of it comes from the seat's own view and the public rules:
// the unseen cards are worked out here (deck less removed, played and own cards), so
// the server never has to name a card that sits in another hand.

import { announce } from "./announce.js";
import { cardIndex, cardName, cardPretty, RANKS, SUITS, suitWord } from "./cards.js";
import { openDialog } from "./dialogs.js";
import { $, h } from "./dom.js";
import { app, mySeat, nameOf, whoOf } from "./store.js";

const SPOKEN_RANKS = { T: "10", J: "jack", Q: "queen", K: "king", A: "ace" };
const RANK_SHORT = { T: "10" };

function memoryFacts() {
  const s = app.state;
  const played = [];
  for (const trick of s.tricks || []) played.push(...(trick.cards || []));
  for (const [, card] of s.trick || []) played.push(card);
  const removed = new Set(app.table?.rules?.removed || []);
  const known = new Set([...played, ...(s.hand || [])]);
  const byIndex = (a, b) => cardIndex(a) - cardIndex(b);
  const suits = [...SUITS].map((suit) => ({
    suit,
    played: played.filter((c) => c[1] === suit).sort(byIndex),
    unseen: [...RANKS].map((r) => r + suit).filter((c) => !removed.has(c) && !known.has(c)),
  }));
  const voids = (s.voids || []).map(
    (letters) => [...SUITS].filter((x) => (letters || []).includes(x)),
  );
  return {
    played: played.length, suits, voids, heartsBroken: Boolean(s.hearts_broken),
    points: s.points_taken || [],
  };
}

function voidSentence(seat, letters) {
  const words = letters.map(suitWord);
  const list = words.length > 1
    ? `${words.slice(0, -1).join(", ")} or ${words[words.length - 1]}` : words[0];
  return seat === mySeat() ? `You have no ${list}.` : `${nameOf(seat)} has no ${list}.`;
}

function memorySentence() {
  const facts = memoryFacts();
  const parts = [];
  const suits = facts.suits.filter((x) => x.played.length);
  if (suits.length) {
    const lists = suits.map(
      (x) => `${suitWord(x.suit)} ${x.played.map((c) => SPOKEN_RANKS[c[0]] ?? c[0]).join(", ")}`,
    );
    parts.push(`Played: ${lists.join("; ")}.`);
  } else parts.push("No cards played yet.");
  let voids = 0;
  facts.voids.forEach((letters, seat) => {
    if (letters.length) {
      voids += 1;
      parts.push(voidSentence(seat, letters));
    }
  });
  if (!voids) parts.push("No voids known.");
  parts.push(facts.heartsBroken ? "Hearts are broken." : "Hearts are not broken.");
  const points = facts.points.map((p, seat) => `${whoOf(seat)} ${p}`);
  if (points.length) parts.push(`Points taken: ${points.join(", ")}.`);
  return parts.join(" ");
}

function cardRun(cards, empty) {
  if (!cards.length) return [h("span", { class: "muted", text: empty })];
  const nodes = [];
  cards.forEach((code, index) => {
    if (index) nodes.push(" ");
    nodes.push(h("span", {
      class: "mem-card", "data-card": code, title: cardName(code),
      text: RANK_SHORT[code[0]] ?? code[0],
    }));
  });
  return nodes;
}

export function renderPlayed() {
  if (!app.state) return;
  const facts = memoryFacts();
  const watching = mySeat() === null;
  const table = $("played-table");
  table.replaceChildren(
    h("caption", { class: "visually-hidden", text: "Cards played and not seen, by suit" }),
    h("thead", {}, [h("tr", {}, [
      h("th", { scope: "col", text: "Suit" }),
      h("th", { scope: "col", text: "Played" }),
      h("th", { scope: "col", text: watching ? "Not played yet" : "Not seen yet" }),
    ])]),
    h("tbody", {}, facts.suits.map((x) => h("tr", { "data-suit": x.suit }, [
      h("th", {
        scope: "row", class: x.suit === "D" || x.suit === "H" ? "red" : null,
        text: `${cardPretty(`A${x.suit}`).slice(1)} ${suitWord(x.suit)}`,
      }),
      h("td", { class: "mem-played" }, cardRun(x.played, "none")),
      h("td", { class: "mem-unseen" }, cardRun(x.unseen, "none")),
    ]))),
  );
  const voidItems = [];
  facts.voids.forEach((letters, seat) => {
    if (letters.length) voidItems.push(h("li", { text: voidSentence(seat, letters) }));
  });
  if (!voidItems.length) voidItems.push(h("li", { class: "muted", text: "None known yet." }));
  $("played-voids").replaceChildren(...voidItems);
  $("played-hearts").textContent = facts.heartsBroken
    ? "Hearts are broken." : "Hearts are not broken yet.";
  $("played-points").replaceChildren(...facts.points.map((p, seat) => h("li", {
    class: seat === mySeat() ? "you" : null,
    text: `${seat === mySeat() ? "You" : nameOf(seat)}: ${p}`,
  })));
}

export function openPlayed() {
  if (!app.state) return;
  renderPlayed();
  openDialog("played-dialog");
  $("played-close").focus();
  announce(memorySentence());
}
