// The table's connection: joining, the WebSocket, sending actions, dispatching messages.

import { announce, flash, toast } from "./announce.js";
import { api } from "./api.js";
import { chatAccepted, chatRefused, onChat, resetChat } from "./chat.js";
import { stopClock } from "./clock.js";
import { $, removedKey, seatKey, show, storage } from "./dom.js";
import { renderHand } from "./hand.js";
import { onHint, sendQueuedUndo } from "./hints.js";
import { finishLeaving } from "./leave.js";
import { rememberSeat, showLobby } from "./lobby.js";
import { dropHeld, receiveState, showHeld } from "./pace.js";
import { app } from "./store.js";
import { renderTable } from "./table.js";
import { forgetSeat, listingRefused, setTable } from "./waiting.js";
import { asSentence } from "./words.js";

function tableIdFromPath() {
  const m = /^\/t\/([A-Za-z0-9_-]{1,64})\/?$/.exec(location.pathname);
  return m ? m[1] : null;
}

export async function openTable(tableId) {
  closeSocket();
  Object.assign(app, {
    tableId, token: storage.get(seatKey(tableId)), role: null, seat: null, host: false,
    table: null, state: null, seq: -1, selected: [], hintCard: null, flash: null,
    joinTried: false, askName: false, dealInfo: new Map(), busy: false,
  });
  show("waiting");
  $("waiting-title").textContent = "Table";
  $("waiting-note").textContent = "Connecting…";
  $("seat-list").replaceChildren();
  // Nothing of a host's until the server says who this page is.
  for (const id of ["fill-bots", "start-game", "give-up-seat", "share-box", "join-form", "list-box"]) {
    $(id).hidden = true;
  }
  resetChat();
  if (!app.token) await tryJoin();
  connect();
}

/**
 * Take a free seat of a waiting table when the browser holds none there yet.  A
 * browser with no name yet (a friend opening a shared link) is asked for one first:
 * the waiting room then shows the name form, and `joinWithName` takes the seat.
 */
async function tryJoin() {
  app.joinTried = true;
  let summary;
  try {
    summary = await api("GET", `/api/tables/${encodeURIComponent(app.tableId)}`);
  } catch (error) {
    if (error.status === 404) {
      showMissingTable();
      throw error;
    }
    return;
  }
  if (summary.status !== "waiting" || !summary.seats.some((s) => s.kind === "empty")) return;
  const name = storage.get("openhearts.name");
  if (!name) {
    app.askName = true;
    return;
  }
  try {
    await oneTabAtATime(app.tableId, async () => {
      // Another tab of this browser took a seat here meanwhile: share its seat.
      const held = await seatOfAnotherTab(app.tableId);
      if (held) app.token = held;
      else await join(name);
    });
  } catch (error) {
    if (error.code === "removed") storage.set(removedKey(app.tableId), "1");
    // Another tab of this browser took the seat a moment ago: share its seat token.
    if (error.code === "seated") app.token = storage.get(seatKey(app.tableId));
    else if (error.status !== 409) toast(error.message);
  }
}

/**
 * Run `work` while no other tab of this browser runs it for the same table: two tabs
 * opened at once (a double click on the link) took two seats for one person.
 */
async function oneTabAtATime(tableId, work) {
  if (!navigator.locks) return work();
  return navigator.locks.request(`openhearts.join.${tableId}`, async () => {
    await work();
    // Said to the other tabs by a lock held while this page lives: the browser keeps
    // locks at once for every tab, where a tab's storage reaches the others a while later.
    if (app.token) {
      navigator.locks.request(joinedLock(tableId), () => new Promise(() => {}));
    }
  });
}

const joinedLock = (tableId) => `openhearts.joined.${tableId}`;

/**
 * The seat token another tab of this browser took at this table, or null: when that tab
 * says it joined, its token is waited for (briefly) until the storage shows it.
 */
async function seatOfAnotherTab(tableId) {
  const stored = storage.get(seatKey(tableId));
  if (stored || !navigator.locks) return stored;
  const { held = [], pending = [] } = await navigator.locks.query();
  if (![...held, ...pending].some((lock) => lock.name === joinedLock(tableId))) return null;
  for (let waited = 0; waited < 3000; waited += 50) {
    await new Promise((resolve) => { setTimeout(resolve, 50); });
    const token = storage.get(seatKey(tableId));
    if (token) return token;
  }
  return null;
}

/** Join the table under `name`; the seat token is kept in the browser. */
async function join(name) {
  const body = { name };
  const playerToken = storage.get("openhearts.player");
  if (playerToken) body.player_token = playerToken;
  const answer = await api("POST", `/api/tables/${encodeURIComponent(app.tableId)}/join`, body);
  rememberSeat(answer);
  app.token = answer.token;
}

/** The waiting room's name form: take a free seat under the name typed. */
export async function joinWithName(event) {
  event.preventDefault();
  const input = $("join-name");
  const error = $("join-error");
  const name = input.value.trim();
  if (!name) {
    error.textContent = "Type the name the others will see.";
    input.focus();
    return;
  }
  error.textContent = "";
  storage.set("openhearts.name", name);
  const button = $("join-submit");
  button.disabled = true;
  try {
    await join(name);
    app.askName = false;
    // The connection so far was a spectator's: say hello again with the seat token.
    closeSocket();
    connect();
    // The form goes: the focus goes to the heading, not to the page itself.
    $("waiting-title").focus();
  } catch (failure) {
    error.textContent = failure.message;
  } finally {
    button.disabled = false;
  }
}

function showMissingTable() {
  show("waiting");
  $("waiting-title").textContent = "No such table";
  $("waiting-note").textContent =
    "This link does not lead to a table. Start a new game from the lobby.";
  $("seat-list").replaceChildren();
  $("fill-bots").hidden = true;
  $("start-game").hidden = true;
  $("join-form").hidden = true;
  // Nothing to share: the link leads nowhere.
  $("share-box").hidden = true;
  // Said as well: a screen reader heard nothing of a page that only changed its text.
  announce("This link does not lead to a table. Start a new game from the lobby.");
}

export function connect() {
  clearTimeout(app.reconnectTimer);
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}/ws/${encodeURIComponent(app.tableId)}`);
  app.ws = ws;
  app.closing = false;
  ws.addEventListener("open", () => {
    if (app.ws !== ws) return;
    app.wsOpen = true;
    app.lostSaid = false;
    sendRaw({ type: "hello", ...(app.token ? { token: app.token } : {}) });
    app.lastHeard = Date.now();
    clearInterval(app.pingTimer);
    app.pingTimer = setInterval(() => {
      if (Date.now() - app.lastHeard > SILENT_MS) {
        // Nothing heard, not even a pong (a phone asleep, a network changed): the
        // socket may never report its end, so the page gives it up and reconnects.
        giveUp(ws);
        return;
      }
      sendRaw({ type: "ping" });
    }, PING_MS);
  });
  ws.addEventListener("message", (event) => {
    if (app.ws !== ws) return;
    app.lastHeard = Date.now();
    let message;
    try { message = JSON.parse(event.data); } catch { return; }
    if (message && typeof message === "object") handleMessage(message);
  });
  ws.addEventListener("close", () => {
    if (app.ws !== ws) return;
    app.wsOpen = false;
    app.busy = false;
    // No answer comes over a closed connection: nothing waits for one any more.
    app.pending.clear();
    clearInterval(app.pingTimer);
    if (app.closing) return;
    connectionLost();
    app.reconnectTimer = setTimeout(connect, app.reconnectDelay);
    app.reconnectDelay = Math.min(app.reconnectDelay * 2, 4000);
  });
}

/** How often the page pings, and how long a silent connection is trusted. */
const PING_MS = 25000;
const SILENT_MS = 60000;

function giveUp(ws) {
  clearInterval(app.pingTimer);
  app.ws = null;
  app.wsOpen = false;
  app.busy = false;
  try { ws.close(); } catch { /* already closed */ }
  connectionLost();
  clearTimeout(app.reconnectTimer);
  app.reconnectTimer = setTimeout(connect, 0);
}

/** Said once, not at every try to reconnect (a screen reader would repeat it). */
function connectionLost() {
  document.body.dataset.connection = "lost";
  if (app.lostSaid) return;
  app.lostSaid = true;
  flash("Connection lost: reconnecting…", "error");
}

export function closeSocket() {
  dropHeld();
  stopClock();
  clearTimeout(app.reconnectTimer);
  // A stale timer id would let "back online" reconnect to a table the player has left.
  app.reconnectTimer = null;
  clearInterval(app.pingTimer);
  if (app.ws) {
    app.closing = true;
    try { app.ws.close(); } catch { /* already closed */ }
  }
  app.ws = null;
  app.wsOpen = false;
}

export function sendRaw(message) {
  if (!app.ws || app.ws.readyState !== WebSocket.OPEN) return false;
  app.ws.send(JSON.stringify(message));
  return true;
}

/** Actions on the game: the states the page holds back (pace.js) are shown first. */
const GAME_ACTIONS = ["pass", "play", "moon", "undo", "hint", "auto", "start"];

/** Send an action; the answer (ack or error) is matched by id. */
export function send(type, fields = {}) {
  // A card, a pass or a moon choice answers the state the player saw: the server
  // refuses it as stale if the game has moved on since.  An undo takes back the
  // player's last move whatever followed it, so it names the latest state.
  const shown = app.seq ?? 0;
  if (GAME_ACTIONS.includes(type)) showHeld();
  const id = app.nextId++;
  // A hint answers the turn it was asked on: one asked before this action is stale.
  if (type !== "hint" && GAME_ACTIONS.includes(type)) app.lastAction = id;
  app.pending.set(id, type);
  const counted = { pass: shown, play: shown, moon: shown, undo: app.seq ?? 0 };
  const seen = type in counted ? { seq: counted[type] } : {};
  if (!sendRaw({ type, id, ...seen, ...fields })) {
    app.pending.delete(id);
    flash("Not connected yet: try again in a moment.", "error");
    return null;
  }
  return id;
}

function handleMessage(message) {
  switch (message.type) {
    case "welcome":
      // A welcome (a new connection, or a new game whose seats may have moved) comes
      // after every state before it.
      showHeld();
      // Only a welcome shows the server will have this page: a socket closed as soon
      // as it opened (a refusal) keeps the wait between tries growing.
      app.reconnectDelay = 500;
      app.role = message.role;
      app.seat = message.seat === undefined ? null : message.seat;
      app.host = Boolean(message.host);
      // The loss was said: so is the way back, or a blind player must ask the page.
      if (document.body.dataset.connection === "lost") {
        announce("Connected again.", { queue: true });
      }
      document.body.dataset.connection = "ok";
      if (app.flash && app.flash.kind === "error") app.flash = null;
      setTable(message.table);
      break;
    case "table":
      setTable(message.table);
      break;
    case "state":
      receiveState(message);
      sendQueuedUndo();
      break;
    case "ack":
      if (message.for === "leave" && app.leaving) {
        app.pending.delete(message.id);
        finishLeaving(true);
        break;
      }
      if (app.pending.get(message.id) === "play" || message.for === "play") renderHand();
      if (app.chatSent && app.chatSent.id === message.id) chatAccepted();
      app.pending.delete(message.id);
      break;
    case "error":
      onError(message);
      break;
    case "hint":
      onHint(message);
      break;
    case "chat":
      onChat(message);
      break;
    default:
      break;
  }
}

function onError(message) {
  const type = app.pending.get(message.id);
  app.pending.delete(message.id);
  // Picks refused (the pass was made meanwhile) leave the page as it is.
  if (type === "picks") return;
  app.busy = false;
  // A refused choice leaves nothing new to take back.
  if (["play", "pass", "moon"].includes(type)) app.undoQueued = false;
  // A seat given up before the start and refused (the game began meanwhile) is kept.
  if (type === "leave" && app.leaving && app.leaving.seat) app.leaving = null;
  if (message.code === "removed") {
    // The host freed our seat: watch from now on, without taking a seat again.
    forgetSeat({ askName: false });
    storage.set(removedKey(app.tableId), "1");
    app.joinTried = true;
    flash(asSentence(message.message || "The host removed you from this table."), "error");
    closeSocket();
    connect();
    return;
  }
  if (message.code === "no_table") {
    // Final: the table is gone (forgotten after its retention, or a new database).
    // Reconnecting at once, for ever, spent this address's connections.
    storage.remove(seatKey(app.tableId));
    app.token = null;
    closeSocket();
    showMissingTable();
    return;
  }
  if (message.code === "bad_token") {
    storage.remove(seatKey(app.tableId));
    app.token = null;
    // Said, not only shown as a spectator's page: the seat this browser held here is
    // not known at this table any more (a reset server, an edited storage).
    toast("This browser's seat at this table is not known here any more.", "info");
    if (!app.joinTried) {
      closeSocket();
      tryJoin().then(connect, () => {});
    } else {
      sendRaw({ type: "hello" });
    }
    return;
  }
  // A move sent after the game moved on (the clock's bot made it, another tab did): the
  // server's "that answers move 19, but the game is at move 208" meant nothing to a player.
  const text = message.code === "stale"
    ? "Too late: the game moved on before your move came. Look at the table again."
    : asSentence(message.message || "That is not possible now.");
  if (app.role === null && !$("waiting").hidden) {
    // Refused before the welcome (too many watching from here, say): the waiting
    // room, not a status line out of sight, says why.
    // The note is a live region: a toast as well said it twice.
    $("waiting-note").textContent = text;
    return;
  }
  if (type === "chat") {
    chatRefused(message.code, text);
    return;
  }
  if (type === "auto") {
    app.autoWanted = null;
    if (app.state) renderTable();
  }
  if (type === "list") listingRefused();
  // The server's refusals are whole sentences, in the words of every face.
  flash(text, "error");
  renderHand();
}

export function route(event) {
  const tableId = tableIdFromPath();
  // A link within the page (the skip link's #hand) moves in the history too: the view
  // shown is the one asked for, so nothing is opened again (it reconnected the table,
  // and the focus the link gave fell to the page).
  const shown = tableId ? app.tableId === tableId
    : !location.pathname.startsWith("/t/") && document.body.dataset.view === "lobby";
  if (event && event.type === "popstate" && shown) return;
  if (tableId) openTable(tableId).catch(() => {});
  else if (location.pathname.startsWith("/t/")) {
    // A table link that cannot be one (cut short, mistyped): said, not the lobby in
    // silence under the wrong address.
    closeSocket();
    Object.assign(app, { tableId: null, table: null, state: null });
    showMissingTable();
  } else {
    closeSocket();
    showLobby();
  }
}
