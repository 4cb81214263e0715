// A new state from the server: what changed, what to say, which dialog opens.

import { announce, flash, toast } from "./announce.js";
import { cardName } from "./cards.js";
import { followClock } from "./clock.js";
import { closeDialog, openMoonDialog } from "./dialogs.js";
import { $ } from "./dom.js";
import { focusCard } from "./hand.js";
import { renderPlayed } from "./memory.js";
import { followReview } from "./review.js";
import { openScores } from "./scores.js";
import { trickTakenSentence } from "./sentences.js";
import { statusText } from "./status.js";
import {
  app, cardsToPass, mayPlay, mustPass, mySeat, nameOf, settledForMe,
} from "./store.js";
import { renderTable } from "./table.js";
import { listWords, plural } from "./words.js";

export function onState(message) {
  const previous = app.state;
  const state = message.state;
  if (!state) return;
  app.state = state;
  app.seq = message.seq ?? state.seq;
  app.busy = false;
  if (app.autoWanted !== null && state.auto_play_one === app.autoWanted
      && ![...app.pending.values()].includes("auto")) {
    app.autoWanted = null;
  }
  if (app.flash && app.flash.seq !== app.seq) app.flash = null;
  const newDeal = previous && (previous.deal !== state.deal || previous.game !== state.game);
  // What the page kept of each deal (moon marks, points) is the game's: a new game,
  // however the page learns of it (a reconnect may skip the "started" event), starts
  // afresh.
  if (previous && previous.game !== state.game) app.dealInfo = new Map();
  // The cards chosen to pass live only here, until they are passed.
  if (newDeal || state.phase !== "passing" || state.passed) app.selected = [];
  app.selected = app.selected.filter((c) => (state.hand || []).includes(c));
  if (app.hintCard && !(state.legal || []).includes(app.hintCard)) app.hintCard = null;

  let dealOver = null;
  let gameOver = null;
  // A deal dealt by this message (a new game's first, or the next one).
  let dealt = false;
  let undoneMine = false;
  // What the other faces narrate of the play, for a screen reader: hearts broken (where
  // they can be), then each trick's taker; the cards themselves are said with the turn.
  let breaking = previous && !newDeal && !previous.hearts_broken && state.hearts_broken
    && !state.hearts_free;
  // The trick so far as the events go, for a card "Auto play one" played for you: it
  // leads, or follows the cards before it.
  let trickSoFar = previous && !newDeal ? [...(previous.trick || [])] : [];
  // Which trick of which deal each "trick" event ends, to know what of it was said.
  const trickDeal = previous ? `${previous.game}:${previous.deal}` : null;
  let trickIndex = previous ? (previous.tricks || []).length : 0;
  for (const event of message.events || []) {
    if (breaking && (event.event === "played" || event.event === "trick")) {
      announce("Hearts are broken.", { queue: true });
      breaking = false;
    }
    if (event.event === "played") {
      // Your turn never came to the page: the card is said as the other faces say it.
      // The cards of a settled deal are not: that the rest play themselves is said once.
      if (event.seat === mySeat() && event.auto_reason === "only_card") {
        // The cards before it first, as a turn says them: your card was said before the
        // card it follows, which the trick's end said only afterwards.
        if (trickSoFar.length) announce(`${trickCardsSentence(trickSoFar)}.`, { queue: true });
        announce(`You ${trickSoFar.length ? "play" : "lead"} the ${cardName(event.card)} `
          + "(your only legal card).", { queue: true });
        app.heard = { deal: trickDeal, trick: trickIndex, cards: trickSoFar.length + 1 };
      } else if (event.seat === mySeat() && event.auto_reason === "for_you"
        && heardThisTrick(trickDeal, trickIndex)) {
        // The turn was said, so the trick's end leaves this card out: it is said now.
        announce(`The computer ${trickSoFar.length ? "plays" : "leads"} `
          + `the ${cardName(event.card)} for you.`, { queue: true });
      }
      trickSoFar.push([event.seat, event.card]);
    } else if (event.event === "passed" && event.seat === mySeat()
      && event.auto_reason === "for_you" && event.cards) {
      announce(`The computer passes the ${listWords(event.cards.map(cardName))} for you.`,
        { queue: true });
    } else if (event.event === "trick") {
      trickSoFar = [];
      const heard = heardThisTrick(trickDeal, trickIndex) ? app.heard.cards : 0;
      announce(trickTakenSentence(event, heard), { queue: true });
      trickIndex += 1;
    } else if (event.event === "deal_over") {
      dealOver = event;
      app.dealInfo.set(event.deal, event);
    } else if (event.event === "game_over") {
      gameOver = event;
    } else if (event.event === "bot_replaced") {
      // As every face says it (the reason stays on the server: it may name the bot's
      // cards), shown and said to everyone at the table.
      toast(`${nameOf(event.seat)}'s computer player went wrong: a random player takes `
        + "its place.", "info", { queue: true });
    } else if (event.event === "dealt") {
      dealt = true;
    } else if (event.event === "started") {
      dealt = true;
      closeDialog("scores-dialog");
      // The players hear what the deal asks of them; someone watching heard nothing.
      if (mySeat() === null) {
        announce(state.game > 1 ? "A new game starts." : "The game starts.", { queue: true });
      }
    } else if (event.event === "undone") {
      flash(event.seat === mySeat() ? undoneSentence(event)
        : `${nameOf(event.seat)} took back a move.`);
      undoneMine = undoneMine || event.seat === mySeat();
    } else if (event.event === "exchanged" && mySeat() !== null && state.received) {
      const from = state.pass_source !== null && state.pass_source !== undefined
        ? ` from ${nameOf(state.pass_source)}` : "";
      announce(`You received${from}: ${listWords(state.received.map(cardName))}.`, {
        queue: true,
      });
    }
  }
  renderTable();
  if ($("played-dialog").open) renderPlayed();
  followReview();
  // Each turn is said once: by where it is in the deal, since taking a trick with its
  // last card leaves it your turn (to lead) in the very next state, and was not said.
  // After an undo it may have been your turn all along, at another trick: said again.
  // While a bot keeps the seat the turns are the bot's: "Your turn" at every trick told
  // the person to act on a turn already played.
  const turnKey = mayPlay() && !state.bot_playing
    ? `${state.game}:${state.deal}:${(state.tricks || []).length}:${(state.trick || []).length}`
    : null;
  if (previous && previous.bot_playing && !state.bot_playing && mySeat() !== null) {
    announce("Your seat is yours again: the bot stops playing for you.", { queue: true });
  } else if (!previous && state.bot_playing && mySeat() !== null
    && state.phase !== "game_over") {
    // Back by the table's link: the bot plays on until the person takes the seat back.
    announce("Welcome back: a bot is playing for you. Choose Take my seat back to play "
      + "again.", { queue: true });
  }
  if (turnKey !== null && (turnKey !== app.turnKey || undoneMine)) onMyTurn();
  app.turnKey = turnKey;
  const dealKey = `${state.game}:${state.deal}`;
  if (settledForMe() && app.settledSaid !== dealKey) {
    app.settledSaid = dealKey;
    announce("No points are left to take: the rest of your cards play themselves.", {
      queue: true,
    });
  }
  // The deal's result is said before what the next deal asks.
  if (gameOver || (state.phase === "game_over" && !previous)) {
    openScores({ final: true });
  } else if (dealOver) {
    openScores({ deal: dealOver });
  }
  // A pass is said as the deal asks for it; a deal without one was not said at all, as
  // the other faces say it.
  if (dealt && state.phase === "playing"
      && (state.pass_direction === "hold" || cardsToPass() === 0)) {
    announce(`Deal ${state.deal + 1}. A hold hand: no passing.`, { queue: true });
  }
  const passing = mustPass();
  // A new game started during a pass passes again at once: a pass all the same.
  if (passing && (!app.wasPassing || newDeal)) {
    announce(statusText(), { queue: true });
    landFocus();
  }
  // Someone watching hears where they are when the table opens, and each deal's pass,
  // as the players hear theirs (a screen reader heard nothing of either).
  const watching = mySeat() === null && state.phase !== "game_over";
  const watchedPass = watching && state.phase === "passing";
  if (watching && (!previous || (watchedPass && !app.wasPassing))) {
    announce(statusText(), { queue: true });
  }
  app.wasPassing = passing || watchedPass;
  if (state.phase === "moon_choice" && state.moon && state.moon.shooter === mySeat()) {
    openMoonDialog(state.moon);
  } else {
    closeDialog("moon-dialog");
  }
  followClock(message);
}

/**
 * A dialog closed (the scores after a deal, say) after your turn came while it was
 * open: the focus the browser gives back may be a card you may not play. Keyboard
 * players land on a playable card, as when the turn comes with no dialog open.
 */
export function focusAfterDialog() {
  if (document.querySelector("dialog[open]")) return;
  if (app.turnInDialog) {
    app.turnInDialog = false;
    landFocus();
  }
  // The element that opened the dialog may be gone (the last card of the game, played
  // before the final scores came): the focus fell to the page. The next thing to do:
  // a new game once this one is over; else the hand (New game, shown against bots all
  // game long, was no next thing mid-game).
  // It may also still be on the closed dialog's button: the browser found nothing to
  // give it back to, and drops it on the page a moment later.
  const active = document.activeElement;
  const lost = !active || active === document.body || !active.isConnected
    || Boolean(active.closest && active.closest("dialog:not([open])"));
  if (lost && document.body.dataset.view === "table") {
    const over = app.state && app.state.phase === "game_over";
    const next = over && !$("new-game").hidden ? $("new-game") : $("hand");
    next.focus();
  }
}

/**
 * Keyboard players land on a card they may use now (a playable one, or any while
 * passing) when the focus is nowhere: on the page itself, on a card gone from the hand,
 * or on the button of a dialog now closed. A form field or a usable card keeps it; with
 * a dialog open, it is done when the dialog closes.
 */
export function landFocus() {
  const s = app.state;
  const cards = mayPlay() ? (s.legal || []) : mustPass() ? (s.hand || []) : [];
  if (!cards.length) return;
  if (document.querySelector("dialog[open]")) {
    app.turnInDialog = true;  // focusAfterDialog, once it closes
    return;
  }
  const active = document.activeElement;
  const inHand = active && active.classList && active.classList.contains("hand-card");
  const closed = active && active.closest && active.closest("dialog:not([open])");
  // An element of a view just hidden (the waiting room's title, after *Play now*) keeps
  // the focus until the browser drops it on the page: lost already.
  const hidden = active && active !== document.body && active.getClientRects
    && active.getClientRects().length === 0;
  // The hand itself (not one of its cards) waits for a card to land on.
  const lost = !active || active === document.body || !active.isConnected || closed || hidden
    || active === $("hand");
  if (inHand ? !cards.includes(active.dataset.card) : lost) focusCard(cards[0]);
}

/** Whether the cards of this trick up to the player's own were said with their turn. */
function heardThisTrick(deal, trick) {
  return Boolean(app.heard && app.heard.deal === deal && app.heard.trick === trick);
}

function onMyTurn() {
  const s = app.state;
  const trick = s.trick || [];
  // The cards said now, and the player's own to come: the trick's end says the rest.
  app.heard = { deal: `${s.game}:${s.deal}`, trick: (s.tricks || []).length,
    cards: trick.length + 1 };
  // Every card so far, as the other faces say each as it is played.
  const text = trick.length ? `Your turn: ${trickCardsSentence(trick)}` : "Your turn to lead";
  announce(`${text}.`, { queue: true });
  landFocus();
}

/** The cards of a trick so far: "West led the five of clubs, North played the king of
 * clubs". */
function trickCardsSentence(trick) {
  return trick.map(([seat, card], i) => `${nameOf(seat)} ${i ? "played" : "led"} `
    + `the ${cardName(card)}`).join(", ");
}

/**
 * What the player's undo took back, in the words of the other faces: their pass or moon
 * choice, their cards, how many of the others' cards went, and the deal it went back
 * into ("Taken back: your pass of …, and 4 cards played after it. Back to deal 1: its
 * points are taken back.").
 */
export function undoneSentence(event) {
  const taken = [];
  const passed = event.passed || [];
  if (passed.length) {
    taken.push(`your pass of ${listWords(passed.map((c) => `the ${cardName(c)}`))}`);
  } else if (event.moon_choice) {
    taken.push("your moon choice");
  }
  const played = event.played || [];
  if (played.length) taken.push(`your ${listWords(played.map(cardName))}`);
  const others = event.others_played || 0;
  const them = played.length > 1 ? "them" : "it";
  const after = others ? `, and ${plural(others, "card")} played after ${them}` : "";
  let said = taken.length ? `Taken back: ${listWords(taken)}${after}.` : "Taken back.";
  if (event.back_to_deal !== null && event.back_to_deal !== undefined) {
    said += ` Back to deal ${event.back_to_deal + 1}: its points are taken back.`;
  }
  return said;
}
