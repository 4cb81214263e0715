#!/usr/bin/env node
// A small Hearts bot in JavaScript that speaks the OpenHearts engine protocol
// (docs/engine-protocol.md): one JSON object per line on standard input, one answer per
// line on standard output.  It ducks: it plays under the card winning the trick when it
// can, and throws away the Q♠ and its highest hearts when it cannot follow suit.
//
//   hearts arena --bot 'cmd:node examples/engines/ducker.js' --bot easy --deals 20
"use strict";

const readline = require("readline");

const RANKS = "23456789TJQKA";
const rank = (card) => RANKS.indexOf(card[0]);
const suit = (card) => card[1];
const byRank = (a, b) => rank(a) - rank(b);
// How much a card hurts to keep: the Q♠ most, then hearts, then high cards.
const danger = (card) => (card === "QS" ? 100 : 0) + (suit(card) === "H" ? 20 : 0) + rank(card);

function choosePass(message) {
  const count = message.rules.cards_passed;
  return [...message.hand].sort((a, b) => danger(b) - danger(a)).slice(0, count);
}

function choosePlay(message) {
  const legal = [...message.legal].sort(byRank);
  const trick = message.trick.map(([, card]) => card);
  if (trick.length === 0) {
    return legal[0]; // lead low
  }
  const led = suit(trick[0]);
  const following = legal.filter((card) => suit(card) === led);
  if (following.length > 0) {
    const winning = Math.max(...trick.filter((card) => suit(card) === led).map(rank));
    const under = following.filter((card) => rank(card) < winning);
    return under.length > 0 ? under[under.length - 1] : following[following.length - 1];
  }
  return [...legal].sort((a, b) => danger(b) - danger(a))[0]; // void: throw the worst
}

function answer(message) {
  switch (message.type) {
    case "hello":
      return { type: "ready", name: "ducker", author: "OpenHearts examples" };
    case "act":
      if (message.decision === "pass") return { cards: choosePass(message) };
      if (message.decision === "play") return { card: choosePlay(message) };
      return { others_add: true };
    case "quit":
      process.exit(0);
    default:
      return null; // new_game and anything newer need no answer
  }
}

readline.createInterface({ input: process.stdin }).on("line", (line) => {
  if (!line.trim()) return;
  const reply = answer(JSON.parse(line));
  if (reply !== null) process.stdout.write(JSON.stringify(reply) + "\n");
});
