// Rendering the card table: opponents around the felt, the trick, the player's plate,
// the controls.

import { cardBackSvg, cardName, cardSvg } from "./cards.js";
import { $, h, show } from "./dom.js";
import { focusCard, renderHand } from "./hand.js";
import { againstBotsOnly } from "./newgame.js";
import { renderOptions } from "./options.js";
import { renderStatus } from "./status.js";
import {
  app, autoPlays, cardsToPass, gameInProgress, mayPlay, mustPass, mySeat, nameOf, seatInfo, whoOf,
} from "./store.js";
import { directionWords, plural } from "./words.js";

export function renderTable() {
  const s = app.state;
  if (!s) return;
  if (!app.table || app.table.status !== "waiting" || s.phase) show("table");
  document.body.dataset.phase = s.phase;
  document.body.dataset.myTurn = String(mayPlay());
  document.body.dataset.autoPlay = String(autoPlays());
  // A tab in the background says when the player is wanted.
  document.title = mayPlay() || mustPass() ? "● Your turn — OpenHearts" : "OpenHearts";
  document.body.dataset.seat = mySeat() === null ? "" : String(mySeat());
  // Someone watching has no hand to skip to (the link leads to the same place).
  if (!$("table-view").hidden) {
    $("skip-link").textContent = mySeat() === null ? "Skip to the main content"
      : "Skip to your hand";
  }
  renderOpponents();
  renderTrick();
  renderMe();
  renderHand();
  renderStatus();
  renderControls();
}

/** Where a seat sits around the table: 0 at the bottom, in the order of play. */
function seatAngle(seat) {
  const s = app.state;
  const players = s.players || (s.names || []).length || 4;
  const base = mySeat() === null ? 0 : mySeat();
  const rel = (seat - base + players) % players;
  const counter = app.table && app.table.rules && app.table.rules.direction === "counterclockwise";
  const angle = (2 * Math.PI * rel) / players;
  return counter ? -angle : angle;
}

/** True when the felt is too narrow for seats around it: opponents then sit in a row on top. */
function narrowFelt() {
  const felt = $("felt");
  if ((felt.clientWidth || 800) < 560) return true;
  // Someone watching has a seat at the bottom too: on a low felt (a phone on its side)
  // the seats at the top and bottom left the trick and the note no room between them.
  return mySeat() === null && (felt.clientHeight || 400) < LOW_FELT;
}

/** Below this height a spectator's felt has its seats in a row on top. */
const LOW_FELT = 300;

function renderOpponents() {
  const s = app.state;
  const box = $("opponents");
  box.replaceChildren();
  const felt = $("felt");
  const width = felt.clientWidth || 800;
  const height = felt.clientHeight || 400;
  const narrow = narrowFelt();
  // In a row, the plates are as on a phone (the felt is narrow below the phone's width
  // too: a 600 px tablet's five plates ran into each other).
  box.classList.toggle("in-row", narrow);
  const players = s.players || s.names.length;
  const waiting = s.waiting_for || [];
  const placed = [];
  for (let seat = 0; seat < players; seat++) {
    if (seat === mySeat()) continue;
    const angle = seatAngle(seat);
    const info = seatInfo(seat);
    const count = (s.hand_sizes || [])[seat] ?? 0;
    const backs = h("div", { class: "opp-backs", "aria-hidden": "true" });
    for (let i = 0; i < Math.min(count, 13); i++) backs.appendChild(cardBackSvg());
    const taken = (s.points_taken || [])[seat] ?? 0;
    const total = (s.scores || [])[seat] ?? 0;
    let tag = "";
    if (info && info.kind === "bot") {
      const level = info.level || app.table.level;
      tag = info.replaced ? `random bot: the ${level} bot went wrong` : `${level} bot`;
    }
    else if (info && info.bot_playing) tag = "away: a bot plays";
    else if (info && info.kind === "human" && !info.connected) tag = "not connected";
    let turn = false;
    let done = false;
    if (s.phase === "passing") {
      turn = waiting.includes(seat);
      done = !turn && cardsToPass() > 0 && s.pass_direction !== "hold";
      // While passing, what the seat is doing matters more than who plays it.
      if (turn) tag = "choosing cards";
      else if (done) tag = "passed";
    } else if (s.phase === "playing" || s.phase === "moon_choice") {
      turn = s.to_move === seat;
    }
    const winner = s.phase === "game_over" && (s.winners || []).includes(seat);
    const plate = h("div", { class: "plate" }, [
      // A long name is cut short on a phone: the whole of it on hover.
      h("span", { class: "name", text: nameOf(seat), title: nameOf(seat) }),
      h("span", { class: "meta" }, [
        h("span", { class: "count", text: plural(count, "card") }),
        h("span", { class: "points", text: `${plural(taken, "point")} · total ${total}` }),
      ]),
      tag ? h("span", { class: "tag", text: tag }) : null,
    ]);
    const label = `${nameOf(seat)}: ${plural(count, "card")}, ${plural(taken, "point")} this deal, `
      + `${total} in total${turn ? ", to play" : ""}${tag ? `, ${tag}` : ""}`;
    const node = h("div", {
      class: `opponent${turn ? " turn" : ""}${done ? " done" : ""}${winner ? " winner" : ""}`,
      role: "group", "aria-label": label, "data-seat": seat,
    }, [backs, plate]);
    box.appendChild(node);
    // The seat across the table shows its cards beside its name to leave room for the trick;
    // so does a spectator's seat at the bottom (a player's own is under the felt), which
    // has the centre note and the trick above it.
    if (!narrow && Math.cos(angle) < -0.8) node.classList.add("across");
    if (!narrow && Math.cos(angle) > 0.8) node.classList.add("across", "bottom");
    placed.push({ node, angle });
  }
  // Around an ellipse on a wide table; in one row along the top on a narrow one, read
  // left to right as the ellipse goes from the bottom left over the top. Sorting by the
  // angle itself, not by its sine: two seats on one side have sines equal but for rounding.
  const turn = 2 * Math.PI;
  const aroundFromLeft = (angle) => ((angle % turn) + turn) % turn;
  const order = [...placed].sort((a, b) => aroundFromLeft(a.angle) - aroundFromLeft(b.angle));
  placeOpponents(order, width, height, narrow);
  // Five or six players on a low felt (1280 × 720): the two seats on one side, each
  // its card backs above its name, covered each other. Then the backs go (the count is
  // on the plate); beside the names they made the seats wider, into the trick.
  if (!narrow && opponentsOverlap(order)) {
    for (const item of order) item.node.classList.add("no-backs");
    placeOpponents(order, width, height, narrow);
  }
}

/** Put each opponent at its place: around an ellipse, or in a row along the top. */
function placeOpponents(order, width, height, narrow) {
  order.forEach((item, index) => {
    if (narrow) item.node.style.maxWidth = `${Math.floor(width / order.length) - 4}px`;
    const w = item.node.offsetWidth;
    const hgt = item.node.offsetHeight;
    let x;
    let y;
    if (narrow) {
      x = (width * (index + 0.5)) / order.length;
      y = hgt / 2 + 6;
    } else {
      x = width / 2 - (width / 2 - w / 2 - 10) * Math.sin(item.angle);
      y = height / 2 + (height / 2 - hgt / 2 - 10) * Math.cos(item.angle);
    }
    x = Math.min(Math.max(x, w / 2 + 4), width - w / 2 - 4);
    y = Math.min(Math.max(y, hgt / 2 + 4), height - hgt / 2 - 4);
    item.node.style.left = `${x}px`;
    item.node.style.top = `${y}px`;
  });
}

/** True when any two opponents' boxes (card backs and plate together) meet. */
function opponentsOverlap(order) {
  const boxes = order.map((item) => item.node.getBoundingClientRect());
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i];
      const b = boxes[j];
      if (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom) {
        return true;
      }
    }
  }
  return false;
}

/** The cards shown in the middle: the trick in progress, or the last finished one. */
export function shownTrick() {
  const s = app.state;
  const players = s.players || s.names.length;
  if ((s.trick || []).length) {
    return { cards: s.trick, old: false, winner: null };
  }
  const tricks = s.tricks || [];
  if (s.phase === "playing" && tricks.length) {
    const last = tricks[tricks.length - 1];
    const cards = last.cards.map((card, i) => [(last.leader + i) % players, card]);
    return { cards, old: true, winner: last.winner };
  }
  return { cards: [], old: false, winner: null };
}

function renderTrick() {
  const box = $("trick");
  const felt = $("felt");
  const width = felt.clientWidth || 800;
  const height = felt.clientHeight || 400;
  const { cards, old, winner } = shownTrick();
  box.replaceChildren();
  box.classList.toggle("old", old);
  // A compact cross, each card pushed towards the seat that played it.
  const narrow = narrowFelt();
  const style = getComputedStyle(document.documentElement);
  const players = app.state.players || 4;
  // Five or six cards need smaller cards further apart to stay readable.
  const scale = players > 4 ? 0.8 : 1;
  const cardW = (parseFloat(style.getPropertyValue("--trick-w")) || 80) * scale;
  const cardH = cardW * 1.4 + 18;
  box.style.setProperty("--trick-scale", String(scale));
  // Centre the trick in the room left below the opponents at the top of the table (a
  // row of them on a narrow table, the seat across on a wide one) and above the centre
  // note, which sits above a spectator's seat at the bottom.
  const above = narrow ? "#opponents .opponent" : "#opponents .across:not(.bottom)";
  const top = [...document.querySelectorAll(above)].map((n) => n.offsetHeight + 8);
  const block = Math.max(0, ...top);
  const noteRoom = placeCentreNote(narrow);
  // Four seats sit square; with three, five or six the side seats are nearer the bottom
  // one and need more room across.
  const reachX = Math.min(cardW * (players === 4 ? 1.0 : 1.2), width * 0.2);
  const spotsAt = (reachY) => [...Array(players).keys()].map((seat) => seatAngle(seat))
    .map((angle) => [-reachX * Math.sin(angle), reachY * Math.cos(angle)]);
  // The trick between the seats on top and ``below`` the foot of the felt.
  const layout = (below) => {
    const shiftY = (block - below) / 2;
    const room = (height - block - below) / 2 - cardH / 2 - 4;
    const reachY = Math.max(cardH * 0.4, Math.min(cardH * (players > 4 ? 1.0 : 0.56), room));
    const spots = spotsAt(reachY);
    // A cross only where no two seats' cards (each with its name below) would cover
    // each other: on a low felt, a row instead, read left to right as played. Five or
    // six seats in a row on any narrow felt, where a cross would have to be too small.
    const crowded = spots.some(([x1, y1], i) => spots.slice(i + 1)
      .some(([x2, y2]) => Math.abs(x1 - x2) < cardW - 0.5 && Math.abs(y1 - y2) < cardH - 0.5));
    // Nor where the cross is higher than the room left above the note.
    const ys = spots.map(([, y]) => y);
    const tooTall = below > 0 && Math.max(...ys) - Math.min(...ys) + cardH > height - block - below;
    const row = (players > 4 && narrow) || crowded || tooTall;
    const lowest = shiftY + (row ? 0 : Math.max(...ys)) + cardH / 2;
    return { below, shiftY, reachY, row, lowest };
  };
  // Someone watching keeps the note's room free; a player's own card lies at the foot
  // of the cross, beside the note where the felt is tall enough, else above it too (a
  // phone on its side: the note covered the player's own card).
  let placed = layout(mySeat() === null ? noteRoom : 0);
  if (placed.below === 0 && placed.lowest > height / 2 - noteRoom) placed = layout(noteRoom);
  const { below, shiftY, reachY, row } = placed;
  const gap = 6;
  let rowStep = Math.min(cardW + gap, (width - 24) / Math.max(1, cards.length));
  if (row) {
    let smaller = 1;
    if (!narrow && cards.length > 1) {
      // Five or six cards in a row between the side seats (six players in a 900 × 560
      // window: the row ran under their plates): smaller cards where the row would not fit.
      const fits = (rowRoom(felt, shiftY, cardH) - (cards.length - 1) * gap) / cards.length;
      smaller = Math.min(smaller, fits / cardW);
    }
    // Nor higher than the room between the seats on top and the note (a phone on its
    // side); the names under the cards keep their size.
    if (below > 0) {
      const label = cardH - cardW * 1.4;
      smaller = Math.min(smaller, (height - block - below - label) / (cardW * 1.4));
    }
    if (smaller < 1) {
      smaller = Math.max(0.6, smaller);
      box.style.setProperty("--trick-scale", String(scale * smaller));
      rowStep = Math.min(rowStep, cardW * smaller + gap);
    }
  }
  cards.forEach(([seat, card], index) => {
    const angle = seatAngle(seat);
    const label = `${whoOf(seat)}: ${cardName(card)}`;
    const node = h("div", {
      class: `trick-card${seat === winner ? " winner" : ""}`, role: "img",
      "aria-label": label, "data-seat": seat, "data-card": card,
    }, [
      cardSvg(card),
      // No wider than its card (a long name is cut, whole in the title): the layout
      // keeps the cards apart, so their names stay apart too.
      h("span", {
        class: "who", text: seat === mySeat() ? "You" : nameOf(seat), title: whoOf(seat),
      }),
    ]);
    if (row) {
      node.style.left = `${(index - (cards.length - 1) / 2) * rowStep}px`;
      node.style.top = `${shiftY}px`;
    } else {
      node.style.left = `${-reachX * Math.sin(angle)}px`;
      node.style.top = `${reachY * Math.cos(angle) + shiftY}px`;
    }
    node.style.zIndex = String(index + 1);
    box.appendChild(node);
  });
  box.setAttribute(
    "aria-label",
    old ? `Last trick, taken by ${whoOf(winner)}` : "Cards on the table",
  );
}

/** The note in the middle of the felt's foot: the pass, who took the trick, hearts broken. */
function centreNote() {
  const s = app.state;
  const { old, winner } = shownTrick();
  if (s.phase === "passing") {
    return s.pass_direction === "hold"
      ? "Hold hand: no passing"
      : `Passing ${directionWords(s.pass_direction)}`;
  }
  if (old && winner !== null) {
    return `${winner === mySeat() ? "You take" : `${nameOf(winner)} takes`} the trick`;
  }
  if (s.phase === "playing") return s.hearts_broken ? "Hearts broken" : "";
  return "";
}

/** Write the centre note and put it at the foot of the felt, or just above a spectator's
 * seat at the bottom (which covered it); the height the note takes at the foot. */
function placeCentreNote(narrow) {
  const note = $("center-note");
  const felt = $("felt");
  note.textContent = centreNote();
  note.title = note.textContent;
  note.style.maxWidth = "";
  const seat = narrow ? null : document.querySelector("#opponents .bottom");
  // The seat's foot is 10 px above the felt's (placeOpponents).
  note.style.bottom = seat ? `${seat.offsetHeight + 10 + 6}px` : "";
  const above = parseFloat(getComputedStyle(note).bottom) || 0;
  // The same room whether a note is shown or not, so that the trick does not jump.
  const noteHeight = note.offsetHeight || 24;
  if (note.textContent) {
    // No wider than the room between the seats beside it (five or six players: a long
    // name taking the trick ran under the lower side seats); cut short, whole in the title.
    const foot = felt.clientHeight - above - noteHeight / 2;
    note.style.maxWidth = `${rowRoom(felt, foot - felt.clientHeight / 2, noteHeight)}px`;
  }
  return above + noteHeight + 6;
}

/** How wide a row (of trick cards, or the centre note) may be, centred on the felt
 * `shiftY` below its middle and `cardH` high, without running under a seat beside it. */
function rowRoom(felt, shiftY, cardH) {
  const box = felt.getBoundingClientRect();
  const centreX = box.left + felt.clientLeft + felt.clientWidth / 2;
  const centreY = box.top + felt.clientTop + felt.clientHeight / 2 + shiftY;
  let half = felt.clientWidth / 2;
  for (const node of document.querySelectorAll("#opponents .opponent")) {
    const r = node.getBoundingClientRect();
    if (r.bottom <= centreY - cardH / 2 || r.top >= centreY + cardH / 2) continue;
    if (r.right <= centreX) half = Math.min(half, centreX - r.right);
    else if (r.left >= centreX) half = Math.min(half, r.left - centreX);
  }
  return 2 * half - 12;
}

function renderMe() {
  const s = app.state;
  const box = $("me-info");
  const seat = mySeat();
  if (seat === null) {
    box.replaceChildren(h("span", { class: "name", text: "Watching" }));
    box.classList.remove("turn");
    return;
  }
  const taken = (s.points_taken || [])[seat] ?? 0;
  const total = (s.scores || [])[seat] ?? 0;
  box.replaceChildren(
    h("span", { class: "name", text: nameOf(seat) }),
    // Read as "Kim, 0 points": side by side the two spans were read as one word.
    h("span", { class: "visually-hidden", text: ", " }),
    h("span", { class: "meta", text: `${plural(taken, "point")} · total ${total}` }),
  );
  box.classList.toggle("turn", mayPlay() || mustPass());
}

function renderControls() {
  const s = app.state;
  const seated = mySeat() !== null;
  const over = s.phase === "game_over";
  $("hint").hidden = !seated || !s.can_hint;
  $("undo").hidden = !seated || !s.can_undo && !s.can_hint;
  $("undo").disabled = !s.can_undo || app.busy;
  $("hint").disabled = over || app.busy || autoPlays();
  $("play-for-me").hidden = $("hint").hidden;
  $("play-for-me").disabled = $("hint").disabled;
  // A button disabled or hidden under the focus (Undo, pressed back to the pass, has
  // nothing left to take back) dropped it on the page: back to the hand instead.
  const active = document.activeElement;
  if (active && active.closest && active.closest(".controls") && active.tagName === "BUTTON"
      && (active.disabled || active.hidden)) {
    if (app.focusCard && $("hand").querySelector(`[data-card="${app.focusCard}"]`)) {
      focusCard(app.focusCard);
    } else {
      $("hand").focus();
    }
  }
  if ($("options-dialog").open) renderOptions();
  $("type-card-form").hidden = !seated || over;
  // While a bot keeps the seat, a card clicked raced the bot's (and often lost).
  $("take-back-seat").hidden = !seated || over || !app.state.bot_playing;
  $("chat-form").hidden = !seated;
  $("chat-watching").hidden = seated;
  // What N does, for touch: a new game against bots, or the next one after the end.
  $("new-game").hidden = !seated || !app.host || !(over || againstBotsOnly());
  $("new-game").textContent = over ? "Play again" : "New game";
  const leave = $("leave-table");
  leave.hidden = !seated;
  if (gameInProgress()) leave.setAttribute("aria-haspopup", "dialog");
  else leave.removeAttribute("aria-haspopup");
}
