// Announcement keys (source 003): C, 1-6, S, T, and H for the hand: the sentences.

import { cardIndex, cardName, suitWord } from "./cards.js";
import { statusText } from "./status.js";
import { app, autoPlays, cardsToPass, mustPass, mySeat, nameOf, whoOf } from "./store.js";
import { shownTrick } from "./table.js";
import { directionWords, listWords, plural } from "./words.js";

export function tableSentence() {
  const { cards, old, winner } = shownTrick();
  if (!cards.length) return "No cards on the table.";
  const parts = cards.map(([seat, card]) => `${whoOf(seat)}, ${cardName(card)}`);
  if (old) {
    const taker = winner === mySeat() ? "You" : nameOf(winner);
    return `Last trick: ${parts.join("; ")}. ${taker} took it.`;
  }
  return `On the table: ${parts.join("; ")}.`;
}

/** The 1-6 keys, as in every face: a card of the trick on the table, or of the last
 * trick while the table is empty (1 is the card led). */
export function oneCardSentence(n) {
  const { cards, old } = shownTrick();
  const source = old ? "the last trick" : "the table";
  if (n > cards.length) return `No card ${n} on ${source}.`;
  const [seat, card] = cards[n - 1];
  return `${n}: ${whoOf(seat)}, the ${cardName(card)}.`;
}

export function scoresAnnouncement() {
  const s = app.state;
  const totals = (s.scores || []).map((score, seat) => `${whoOf(seat)} ${score}`);
  const deal = (s.points_taken || []).map((p, seat) => `${whoOf(seat)} ${p}`);
  return `Scores: ${totals.join(", ")}. This deal: ${deal.join(", ")}.`;
}

export function turnSentence() {
  const s = app.state;
  const me = mySeat();
  if (s.phase === "passing") {
    if (mustPass()) {
      const n = plural(cardsToPass(), "card");
      return `Your turn to pass ${n} ${directionWords(s.pass_direction)}.`;
    }
    const waiting = (s.waiting_for || []).map(whoOf);
    return `Passing: waiting for ${listWords(waiting) || "the deal"}.`;
  }
  if (s.phase === "playing") {
    if (autoPlays()) return statusText();
    return s.to_move === me ? "Your turn." : `${nameOf(s.to_move)}'s turn.`;
  }
  if (s.phase === "moon_choice") return statusText();
  if (s.phase === "game_over") return statusText();
  return "";
}

export function handSentence() {
  const s = app.state;
  if (mySeat() === null) return "You are watching: you hold no cards.";
  const cards = [...(s.hand || [])].sort((a, b) => cardIndex(a) - cardIndex(b));
  if (!cards.length) return "Your hand is empty.";
  const parts = [];
  for (const suit of "CDSH") {
    const ranks = cards.filter((c) => c[1] === suit).map((c) => cardName(c).split(" of ")[0]);
    if (ranks.length) parts.push(`${suitWord(suit)}: ${ranks.join(", ")}`);
  }
  let text = `Your hand, ${plural(cards.length, "card")}. ${parts.join(". ")}.`;
  if (mustPass() && app.selected.length) {
    text += ` Chosen to pass: ${listWords(app.selected.map(cardName))}.`;
  }
  return text;
}
