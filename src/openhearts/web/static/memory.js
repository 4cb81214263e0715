// Memory aids (M, "Played"): the cards played and not yet seen, the voids, hearts,
// the points taken.  The server works them out once, from the seat's own view, with
// the session core's memory aids (the same as the terminal and the plain game) and
// sends them in every state as `memory`; a spectator's are what anyone watching knows.

import { cardIndex, cardName, cardPretty, SUITS, suitWord } from "./cards.js";
import { openAndSay } from "./dialogs.js";
import { $, h } from "./dom.js";
import { app, mySeat, nameOf, whoOf } from "./store.js";
import { listWords } from "./words.js";

const SPOKEN_RANKS = { T: "10", J: "jack", Q: "queen", K: "king", A: "ace" };
const RANK_SHORT = { T: "10" };

/** The state's memory aids by suit, with each seat's known voids as suit letters. */
function memoryFacts() {
  const s = app.state;
  const memory = s.memory || {};
  const byIndex = (a, b) => cardIndex(a) - cardIndex(b);
  const ofSuit = (cards, suit) => (cards || []).filter((c) => c[1] === suit).sort(byIndex);
  const suits = [...SUITS].map((suit) => ({
    suit, played: ofSuit(memory.played, suit), unseen: ofSuit(memory.unseen, suit),
  }));
  const players = s.players || (s.names || []).length;
  const voids = Array.from({ length: players }, () => []);
  for (const [seat, letter] of memory.voids || []) {
    if (voids[seat] && !voids[seat].includes(letter)) voids[seat].push(letter);
  }
  return {
    played: (memory.played || []).length, suits, voids,
    // The server's sentence: one rule with the other faces (source 002 has no "broken").
    hearts: memory.hearts_sentence || "", points: memory.points_taken || [],
    stillOut: [...(memory.still_out_from_pass || [])].sort(byIndex),
  };
}

/** The cards this seat passed that are still out, and so whose hand they are in. */
function stillOutSentence(facts) {
  const target = app.state.pass_target;
  if (!facts.stillOut.length || target === null || target === undefined) return "";
  return `${nameOf(target)} still holds the ${listWords(facts.stillOut.map(cardName))} `
    + "you passed.";
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
  if (facts.hearts) parts.push(facts.hearts);
  const stillOut = stillOutSentence(facts);
  if (stillOut) parts.push(stillOut);
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
  $("played-hearts").textContent = facts.hearts;
  $("played-passed").textContent = stillOutSentence(facts);
  $("played-passed").hidden = !facts.stillOut.length;
  $("played-points").replaceChildren(...facts.points.map((p, seat) => h("li", {
    class: seat === mySeat() ? "you" : null,
    text: `${seat === mySeat() ? "You" : nameOf(seat)}: ${p}`,
  })));
}

export function openPlayed() {
  if (app.state) openAndSay("played", renderPlayed, memorySentence);
}
