// The review of tricks (L, "Tricks"): every trick of this game's deals, deal by deal,
// as the server's review gives them (GET /api/tables/{id}/deals): the cards played in
// front of everyone, who took each trick and its points; never a hand or a pass.

import { announce } from "./announce.js";
import { api } from "./api.js";
import { cardName, cardPretty, isRed } from "./cards.js";
import { openDialog } from "./dialogs.js";
import { $, h } from "./dom.js";
import { app, whoOf } from "./store.js";
import { plural } from "./words.js";

const review = { deals: [], shown: 0, loaded: null, opening: 0 };

/** What the review last loaded reflects: a new trick or deal calls for a reload. */
function stateKey() {
  const s = app.state;
  return s ? `${app.tableId}:${s.game}:${s.deal}:${(s.tricks || []).length}:${s.phase}` : null;
}

async function load() {
  const key = stateKey();
  const answer = await api("GET", `/api/tables/${encodeURIComponent(app.tableId)}/deals`);
  const atLast = review.shown >= review.deals.length - 1;
  review.deals = upToTheTable(answer);
  review.opening = openingDeal(review.deals);
  review.loaded = key;
  // Someone following the deal in progress keeps following it.
  if (atLast || review.shown >= review.deals.length) review.shown = review.deals.length - 1;
}

/**
 * The server's deals as far as the table shows them: the page shows the states one
 * after another at the animation speed (pace.js), some seconds behind the game while
 * bots play, and the review told who took tricks not on the table yet.
 */
function upToTheTable(answer) {
  const deals = (answer && answer.deals) || [];
  const s = app.state;
  if (!s || answer.game !== s.game || s.phase === "game_over") return deals;
  const shown = deals.slice(0, s.deal + 1);
  const current = shown[s.deal];
  const tricks = (s.tricks || []).length;
  if (current && current.tricks.length > tricks) {
    shown[s.deal] = { ...current, finished: false, tricks: current.tricks.slice(0, tricks) };
  }
  return shown;
}

/** The deal a review opens at: the one in progress, or the one just finished while no
 * trick of the next one is (the server's `opening`, by the session core's rule). */
function openingDeal(deals) {
  const last = deals.length - 1;
  return last > 0 && !deals[last].finished && !deals[last].tricks.length ? last - 1 : last;
}

/** "You" or the player's name, to start a sentence. */
function capitalWho(seat) {
  const who = whoOf(seat);
  return who === "you" ? "You" : who;
}

function trickSentence(trick, number) {
  const plays = trick.plays.map(([seat, card]) => `${whoOf(seat)}, ${cardName(card)}`);
  return `Trick ${number}: ${plays.join("; ")}. ${capitalWho(trick.winner)} took it, `
    + `${plural(trick.points, "point")}.`;
}

function dealSummary(deal) {
  const count = deal.tricks.length;
  if (!deal.finished) {
    return count
      ? `Deal ${deal.deal + 1}, in progress: ${plural(count, "trick")} so far.`
      : `Deal ${deal.deal + 1}, in progress: no trick finished yet.`;
  }
  const taken = deal.taken.map((p, seat) => `${whoOf(seat)} ${p}`).join(", ");
  const shot = deal.shot && deal.shooter !== null
    ? ` ${capitalWho(deal.shooter)} shot the ${deal.shot}.` : "";
  return `Deal ${deal.deal + 1}: points taken: ${taken}.${shot}`;
}

function render() {
  const deal = review.deals[review.shown];
  const list = $("review-tricks");
  const previous = $("review-previous");
  const next = $("review-next");
  const focused = document.activeElement;
  previous.disabled = review.shown <= 0;
  next.disabled = review.shown >= review.deals.length - 1;
  // A button disabled under the focus would drop it out of the dialog.
  if (focused === previous && previous.disabled) (next.disabled ? $("review-close") : next).focus();
  if (focused === next && next.disabled) (previous.disabled ? $("review-close") : previous).focus();
  if (!deal) {
    $("review-title").textContent = "Tricks";
    $("review-summary").textContent = "No deal has been dealt yet.";
    list.replaceChildren();
    return;
  }
  $("review-title").textContent = `Tricks of deal ${deal.deal + 1}`;
  $("review-summary").textContent = dealSummary(deal);
  list.replaceChildren(...deal.tricks.map((trick, index) => h("li", {
    class: "review-trick", "data-trick": index + 1,
  }, [
    h("span", { class: "review-number", text: `Trick ${index + 1}` }),
    h("span", { class: "review-plays" }, trick.plays.map(([seat, card]) => h("span", {
      class: `review-play${seat === trick.winner ? " winner" : ""}`, "data-card": card,
    }, [
      h("span", { class: "who", text: capitalWho(seat) }),
      " ",
      h("span", { class: isRed(card) ? "card red" : "card", "aria-hidden": "true",
        text: cardPretty(card) }),
      h("span", { class: "visually-hidden", text: cardName(card) }),
    ]))),
    h("span", {
      class: "review-taker",
      text: `${capitalWho(trick.winner)} ${whoOf(trick.winner) === "you" ? "take" : "takes"} `
        + plural(trick.points, "point"),
    }),
  ])));
}

/** Open the review at the deal of the last trick played, and say that trick. */
export async function openReview() {
  if (!app.tableId || !app.state) return;
  openDialog("review-dialog");
  $("review-close").focus();
  review.shown = Number.MAX_SAFE_INTEGER;
  try {
    await load();
  } catch (error) {
    $("review-summary").textContent = `The tricks cannot be shown: ${error.message}`;
    announce($("review-summary").textContent);
    return;
  }
  // The deal just finished while no trick of the next one is: its last trick is the last.
  review.shown = Math.min(review.opening, review.deals.length - 1);
  render();
  const deal = review.deals[review.shown];
  if (!deal) return;
  const last = deal.tricks[deal.tricks.length - 1];
  announce(last ? `${dealSummary(deal)} ${trickSentence(last, deal.tricks.length)}`
    : dealSummary(deal));
}

/** Show the deal before or after the one shown, and say its summary. */
export function stepReview(by) {
  const next = review.shown + by;
  if (next < 0 || next >= review.deals.length) return;
  review.shown = next;
  render();
  announce(dealSummary(review.deals[next]));
}

/** While the review is open it follows the game: reload on a new trick or deal. */
export function followReview() {
  if (!$("review-dialog").open || review.loaded === stateKey()) return;
  load().then(render, () => {});
}
