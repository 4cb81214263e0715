// Hints from the server's strongest bot.

import { flash } from "./announce.js";
import { cardName, isCardCode } from "./cards.js";
import { focusCard, renderHand } from "./hand.js";
import { app, cardsToPass } from "./store.js";
import { listWords } from "./words.js";

export function onHint(message) {
  app.pending.delete(message.id);
  if (message.phase === "passing" && Array.isArray(message.pass)) {
    app.selected = message.pass.filter(isCardCode).slice(0, cardsToPass());
    renderHand();
    const cards = listWords(app.selected.map((c) => `the ${cardName(c)}`));
    flash(`Hint: pass ${cards} (chosen for you: confirm with Pass).`);
  } else if (message.phase === "playing" && Array.isArray(message.ranking)
      && message.ranking.length) {
    const best = message.ranking[0].card;
    if (!isCardCode(best)) return;
    app.hintCard = best;
    renderHand();
    focusCard(best);
    flash(`Hint: play the ${cardName(best)}.`);
  } else if (message.phase === "moon_choice") {
    const text = message.others_add
      ? "Hint: let everyone else add the points."
      : "Hint: subtract the points yourself.";
    flash(text);
  }
}
