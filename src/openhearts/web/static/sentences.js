// Announcement keys (source 003): C, 1-6, S, T, and H for the hand: the sentences.

import { cardIndex, cardName, suitWord } from "./cards.js";
import { statusText } from "./status.js";
import { app, autoPlays, cardsToPass, mustPass, mySeat, nameOf, whoOf } from "./store.js";
import { shownTrick } from "./table.js";
import { counted, listWords, passPhrase, plural } from "./words.js";

/** "West takes the trick with the ace of clubs" (or "You take ..."): a finished trick's
 * taker and winning card, as the server's tricks give them. */
function takenWith(trick) {
  const players = app.state.players || app.state.names.length;
  const winning = trick.cards[(trick.winner - trick.leader + players) % players];
  const taker = trick.winner === mySeat() ? "You take" : `${nameOf(trick.winner)} takes`;
  return `${taker} the trick with the ${cardName(winning)}`;
}

/** The C key, as in every face (openhearts.sentences.spoken.table). */
export function tableSentence() {
  const s = app.state;
  const plays = (cards) => cards.map(([seat, card]) => `${whoOf(seat)} the ${cardName(card)}`)
    .join(", ");
  if ((s.trick || []).length) return `On the table: ${plays(s.trick)}.`;
  const tricks = s.tricks || [];
  if (!tricks.length) return "No cards on the table.";
  const last = tricks[tricks.length - 1];
  const players = s.players || s.names.length;
  const cards = last.cards.map((card, i) => [(last.leader + i) % players, card]);
  const points = last.points ? plural(last.points, "point") : "no points";
  return `No cards on the table. Last trick: ${plays(cards)}. ${takenWith(last)}: ${points}.`;
}

/** A trick taken, said as it happens (openhearts.sentences.events, ``TrickTaken``),
 * after the cards of it not said yet: the first `heard` were said with the player's
 * turn (those before it, and the player's own); the others, the Q♠ of whoever came
 * after the player among them, were never said, nor any to someone watching. */
export function trickTakenSentence(trick, heard = 0) {
  const players = app.state.players || app.state.names.length;
  const unheard = trick.cards.slice(heard).map((card, i) => (
    `${whoOf((trick.leader + heard + i) % players)} the ${cardName(card)}`));
  // "you the ..." led a trick the player's card led unsaid (a settled deal's card).
  const cards = listWords(unheard);
  const played = !unheard.length ? ""
    : heard ? `Then ${cards}. ` : `${cards[0].toUpperCase()}${cards.slice(1)}. `;
  const points = trick.points ? ` (${plural(trick.points, "point")})` : "";
  return `${played}${takenWith(trick)}${points}.`;
}

/** The 1-6 keys, as in every face: a card of the trick on the table, or of the last
 * trick while the table is empty (1 is the card led). */
export function oneCardSentence(n) {
  const { cards, old } = shownTrick();
  const source = old ? "the last trick" : "the table";
  if (n > cards.length) return `No card ${n} on ${source}.`;
  const [seat, card] = cards[n - 1];
  return `${n}: ${whoOf(seat)}, the ${cardName(card)}.`;  // as openhearts.sentences.spoken
}

/** The S key, as in every face (openhearts.sentences.spoken.scores). */
export function scoresAnnouncement() {
  const s = app.state;
  const totals = (s.scores || []).map((score, seat) => `${whoOf(seat)} ${score}`);
  const deal = (s.points_taken || []).map((p, seat) => `${whoOf(seat)} ${p}`);
  let text = `Scores: ${totals.join(", ")}.`;
  if (s.phase !== "game_over" && ((s.tricks || []).length || (s.trick || []).length)) {
    text += ` This deal so far: ${deal.join(", ")}.`;
  }
  const end = app.table && app.table.rules && app.table.rules.end_score;
  if (end) text += ` The game ends at ${end}.`;
  return text;
}

export function turnSentence() {
  const s = app.state;
  const me = mySeat();
  if (s.phase === "passing") {
    if (mustPass()) {
      const to = passPhrase(s.pass_direction, nameOf(s.pass_target));
      return `Your turn to pass ${counted(cardsToPass(), "card")} ${to}.`;
    }
    const waiting = (s.waiting_for || []).map(whoOf);
    return `Passing: waiting for ${listWords(waiting) || "the deal"}.`;
  }
  if (s.phase === "playing") {
    // As in every face (openhearts.sentences.spoken.turn).
    if (autoPlays()) return statusText();
    const trick = s.trick || [];
    if (s.to_move === me) {
      return `It is your turn to ${trick.length ? `play on ${suitWord(trick[0][1][1])}` : "lead"}.`;
    }
    return `It is ${nameOf(s.to_move)}'s turn to ${trick.length ? "play" : "lead"}.`;
  }
  if (s.phase === "moon_choice") return statusText();
  if (s.phase === "game_over") return statusText();
  return "";
}

/** The hand key, worded as in every face (openhearts.sentences.spoken.hand): the hand
 * by suit, then the cards you may play, then the cards chosen to pass. */
export function handSentence() {
  const s = app.state;
  if (mySeat() === null) return "You are watching: you hold no cards.";
  const cards = [...(s.hand || [])].sort((a, b) => cardIndex(a) - cardIndex(b));
  if (!cards.length) return "Your hand is empty.";
  const parts = [];
  for (const suit of "CDSH") {
    const ranks = cards.filter((c) => c[1] === suit).map((c) => cardName(c).split(" of ")[0]);
    if (ranks.length) parts.push(`${suitWord(suit)}: ${listWords(ranks)}`);
  }
  const the = (codes) => listWords([...codes].sort((a, b) => cardIndex(a) - cardIndex(b))
    .map((c) => `the ${cardName(c)}`));
  // A new sentence: "Clubs: two ...", as the other faces say it.
  const suits = parts.join("; ");
  let text = `Your hand, ${plural(cards.length, "card")}. ${suits[0].toUpperCase()}${suits.slice(1)}.`;
  const legal = s.legal || [];
  if (s.phase === "playing" && s.to_move === mySeat() && legal.length < cards.length) {
    text += ` You may play ${the(legal)}.`;
  }
  if (mustPass() && app.selected.length) text += ` Chosen to pass: ${the(app.selected)}.`;
  return text;
}
