// The table summary (seats) and the waiting room of a shared table.

import { announce, flash, toast } from "./announce.js";
import { send } from "./connection.js";
import { $, h, hostKey, removedKey, seatKey, show, storage } from "./dom.js";
import { app } from "./store.js";
import { renderScoreActions } from "./scores.js";
import { CANNOT_SAVE, PAUSED } from "./status.js";
import { renderTable } from "./table.js";
import { plural } from "./words.js";

export function setTable(table) {
  if (!table) return;
  const before = app.table;
  app.table = table;
  noteTheHost(table, !before || before.id !== table.id);
  // The host who left before a game hands the table on (the server says so here).
  let mine = app.seat === null ? null : (table.seats || [])[app.seat];
  const own = app.seat;
  if (mine && mine.kind === "empty" && table.status === "waiting" && !app.leaving) {
    // Another tab of this browser gave the seat up: this page watches now, as that one.
    forgetSeat();
    mine = null;
    announce("This browser gave up its seat here (in another tab): you are watching. "
      + "Type your name to take a free seat again.");
  }
  if (mine && Boolean(mine.host) !== app.host) {
    app.host = Boolean(mine.host);
    // Queued: said after what was pending (the last trick, the winner), not instead.
    if (app.host && table.status === "waiting") {
      announce("The host has left: you are the host now, and can start the game.",
        { queue: true });
    } else if (app.host && table.status === "finished") {
      announce("The host has left: you are the host now: Play again starts the next game.",
        { queue: true });
    } else if (!app.host && before && before.id === table.id) {
      const heir = (table.seats || []).find((seat) => seat.host);
      announce(`${heir && heir.name ? heir.name : "Someone else"} is the host now.`,
        { queue: true });
    }
    if ($("scores-dialog").open) renderScoreActions();
  } else if (before && before.id === table.id) {
    // The host's seat passed between two others: said to the rest, spectators too.
    // Told apart by name (unique at a table), not by seat: shuffled seating moves the
    // host to another seat at the start of a game, and everyone heard of a new host.
    const was = (before.seats || []).find((seat) => seat.host);
    const heir = (table.seats || []).find((seat) => seat.host);
    if (heir && heir.name && (!was || was.name !== heir.name)) {
      announce(`${heir.name} is the host now.`, { queue: true });
    }
  }
  // The server saves again: a refusal of the outage ("your move was not made: make it
  // again when the game goes on") stayed in the status line once the game went on.
  if (before && before.id === table.id && before.cannot_save && !table.cannot_save
      && app.flash && app.flash.kind === "error") {
    app.flash = null;
  }
  if (table.status === "waiting" || !app.state) renderWaiting();
  if (app.state) renderTable();
  // The host listed the table in the lobby or took it off (from this page or another):
  // for the host the answer to their own choice (it replaces what was said), for the
  // others an event (it follows what was said).
  if (before && before.id === table.id && table.status === "waiting"
      && Boolean(before.listed) !== Boolean(table.listed)) {
    announce(listingSentence(Boolean(table.listed)), { queue: !app.host });
  }
  if (before && before.id === table.id && Boolean(before.paused) !== Boolean(table.paused)) {
    announce(table.paused ? PAUSED : "Someone is back: the game goes on.", { queue: true });
  }
  // Said on arriving too: a player whose move is refused meanwhile must know why.
  if (Boolean(before && before.id === table.id && before.cannot_save)
      !== Boolean(table.cannot_save)) {
    announce(table.cannot_save ? CANNOT_SAVE : "The server can save again: the game goes on.",
      { queue: true });
  }
  if (before && before.id === table.id && table.status !== "finished") {
    for (const sentence of seatChanges(before.seats || [], table.seats || [], own,
      table.status === "waiting")) {
      announce(sentence, { queue: true });
    }
  }
  // The turn clock ran out for this player: said, since the move is made for them.
  const seat = app.seat;
  const overdue = (t) => seat !== null && Boolean(((t && t.seats) || [])[seat]?.overdue);
  if (overdue(table) && !(before && before.id === table.id && overdue(before))) {
    const clock = table.turn_clock ? ` (${table.turn_clock} s)` : "";
    flash(mine && mine.bot_playing
      ? `Time is up again${clock}: a bot plays for you until you act.`
      : `Time is up${clock}: the computer makes this move for you.`, "error");
  }
  noteHelped(table, mine);
}

/**
 * A bot moved for the player (they left, dropped or let the clock run out): the game
 * will not count in their statistics. Said once a game, as a hint's or an undo's is,
 * also to a player who comes back to find it so.
 */
function noteHelped(table, mine) {
  const game = `${table.id}:${table.game}`;
  if (!mine || !mine.helped || !table.rated || table.status !== "playing"
      || app.unratedSaid === game) {
    return;
  }
  app.unratedSaid = game;
  // Queued: after what the same news said first ("Time is up: the computer makes this
  // move for you."), not instead.
  toast("The computer moved for you in this game: it does not count in your statistics.",
    "info", { queue: true });
}

/**
 * The host who was away while the table passed to someone else was not told: the
 * browser keeps that it held the host's seat, and says so once it no longer does.
 */
function noteTheHost(table, arriving) {
  if (app.seat === null) return;
  const mine = (table.seats || [])[app.seat];
  if (!mine || mine.kind !== "human") return;
  if (mine.host) {
    if (!storage.get(hostKey(table.id))) storage.set(hostKey(table.id), "1");
  } else if (storage.get(hostKey(table.id))) {
    storage.remove(hostKey(table.id));
    // A page that saw it happen says so below ("… is the host now").
    const heir = (table.seats || []).find((seat) => seat.host);
    if (arriving && heir) {
      announce(`While you were away, the table passed to ${heir.name}: they are the host now.`,
        { queue: true });
    }
  }
}

/**
 * This page holds no seat here any more (given up, or the host removed it): the seat
 * shows free at once (the server's table follows), the browser forgets its token, and
 * the page does not hear its own going as someone else's.
 */
export function forgetSeat({ askName = true } = {}) {
  const given = app.seat;
  storage.remove(seatKey(app.tableId));
  storage.remove(hostKey(app.tableId));
  if (app.table && given !== null) {
    app.table = {
      ...app.table,
      seats: app.table.seats.map((seat) => (seat.seat === given
        ? { seat: seat.seat, kind: "empty", name: null, host: false, connected: false }
        : seat)),
    };
  }
  Object.assign(app, { token: null, seat: null, role: "spectator", askName, host: false });
}

/**
 * Who came to or went from the waiting room since the table before: a screen reader
 * heard nothing of the seat list changing while they waited for friends.
 */
function seatChanges(before, after, own, waiting) {
  const said = [];
  for (const seat of after) {
    const was = before[seat.seat];
    if (!was || seat.seat === own) continue;
    const name = seat.name || `Seat ${seat.seat + 1}`;
    if (waiting) {
      if (was.kind !== "human" && seat.kind === "human") said.push(`${name} took a seat.`);
      else if (was.kind === "human" && seat.kind !== "human") {
        said.push(`${was.name || name} left the table.`);
      }
      if (was.kind !== "bot" && seat.kind === "bot") {
        said.push(`A bot takes seat ${seat.seat + 1}.`);
      } else if (was.kind === "bot" && seat.kind === "empty") {
        said.push(`Seat ${seat.seat + 1} is free again.`);
      }
    }
    if (was.kind !== "human" || seat.kind !== "human") continue;
    // The people at the table: whether they are here, and who plays for them.
    if (!waiting && !was.bot_playing && seat.bot_playing) {
      said.push(`A bot plays for ${name} now.`);
    } else if (!waiting && was.bot_playing && !seat.bot_playing) {
      said.push(`${name} plays again.`);
    } else if (was.connected && !seat.connected) {
      sayIfStillGone(seat, name);
    } else if (!was.connected && seat.connected && goneSaid.has(personKey(seat))) {
      said.push(`${name} is back.`);
    }
    // Here again, however it was said ("Gus plays again."): the next going is said too.
    if (seat.connected) goneSaid.delete(personKey(seat));
  }
  return said;
}

/** The people said to be gone (table, seat and name), to say when they are back. */
const goneSaid = new Set();
const personKey = (seat) => `${app.tableId}:${seat.seat}:${seat.name}`;

/**
 * Said only if still gone a few seconds later: a page reloaded (or a phone switching
 * networks) made everyone hear "not connected" and "back" at once.
 */
function sayIfStillGone(seat, name) {
  const key = personKey(seat);
  setTimeout(() => {
    const now = ((app.table && app.table.seats) || [])[seat.seat];
    if (!now || now.kind !== "human" || now.connected || personKey(now) !== key) return;
    if (goneSaid.has(key)) return;
    goneSaid.add(key);
    announce(`${name} is not connected.`, { queue: true });
  }, GONE_AFTER_MS);
}

const GONE_AFTER_MS = 4000;

const listingSentence = (listed) => (listed
  ? "This table is listed in the lobby now: anyone can join it."
  : "This table is no longer listed in the lobby: only people with the link can join.");

/** The host ticked or cleared "List this table in the lobby" (the `list` message). */
export function onListChange(event) {
  // The table the server sends back shows the new listing; a refusal (or no
  // connection) puts the box back as the table is (`listingRefused`).
  if (send("list", { listed: event.target.checked }) === null) renderWaiting();
}

/** The server refused the host's `list` message: show the listing as it is. */
export function listingRefused() {
  if (app.table) renderWaiting();
}

/** The host's box to list the table in the lobby, showing whether it is listed. */
function renderListing(table, isHost) {
  $("list-box").hidden = !isHost;
  if (!isHost) return;
  const listed = Boolean(table.listed);
  $("list-table").checked = listed;
  $("list-table-note").textContent = listed
    ? "Listed: the table shows under “Tables waiting for players” in everyone's lobby"
      + " until the game starts."
    : "Not listed: only the people you give the link to can join.";
}

function renderWaiting() {
  const table = app.table;
  if (!table) return;
  if (table.status !== "waiting" && app.state) return;
  show("waiting");
  $("waiting-title").textContent =
    table.status === "waiting" ? "Table: waiting for players" : "Table";
  $("waiting-rules").textContent = (table.describe || []).join(" · ");
  $("share-box").hidden = false;
  $("share-link").value = location.origin + (table.url || `/t/${table.id}`);
  const list = $("seat-list");
  // The list is built again at every table message (anyone connecting): the focus on a
  // seat's button went to the page itself. It stays with that seat.
  const active = document.activeElement;
  const focusedSeat = active && list.contains(active) ? active.closest("li")?.dataset.seat : null;
  list.replaceChildren();
  const isHost = app.host && table.status === "waiting";
  for (const seat of table.seats) {
    const nameNode = seat.kind === "empty"
      ? h("span", { class: "seat-name seat-free", text: "Free seat" })
      : h("span", { class: "seat-name", text: seat.name || `Seat ${seat.seat + 1}` });
    const badges = [];
    if (seat.seat === app.seat) badges.push(h("span", { class: "badge you", text: "you" }));
    if (seat.host) badges.push(h("span", { class: "badge host", text: "host" }));
    if (seat.kind === "bot") {
      badges.push(h("span", { class: "badge", text: `${seat.level || table.level} bot` }));
    } else if (seat.kind === "human" && !seat.connected) {
      badges.push(h("span", { class: "badge away", text: "not connected" }));
    }
    let action = null;
    if (isHost && seat.kind === "empty") {
      action = h("button", {
        type: "button", text: "Add bot", "aria-label": `Add bot to seat ${seat.seat + 1}`,
        onclick: () => send("fill", { seat: seat.seat }),
      });
    } else if (isHost && seat.kind === "bot") {
      action = h("button", {
        type: "button", text: "Remove bot",
        "aria-label": `Remove bot from seat ${seat.seat + 1}`,
        onclick: () => send("clear", { seat: seat.seat }),
      });
    } else if (isHost && seat.kind === "human" && seat.seat !== app.seat) {
      // A stranger in a friend's seat: freed, and that person may only watch this table.
      const who = seat.name || `seat ${seat.seat + 1}`;
      action = h("button", {
        type: "button", text: "Remove", "aria-label": `Remove ${who} from this table`,
        onclick: () => {
          if (window.confirm(`Remove ${who}? They will only be able to watch this table.`)) {
            send("remove", { seat: seat.seat });
          }
        },
      });
    }
    const row = h("li", { "data-seat": String(seat.seat), tabindex: "-1" },
      [nameNode, ...badges, action]);
    list.appendChild(row);
    if (focusedSeat === String(seat.seat)) (action || row).focus();
  }
  renderListing(table, isHost);
  const free = table.seats.filter((s) => s.kind === "empty").length;
  $("fill-bots").hidden = !isHost || free === 0;
  $("start-game").hidden = !isHost;
  $("give-up-seat").hidden = table.status !== "waiting" || app.seat === null || app.host;
  // Someone watching is offered a seat that comes free (they were told to reload).
  const removed = Boolean(storage.get(removedKey(table.id)));
  const watching = app.role === "spectator" && !removed;
  const asking = (app.askName || watching) && table.status === "waiting" && app.seat === null
    && free > 0;
  const form = $("join-form");
  if (asking && form.hidden) {
    form.hidden = false;
    const input = $("join-name");
    if (!input.value) input.value = storage.get("openhearts.name") || "";
    // Not taken from wherever the person is: only a focus that is nowhere moves.
    const active = document.activeElement;
    if (app.askName || !active || active === document.body) input.focus();
  } else if (!asking) form.hidden = true;
  let note;
  if (table.status !== "waiting") note = "The game is starting…";
  else if (asking) note = "Type your name to take a free seat, or just watch.";
  else if (removed) {
    note = "The host removed you from this table: you can watch it.";
  } else if (app.role === "spectator" || app.seat === null) {
    note = "You are watching: every seat is taken.";
  } else if (isHost) {
    note = free
      ? `Share the link. ${plural(free, "seat")} free: start now and bots take them.`
      : "Every seat is taken: start when you are ready.";
  } else note = "Waiting for the host to start the game.";
  // Written only when it changes: the note is a live region, and every table message
  // (anyone connecting) read the same sentence again.
  if ($("waiting-note").textContent !== note) $("waiting-note").textContent = note;
}
