// OpenHearts web page: lobby, waiting room and card table, talking to the server over
// the protocol in docs/web-protocol.md.  Plain modules, no build step.
//
// Every name and every message from the server is put on the page with textContent:
// the only markup built here comes from constants.

import {
  RANKS, SUITS, cardBackSvg, cardIndex, cardName, cardPretty, cardSvg, installSprite,
  isCardCode, parseCard, suitSingular, suitWord,
} from "./cards.js";

const $ = (id) => document.getElementById(id);

// ---------------------------------------------------------------------------
// Small helpers

const storage = {
  get(key) {
    try { return window.localStorage.getItem(key); } catch { return null; }
  },
  set(key, value) {
    try { window.localStorage.setItem(key, value); } catch { /* private mode */ }
  },
  remove(key) {
    try { window.localStorage.removeItem(key); } catch { /* private mode */ }
  },
};

const seatKey = (tableId) => `openhearts.seat.${tableId}`;

function h(tag, props = {}, children = []) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "text") node.textContent = String(value);
    else if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined) continue;
    node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
  }
  return node;
}

function listWords(items) {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

function plural(count, word) {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

const DIRECTION_WORDS = {
  left: "to the left", right: "to the right", across: "across", hold: "no pass (hold)",
};

function directionWords(direction) {
  if (direction in DIRECTION_WORDS) return DIRECTION_WORDS[direction];
  const m = /^(left|right)(\d+)$/.exec(direction || "");
  return m ? `${m[2]} seats to the ${m[1]}` : String(direction || "");
}

async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch {
    throw new Error("The server cannot be reached. Check your connection and try again.");
  }
  let data = null;
  try { data = await response.json(); } catch { data = null; }
  if (!response.ok) {
    const error = new Error((data && data.message) || `The server said ${response.status}.`);
    error.status = response.status;
    error.code = data && data.error;
    throw error;
  }
  return data;
}

// ---------------------------------------------------------------------------
// State of the page

const app = {
  config: null,
  tableId: null,
  token: null,
  ws: null,
  wsOpen: false,
  closing: false,
  reconnectDelay: 500,
  reconnectTimer: null,
  pingTimer: null,
  joinTried: false,
  role: null,
  seat: null,
  host: false,
  table: null,
  state: null,
  seq: -1,
  nextId: 1,
  pending: new Map(),
  selected: [],
  focusCard: null,
  hintCard: null,
  flash: null,
  busy: false,
  typed: "",
  dealInfo: new Map(),
  wasMyTurn: false,
  wasPassing: false,
  playedThisDeal: false,
  leaving: null,
  notice: null,
  chatSent: null,
  chatUnread: 0,
  autoWanted: null,
  settledSaid: null,
};

// ---------------------------------------------------------------------------
// Announcements (ARIA live region) and the status line

let announceTimer = null;
let announced = { text: "", at: 0 };

/**
 * Speak a sentence through the polite live region (cleared first so that a repeat is
 * read again).  Keys replace what was said; events (``queue``) follow what was said
 * a moment ago instead of cutting it off.
 */
function announce(text, { queue = false } = {}) {
  const region = $("announcer");
  const now = Date.now();
  const text2 = queue && now - announced.at < 1500 && announced.text
    ? `${announced.text} ${text}` : text;
  announced = { text: text2, at: now };
  region.textContent = "";
  clearTimeout(announceTimer);
  announceTimer = setTimeout(() => { region.textContent = text2; }, 60);
}

let toastTimer = null;

function toast(text, kind = "error") {
  const box = $("toast");
  box.textContent = text;
  box.className = `toast ${kind}`;
  box.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { box.hidden = true; }, 4000);
}

/** A message that stays in the status line until the game moves on. */
function flash(text, kind = "info") {
  app.flash = { text, kind, seq: app.seq };
  renderStatus();
  announce(text, { queue: true });
}

// ---------------------------------------------------------------------------
// Views: which section is shown

function show(view) {
  $("lobby").hidden = view !== "lobby";
  $("waiting").hidden = view !== "waiting";
  $("table-view").hidden = view !== "table";
  document.body.dataset.view = view;
}

// ---------------------------------------------------------------------------
// Lobby

async function loadConfig() {
  if (app.config) return app.config;
  app.config = await api("GET", "/api/config");
  return app.config;
}

function fillSelect(select, values, selected, label = (v) => v) {
  select.replaceChildren();
  for (const value of values) {
    select.appendChild(h("option", { value, text: label(value), selected: value === selected }));
  }
}

const LEVEL_LABELS = {
  random: "Random (beginner)", easy: "Easy", hard: "Hard", expert: "Expert (thinks longer)",
};

function drawHeroFan() {
  const fan = $("hero-fan");
  if (fan.childElementCount) return;
  ["JC", "KD", "QS", "AH"].forEach((code, i) => {
    const svg = cardSvg(code);
    svg.style.transform = `rotate(${(i - 1.5) * 14}deg)`;
    fan.appendChild(svg);
  });
}

async function showLobby() {
  show("lobby");
  drawHeroFan();
  document.title = "OpenHearts";
  renderNotice();
  $("player-name").value = storage.get("openhearts.name") || "";
  let config;
  try {
    config = await loadConfig();
  } catch (error) {
    $("new-table-error").textContent = error.message;
    return;
  }
  const levels = config.levels || ["random"];
  const level = storage.get("openhearts.level") || config.default_level || levels[0];
  const chosen = levels.includes(level) ? level : levels[0];
  fillSelect($("play-now-level"), levels, chosen, (v) => LEVEL_LABELS[v] || v);
  fillSelect($("opt-level"), levels, chosen, (v) => LEVEL_LABELS[v] || v);
  const presets = config.presets || [];
  fillSelect(
    $("opt-preset"), presets.map((p) => p.name), config.default_preset || "standard",
    (name) => {
      const preset = presets.find((p) => p.name === name);
      return preset && preset.description ? `${name}: ${preset.description}` : name;
    },
  );
  updatePlayerChoices();
  loadMyTables();
  loadOpenTables();
}

/** A word for the lobby from the table just left (shown once). */
function renderNotice() {
  const notice = app.notice;
  app.notice = null;
  $("lobby-notice").hidden = !notice;
  if (!notice) return;
  $("lobby-notice-text").textContent = notice.text;
  $("lobby-notice-link").href = notice.url;
}

/** Tables this browser holds a seat at and that are not over: a link back to each. */
async function loadMyTables() {
  const ids = [];
  try {
    for (let i = 0; i < window.localStorage.length; i++) {
      const key = window.localStorage.key(i);
      if (key && key.startsWith("openhearts.seat.")) ids.push(key.slice("openhearts.seat.".length));
    }
  } catch {
    return;
  }
  const found = await Promise.all(ids.slice(0, 20).map(async (id) => {
    try {
      return await api("GET", `/api/tables/${encodeURIComponent(id)}`);
    } catch (error) {
      if (error.status === 404) storage.remove(seatKey(id));
      return null;
    }
  }));
  const list = $("my-table-list");
  list.replaceChildren();
  for (const table of found) {
    if (!table || table.status === "finished") continue;
    const names = table.seats.map((seat) => seat.name).filter(Boolean);
    const what = table.status === "waiting" ? "waiting to start" : "in play";
    list.appendChild(h("li", {}, [
      h("span", { class: "who", text: listWords(names) }),
      h("span", { class: "muted", text: `${table.preset}, ${what}` }),
      h("a", {
        href: table.url, text: "Return", "aria-label": `Return to the table of ${listWords(names)}`,
      }),
    ]));
  }
  $("my-tables").hidden = list.childElementCount === 0;
}

/** The shared tables still waiting for players, each with a link to join. */
async function loadOpenTables() {
  let answer;
  try {
    answer = await api("GET", "/api/tables");
  } catch {
    return;
  }
  const tables = (answer && answer.tables) || [];
  const list = $("open-table-list");
  list.replaceChildren();
  for (const table of tables.slice(0, 10)) {
    const host = table.seats.find((seat) => seat.host);
    const free = table.seats.filter((seat) => seat.kind === "empty").length;
    if (!free) continue;
    const who = host && host.name ? `${host.name}'s table` : "A table";
    list.appendChild(h("li", {}, [
      h("span", { class: "who", text: who }),
      h("span", { class: "muted", text: `${table.preset}, ${plural(free, "free seat")}` }),
      h("a", { href: table.url, text: "Join", "aria-label": `Join ${who}` }),
    ]));
  }
  $("open-tables").hidden = list.childElementCount === 0;
}

function updatePlayerChoices() {
  const config = app.config;
  if (!config) return;
  const preset = (config.presets || []).find((p) => p.name === $("opt-preset").value);
  $("preset-describe").textContent = preset && preset.describe ? preset.describe.join(" · ") : "";
  const allowed = preset && preset.players ? preset.players.map(String) : ["3", "4", "5", "6"];
  const select = $("opt-players");
  for (const option of select.options) option.disabled = !allowed.includes(option.value);
  if (!allowed.includes(select.value)) select.value = allowed.includes("4") ? "4" : allowed[0];
}

function playerName() {
  const name = $("player-name").value.trim();
  storage.set("openhearts.name", name);
  return name;
}

function commonBody(level) {
  const body = { level };
  const name = playerName();
  if (name) body.name = name;
  const playerToken = storage.get("openhearts.player");
  if (playerToken) body.player_token = playerToken;
  storage.set("openhearts.level", level);
  return body;
}

function rememberSeat(answer) {
  storage.set(seatKey(answer.table_id), answer.token);
  if (answer.player_token) storage.set("openhearts.player", answer.player_token);
}

async function playNow(event) {
  event.preventDefault();
  const button = $("play-now");
  button.disabled = true;
  try {
    const answer = await api("POST", "/api/play-now", commonBody($("play-now-level").value));
    rememberSeat(answer);
    goToTable(answer.table_id, answer.url);
  } catch (error) {
    toast(error.message);
    announce(error.message);
  } finally {
    button.disabled = false;
  }
}

async function createTable(event) {
  event.preventDefault();
  const errorBox = $("new-table-error");
  errorBox.textContent = "";
  const body = commonBody($("opt-level").value);
  body.preset = $("opt-preset").value;
  body.players = Number($("opt-players").value);
  const options = {};
  const endScore = Number($("opt-end-score").value);
  if (!Number.isInteger(endScore) || endScore < 1) {
    errorBox.textContent = "The end score must be a whole number of at least 1.";
    $("opt-end-score").focus();
    return;
  }
  options.end_score = endScore;
  for (const [id, key] of [
    ["opt-first-trick", "first_trick"], ["opt-hearts-break", "hearts_break"],
    ["opt-moon", "moon"], ["opt-seating", "seating"],
  ]) {
    if ($(id).value) options[key] = $(id).value;
  }
  if ($("opt-sun").checked) options.sun = true;
  if ($("opt-jack").checked) options.jack_of_diamonds = true;
  body.options = options;
  const button = $("create-table");
  button.disabled = true;
  try {
    const answer = await api("POST", "/api/tables", body);
    rememberSeat(answer);
    goToTable(answer.table_id, answer.url);
  } catch (error) {
    errorBox.textContent = error.message;
  } finally {
    button.disabled = false;
  }
}

function goToTable(tableId, url) {
  history.pushState({}, "", url || `/t/${tableId}`);
  openTable(tableId);
}

// ---------------------------------------------------------------------------
// Table connection

function tableIdFromPath() {
  const m = /^\/t\/([A-Za-z0-9_-]{1,64})\/?$/.exec(location.pathname);
  return m ? m[1] : null;
}

async function openTable(tableId) {
  closeSocket();
  Object.assign(app, {
    tableId, token: storage.get(seatKey(tableId)), role: null, seat: null, host: false,
    table: null, state: null, seq: -1, selected: [], hintCard: null, flash: null,
    joinTried: false, dealInfo: new Map(), busy: false,
  });
  show("waiting");
  $("waiting-title").textContent = "Table";
  $("waiting-note").textContent = "Connecting…";
  $("seat-list").replaceChildren();
  resetChat();
  if (!app.token) await tryJoin();
  connect();
}

/** Take a free seat of a waiting table when the browser holds none there yet. */
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
  const body = {};
  const name = storage.get("openhearts.name");
  if (name) body.name = name;
  const playerToken = storage.get("openhearts.player");
  if (playerToken) body.player_token = playerToken;
  try {
    const answer = await api("POST", `/api/tables/${encodeURIComponent(app.tableId)}/join`, body);
    rememberSeat(answer);
    app.token = answer.token;
  } catch (error) {
    if (error.status !== 409) toast(error.message);
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
  $("share-link").value = location.href;
}

function connect() {
  clearTimeout(app.reconnectTimer);
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}/ws/${encodeURIComponent(app.tableId)}`);
  app.ws = ws;
  app.closing = false;
  ws.addEventListener("open", () => {
    if (app.ws !== ws) return;
    app.wsOpen = true;
    app.reconnectDelay = 500;
    sendRaw({ type: "hello", ...(app.token ? { token: app.token } : {}) });
    clearInterval(app.pingTimer);
    app.pingTimer = setInterval(() => sendRaw({ type: "ping" }), 25000);
  });
  ws.addEventListener("message", (event) => {
    if (app.ws !== ws) return;
    let message;
    try { message = JSON.parse(event.data); } catch { return; }
    if (message && typeof message === "object") handleMessage(message);
  });
  ws.addEventListener("close", () => {
    if (app.ws !== ws) return;
    app.wsOpen = false;
    app.busy = false;
    clearInterval(app.pingTimer);
    if (app.closing) return;
    document.body.dataset.connection = "lost";
    flash("Connection lost: reconnecting…", "error");
    app.reconnectTimer = setTimeout(connect, app.reconnectDelay);
    app.reconnectDelay = Math.min(app.reconnectDelay * 2, 4000);
  });
}

function closeSocket() {
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

function sendRaw(message) {
  if (!app.ws || app.ws.readyState !== WebSocket.OPEN) return false;
  app.ws.send(JSON.stringify(message));
  return true;
}

/** Send an action; the answer (ack or error) is matched by id. */
function send(type, fields = {}) {
  const id = app.nextId++;
  app.pending.set(id, type);
  if (!sendRaw({ type, id, ...fields })) {
    app.pending.delete(id);
    flash("Not connected yet: try again in a moment.", "error");
    return null;
  }
  return id;
}

function handleMessage(message) {
  switch (message.type) {
    case "welcome":
      app.role = message.role;
      app.seat = message.seat === undefined ? null : message.seat;
      app.host = Boolean(message.host);
      document.body.dataset.connection = "ok";
      if (app.flash && app.flash.kind === "error") app.flash = null;
      setTable(message.table);
      break;
    case "table":
      setTable(message.table);
      break;
    case "state":
      onState(message);
      break;
    case "ack":
      if (message.for === "leave" && app.leaving) {
        app.pending.delete(message.id);
        finishLeaving(true);
        break;
      }
      if (app.pending.get(message.id) === "play" || message.for === "play") {
        app.playedThisDeal = true;
        renderHand();
      }
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
  app.busy = false;
  if (message.code === "bad_token") {
    storage.remove(seatKey(app.tableId));
    app.token = null;
    if (!app.joinTried) {
      closeSocket();
      tryJoin().then(connect, () => {});
    } else {
      sendRaw({ type: "hello" });
    }
    return;
  }
  const text = message.message || "That is not possible now.";
  if (type === "chat") {
    chatRefused(message.code, text);
    return;
  }
  if (type === "auto") {
    app.autoWanted = null;
    if (app.state) renderTable();
  }
  if (message.code === "illegal" || type === "play" || type === "pass") {
    flash(`Not allowed: ${text}`, "error");
  } else {
    flash(text, "error");
  }
  renderHand();
}

// ---------------------------------------------------------------------------
// Table summary (seats) and the waiting room

function setTable(table) {
  if (!table) return;
  app.table = table;
  if (table.status === "waiting" || !app.state) renderWaiting();
  if (app.state) renderTable();
}

function seatInfo(seat) {
  return app.table && app.table.seats ? app.table.seats.find((s) => s.seat === seat) : null;
}

function renderWaiting() {
  const table = app.table;
  if (!table) return;
  if (table.status !== "waiting" && app.state) return;
  show("waiting");
  $("waiting-title").textContent =
    table.status === "waiting" ? "Table: waiting for players" : "Table";
  $("waiting-rules").textContent = (table.describe || []).join(" · ");
  $("share-link").value = location.origin + (table.url || `/t/${table.id}`);
  const list = $("seat-list");
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
        type: "button", text: "Add bot", "aria-label": `Add a bot in seat ${seat.seat + 1}`,
        onclick: () => send("fill", { seat: seat.seat }),
      });
    } else if (isHost && seat.kind === "bot") {
      action = h("button", {
        type: "button", text: "Remove bot",
        "aria-label": `Remove the bot from seat ${seat.seat + 1}`,
        onclick: () => send("clear", { seat: seat.seat }),
      });
    }
    list.appendChild(h("li", {}, [nameNode, ...badges, action]));
  }
  const free = table.seats.filter((s) => s.kind === "empty").length;
  $("fill-bots").hidden = !isHost || free === 0;
  $("start-game").hidden = !isHost;
  let note;
  if (table.status !== "waiting") note = "The game is starting…";
  else if (app.role === "spectator" || app.seat === null) {
    note = free
      ? "You are watching. Reload the page to take a free seat."
      : "You are watching: every seat is taken.";
  } else if (isHost) {
    note = free
      ? `Share the link. ${plural(free, "seat")} free: start now and bots take them.`
      : "Every seat is taken: start when you are ready.";
  } else note = "Waiting for the host to start the game.";
  $("waiting-note").textContent = note;
}

// ---------------------------------------------------------------------------
// Game state

function mySeat() {
  return app.state && app.state.seat !== null && app.state.seat !== undefined
    ? app.state.seat : null;
}

function isMyTurn() {
  const s = app.state;
  return Boolean(s && s.phase === "playing" && mySeat() !== null && s.to_move === mySeat());
}

/**
 * Whether the server plays this seat's card now ("Auto play one"): the only legal card,
 * or the lowest once the deal's points are settled.  The page then offers no card: one
 * sent as the server plays its own would be refused as out of turn.
 */
function autoPlays() {
  const s = app.state;
  if (!isMyTurn() || s.bot_playing || s.auto_play_one === false) return false;
  return (s.legal || []).length === 1 || Boolean(s.settled);
}

/** Whether the player is to choose a card now (and may send one). */
function mayPlay() {
  // While a change of "Auto play one" is on its way, the server may be about to play.
  return isMyTurn() && !autoPlays() && app.autoWanted === null;
}

/** Whether the rest of this deal's cards of ours are played for us. */
function settledForMe() {
  const s = app.state;
  return Boolean(
    s && s.phase === "playing" && s.settled && mySeat() !== null && s.auto_play_one !== false
      && !s.bot_playing,
  );
}

function mustPass() {
  const s = app.state;
  return Boolean(
    s && s.phase === "passing" && mySeat() !== null && !s.passed
      && (s.waiting_for || []).includes(mySeat()) && cardsToPass() > 0,
  );
}

function cardsToPass() {
  const rules = app.table && app.table.rules;
  return rules && Number.isInteger(rules.cards_passed) ? rules.cards_passed : 3;
}

function nameOf(seat) {
  const names = (app.state && app.state.names) || [];
  return names[seat] || `Seat ${seat + 1}`;
}

function whoOf(seat) {
  return seat === mySeat() ? "you" : nameOf(seat);
}

function onState(message) {
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
  if (newDeal) app.playedThisDeal = false;
  // The cards chosen to pass live only here, until they are passed.
  if (newDeal || state.phase !== "passing" || state.passed) app.selected = [];
  app.selected = app.selected.filter((c) => (state.hand || []).includes(c));
  if (app.hintCard && !(state.legal || []).includes(app.hintCard)) app.hintCard = null;

  let dealOver = null;
  let gameOver = null;
  for (const event of message.events || []) {
    if (event.event === "deal_over") {
      dealOver = event;
      app.dealInfo.set(event.deal, event);
    } else if (event.event === "game_over") {
      gameOver = event;
    } else if (event.event === "started") {
      closeDialog("scores-dialog");
    } else if (event.event === "undone") {
      flash(event.seat === mySeat() ? "Taken back." : `${nameOf(event.seat)} took back a move.`);
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
  const myTurn = mayPlay();
  if (myTurn && !app.wasMyTurn) onMyTurn();
  app.wasMyTurn = myTurn;
  const dealKey = `${state.game}:${state.deal}`;
  if (settledForMe() && app.settledSaid !== dealKey) {
    app.settledSaid = dealKey;
    announce("No points are left to take: the rest of your cards play themselves.", {
      queue: true,
    });
  }
  const passing = mustPass();
  if (passing && !app.wasPassing) announce(statusText(), { queue: true });
  app.wasPassing = passing;
  if (gameOver || (state.phase === "game_over" && !previous)) {
    openScores({ final: true });
  } else if (dealOver) {
    openScores({ deal: dealOver });
  }
  if (state.phase === "moon_choice" && state.moon && state.moon.shooter === mySeat()) {
    openMoonDialog(state.moon);
  } else {
    closeDialog("moon-dialog");
  }
}

function onMyTurn() {
  const s = app.state;
  const trick = s.trick || [];
  let text = "Your turn";
  if (trick.length) {
    text += `: ${nameOf(trick[0][0])} led the ${cardName(trick[0][1])}`;
  } else text += " to lead";
  announce(`${text}.`, { queue: true });
  // Keyboard players land on a playable card; nobody loses focus from a form or dialog.
  const active = document.activeElement;
  const inHand = active && active.classList && active.classList.contains("hand-card");
  if ((!active || active === document.body || inHand) && !document.querySelector("dialog[open]")) {
    const focused = inHand && (s.legal || []).includes(active.dataset.card);
    if (!focused) focusCard((s.legal || [])[0]);
  }
}

// ---------------------------------------------------------------------------
// Rendering the table

function renderTable() {
  const s = app.state;
  if (!s) return;
  if (!app.table || app.table.status !== "waiting" || s.phase) show("table");
  document.body.dataset.phase = s.phase;
  document.body.dataset.myTurn = String(mayPlay());
  document.body.dataset.autoPlay = String(autoPlays());
  // A tab in the background says when the player is wanted.
  document.title = mayPlay() || mustPass() ? "● Your turn — OpenHearts" : "OpenHearts";
  document.body.dataset.seat = mySeat() === null ? "" : String(mySeat());
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
  return ($("felt").clientWidth || 800) < 560;
}

function renderOpponents() {
  const s = app.state;
  const box = $("opponents");
  box.replaceChildren();
  const felt = $("felt");
  const width = felt.clientWidth || 800;
  const height = felt.clientHeight || 400;
  const narrow = narrowFelt();
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
    if (info && info.kind === "bot") tag = `${info.level || app.table.level} bot`;
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
      h("span", { class: "name", text: nameOf(seat) }),
      h("span", { class: "meta" }, [
        h("span", { class: "count", text: plural(count, "card") }),
        h("span", { class: "points", text: `${taken} pts · total ${total}` }),
      ]),
      tag ? h("span", { class: "tag", text: tag }) : null,
    ]);
    const label = `${nameOf(seat)}: ${plural(count, "card")}, ${taken} points this deal, `
      + `${total} in total${turn ? ", to play" : ""}${tag ? `, ${tag}` : ""}`;
    const node = h("div", {
      class: `opponent${turn ? " turn" : ""}${done ? " done" : ""}${winner ? " winner" : ""}`,
      role: "group", "aria-label": label, "data-seat": seat,
    }, [backs, plate]);
    box.appendChild(node);
    // The seat across the table shows its cards beside its name to leave room for the trick.
    if (!narrow && Math.cos(angle) < -0.8) node.classList.add("across");
    placed.push({ node, angle });
  }
  // Around an ellipse on a wide table; in one row along the top on a narrow one.
  const order = [...placed].sort((a, b) => Math.sin(b.angle) - Math.sin(a.angle)
    || Math.cos(a.angle) - Math.cos(b.angle));
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

/** The cards shown in the middle: the trick in progress, or the last finished one. */
function shownTrick() {
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
  // row of them on a narrow table, the seat across on a wide one).
  const top = [...document.querySelectorAll(narrow ? "#opponents .opponent" : "#opponents .across")]
    .map((n) => n.offsetHeight + 8);
  const block = Math.max(0, ...top);
  const shiftY = block / 2;
  const room = (height - block) / 2 - cardH / 2 - 4;
  const reachX = Math.min(cardW * (players > 4 ? 1.2 : 1.0), width * 0.2);
  const reachY = Math.max(cardH * 0.4, Math.min(cardH * (players > 4 ? 1.0 : 0.56), room));
  cards.forEach(([seat, card], index) => {
    const angle = seatAngle(seat);
    const label = `${whoOf(seat)}: ${cardName(card)}`;
    const node = h("div", {
      class: `trick-card${seat === winner ? " winner" : ""}`, role: "img",
      "aria-label": label, "data-seat": seat, "data-card": card,
    }, [
      cardSvg(card),
      h("span", { class: "who", text: seat === mySeat() ? "You" : nameOf(seat) }),
    ]);
    node.style.left = `${-reachX * Math.sin(angle)}px`;
    node.style.top = `${reachY * Math.cos(angle) + shiftY}px`;
    node.style.zIndex = String(index + 1);
    box.appendChild(node);
  });
  box.setAttribute(
    "aria-label",
    old ? `Last trick, taken by ${whoOf(winner)}` : "Cards on the table",
  );
  const note = $("center-note");
  const s = app.state;
  if (s.phase === "passing") {
    note.textContent = s.pass_direction === "hold"
      ? "Hold hand: no passing"
      : `Passing ${directionWords(s.pass_direction)}`;
  } else if (old && winner !== null) {
    note.textContent = `${winner === mySeat() ? "You take" : `${nameOf(winner)} takes`} the trick`;
  } else if (s.phase === "playing") {
    note.textContent = s.hearts_broken ? "Hearts broken" : "";
  } else note.textContent = "";
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
    h("span", { class: "meta", text: `${taken} pts · total ${total}` }),
  );
  box.classList.toggle("turn", mayPlay() || mustPass());
}

function statusText() {
  const s = app.state;
  const me = mySeat();
  if (!s) return "";
  if (s.phase === "game_over") {
    const winners = (s.winners || []).map(whoOf);
    const youWin = (s.winners || []).includes(me);
    if (youWin && winners.length === 1) return "Game over: you win!";
    return `Game over: ${listWords(winners)} ${winners.length === 1 ? "wins" : "win"}.`;
  }
  if (me === null) {
    if (s.phase === "passing") return "You are watching. The players are passing cards.";
    if (s.phase === "playing") return `You are watching. ${nameOf(s.to_move)} to play.`;
    return "You are watching.";
  }
  const prefix = s.bot_playing ? "A bot is playing for you: act to take your seat back. " : "";
  if (s.phase === "passing") {
    if (mustPass()) {
      const n = cardsToPass();
      const target = s.pass_target !== null && s.pass_target !== undefined
        ? ` to ${nameOf(s.pass_target)}` : "";
      const chosen = app.selected.length;
      return `${prefix}Choose ${plural(n, "card")} to pass${target} `
        + `(${directionWords(s.pass_direction)}): ${chosen} of ${n} chosen.`;
    }
    const waiting = (s.waiting_for || []).filter((seat) => seat !== me).map(nameOf);
    const gave = s.passed && s.passed.length
      ? ` You pass ${listWords(s.passed.map(cardPretty))}.` : "";
    return `${prefix}Waiting for ${listWords(waiting) || "the others"} to pass.${gave}`;
  }
  if (s.phase === "moon_choice") {
    const shooter = s.moon ? s.moon.shooter : s.to_move;
    return shooter === me
      ? "You shot the moon: choose how it scores."
      : `${nameOf(shooter)} shot the moon and is choosing how it scores.`;
  }
  if (s.phase === "playing") {
    if (autoPlays()) {
      return s.settled
        ? "No points are left to take: the rest of the deal plays itself."
        : `Your only legal card, the ${cardName(s.legal[0])}, is played for you.`;
    }
    if (s.to_move === me) {
      const trick = s.trick || [];
      if (!trick.length) {
        if ((s.tricks || []).length === 0) {
          return `${prefix}Your lead: the ${cardName(s.legal[0] || "2C")} starts the deal.`;
        }
        const unbroken = s.hearts_broken ? "" : " (hearts are not broken yet)";
        return `${prefix}Your lead: play any highlighted card${unbroken}.`;
      }
      const led = trick[0][1][1];
      const hasSuit = (s.hand || []).some((c) => c[1] === led);
      return hasSuit
        ? `${prefix}Your turn: follow suit with a ${suitSingular(led)}.`
        : `${prefix}Your turn: you have no ${suitWord(led)}, play any highlighted card.`;
    }
    const settled = settledForMe() ? " No points are left: your cards play themselves." : "";
    return `${prefix}${nameOf(s.to_move)} to play.${settled}`;
  }
  return "";
}

function renderStatus() {
  const status = $("status");
  const text = app.flash ? app.flash.text : statusText();
  if (status.textContent !== text) status.textContent = text;
  status.classList.toggle("error-text", Boolean(app.flash && app.flash.kind === "error"));
  const passBox = $("pass-box");
  const passing = mustPass();
  passBox.hidden = !passing;
  if (passing) {
    const n = cardsToPass();
    const button = $("pass-confirm");
    button.disabled = app.selected.length !== n || app.busy;
    const target = app.state.pass_target;
    button.textContent = target !== null && target !== undefined
      ? `Pass ${plural(n, "card")} to ${nameOf(target)}` : `Pass ${plural(n, "card")}`;
  }
}

function renderControls() {
  const s = app.state;
  const seated = mySeat() !== null;
  const over = s.phase === "game_over";
  $("hint").hidden = !seated || !s.can_hint;
  $("undo").hidden = !seated || !s.can_undo && !s.can_hint;
  $("undo").disabled = !s.can_undo || app.busy;
  $("hint").disabled = over || app.busy || autoPlays();
  $("auto-play-one").checked = app.autoWanted ?? s.auto_play_one !== false;
  $("auto-play-one").closest("label").hidden = !seated;
  $("type-card-form").hidden = !seated || over;
  $("chat-form").hidden = !seated;
  $("chat-watching").hidden = seated;
  const leave = $("leave-table");
  leave.hidden = !seated;
  if (gameInProgress()) leave.setAttribute("aria-haspopup", "dialog");
  else leave.removeAttribute("aria-haspopup");
}

/** Split the hand into rows that fit the width, overlapping like a fan held in hand. */
function layoutHand(count) {
  const hand = $("hand");
  const style = getComputedStyle(document.documentElement);
  const cardW = parseFloat(style.getPropertyValue("--card-w")) || 90;
  const avail = Math.max(hand.clientWidth - 16, cardW);
  const fits = (n) => (n <= 1 ? cardW : (avail - cardW) / (n - 1));
  let perRow = count;
  if (count > 1 && fits(count) < cardW * 0.5) {
    const most = Math.max(2, Math.floor((avail - cardW) / (cardW * 0.55)) + 1);
    perRow = Math.ceil(count / Math.ceil(count / most));
  }
  const step = Math.min(cardW * 0.62, fits(perRow));
  return { perRow, overlap: step - cardW };
}

const handButtons = new Map();

function renderHand() {
  const s = app.state;
  const hand = $("hand");
  if (!s) return;
  const me = mySeat();
  if (me === null) {
    handButtons.clear();
    hand.replaceChildren(h("p", {
      class: "hand-empty", text: "You are watching this table: only played cards are shown.",
    }));
    return;
  }
  const cards = [...(s.hand || [])].filter(isCardCode).sort((a, b) => cardIndex(a) - cardIndex(b));
  const myTurn = mayPlay();
  const passing = mustPass();
  const legal = new Set(s.legal || []);
  // Received cards stay marked until the player's first own play of the deal.
  const received = new Set(s.phase === "playing" && !app.playedThisDeal ? s.received || [] : []);
  hand.classList.toggle("my-turn", myTurn);
  hand.classList.toggle("auto-playing", autoPlays());
  hand.classList.toggle("passing", passing);
  hand.setAttribute(
    "aria-label",
    passing ? `Your hand: choose ${plural(cardsToPass(), "card")} to pass` : "Your hand",
  );
  const activeCard = document.activeElement && document.activeElement.dataset
    ? document.activeElement.dataset.card : null;
  for (const [code, button] of handButtons) {
    if (!cards.includes(code)) handButtons.delete(code);
  }
  if (!cards.includes(app.focusCard)) {
    const old = app.focusCard;
    app.focusCard = old
      ? cards.find((c) => cardIndex(c) > cardIndex(old)) || cards[cards.length - 1] || null
      : cards[0] || null;
  }
  const { perRow, overlap } = layoutHand(cards.length);
  const rows = [];
  cards.forEach((code, i) => {
    let button = handButtons.get(code);
    if (!button) {
      button = h("button", {
        type: "button", class: "hand-card", "data-card": code, "aria-label": cardName(code),
      }, [cardSvg(code)]);
      button.addEventListener("click", () => onCardClick(code));
      handButtons.set(code, button);
    }
    const isLegal = legal.has(code);
    button.classList.toggle("legal", myTurn && isLegal);
    button.classList.toggle("illegal", myTurn && !isLegal);
    button.classList.toggle("received", received.has(code));
    button.classList.toggle("hint", app.hintCard === code);
    const selectable = passing || (myTurn && isLegal);
    button.setAttribute("aria-disabled", String(!selectable));
    if (passing) button.setAttribute("aria-pressed", String(app.selected.includes(code)));
    else button.removeAttribute("aria-pressed");
    const description = received.has(code) ? `${cardName(code)}, received` : cardName(code);
    button.setAttribute("aria-label", description);
    button.tabIndex = code === app.focusCard ? 0 : -1;
    button.style.marginLeft = i % perRow === 0 ? "0" : `${overlap}px`;
    if (i % perRow === 0) rows.push(h("div", { class: "hand-row" }));
    rows[rows.length - 1].appendChild(button);
  });
  hand.replaceChildren(...rows);
  if (!cards.length) {
    const text = s.phase === "game_over" ? "The game is over." : "No cards in your hand.";
    hand.appendChild(h("p", { class: "hand-empty", text }));
  }
  if (activeCard && handButtons.has(activeCard)) {
    handButtons.get(activeCard).focus({ preventScroll: true });
  }
  else if (activeCard && app.focusCard && handButtons.has(app.focusCard)) {
    handButtons.get(app.focusCard).focus({ preventScroll: true });
  }
}

function focusCard(code) {
  if (!code || !handButtons.has(code)) return;
  app.focusCard = code;
  for (const [c, button] of handButtons) button.tabIndex = c === code ? 0 : -1;
  handButtons.get(code).focus();
}

// ---------------------------------------------------------------------------
// Acting

function onCardClick(code) {
  const s = app.state;
  if (!s || mySeat() === null) return;
  app.focusCard = code;
  if (mustPass()) {
    togglePass(code);
    return;
  }
  if (s.phase === "passing") {
    flash("You have passed: waiting for the others.");
    return;
  }
  if (s.phase !== "playing") return;
  if (!isMyTurn()) {
    flash(`Not your turn: ${nameOf(s.to_move)} is to play.`, "error");
    return;
  }
  if (autoPlays()) {
    flash(s.settled
      ? "No points are left to take: your cards are played for you."
      : "Auto play one plays your only legal card for you.");
    return;
  }
  if (app.busy || app.autoWanted !== null) return;
  // Even a darkened card is sent: the server answers with the rule that forbids it.
  app.busy = true;
  app.hintCard = null;
  if (send("play", { card: code }) === null) app.busy = false;
}

function togglePass(code) {
  const n = cardsToPass();
  const i = app.selected.indexOf(code);
  if (i >= 0) {
    app.selected.splice(i, 1);
    announce(`${cardName(code)} put back. ${app.selected.length} of ${n} chosen.`);
  } else if (app.selected.length >= n) {
    flash(`You have chosen ${n} already: click one of them to put it back.`, "error");
    return;
  } else {
    app.selected.push(code);
    announce(`${cardName(code)} chosen. ${app.selected.length} of ${n}.`);
  }
  app.flash = null;
  renderHand();
  renderStatus();
}

function confirmPass() {
  if (!mustPass()) return;
  const n = cardsToPass();
  if (app.selected.length !== n) {
    flash(`Choose ${plural(n, "card")} to pass first.`, "error");
    return;
  }
  if (app.busy) return;
  app.busy = true;
  renderStatus();
  if (send("pass", { cards: [...app.selected] }) === null) app.busy = false;
}

function actOnTyped(code) {
  if (!app.state || mySeat() === null) return;
  if (!(app.state.hand || []).includes(code)) {
    flash(`You do not hold the ${cardName(code)}.`, "error");
    return;
  }
  focusCard(code);
  onCardClick(code);
}

function onHint(message) {
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

// ---------------------------------------------------------------------------
// Leaving the table: a bot takes the seat at once, and the seat token stays in the
// browser, so the table's link brings the player back to the same seat.

function gameInProgress() {
  const s = app.state;
  return Boolean(s && s.phase !== "game_over" && app.table && app.table.status === "playing");
}

function askToLeave() {
  if (mySeat() === null || app.leaving) return;
  if (gameInProgress()) {
    openDialog("leave-dialog");
    $("leave-stay").focus();
  } else leaveTable();
}

function leaveTable() {
  closeDialog("leave-dialog");
  if (app.leaving) return;
  app.leaving = { url: (app.table && app.table.url) || `/t/${app.tableId}`, timer: null };
  const id = app.nextId++;
  app.pending.set(id, "leave");
  if (!sendRaw({ type: "leave", id })) {
    app.pending.delete(id);
    finishLeaving(false);
    return;
  }
  // Without an answer the seat still goes to a bot: the server notices the closed
  // connection and takes it over after its delay.
  app.leaving.timer = setTimeout(() => finishLeaving(false), 3000);
}

function finishLeaving(acknowledged) {
  const leaving = app.leaving;
  if (!leaving) return;
  clearTimeout(leaving.timer);
  app.leaving = null;
  const bot = acknowledged
    ? "A bot is playing for you now."
    : "A bot plays for you as soon as the server notices you have gone.";
  const text = `You left the table. ${bot} Your seat is kept: open the table's link `
    + "again, or choose Return under Your tables, to take it back.";
  app.notice = { url: leaving.url, text };
  goToLobby();
  announce(text);
  $("lobby-notice").focus();
}

/** Back to the lobby from a table: the connection closes; seat tokens are kept. */
function goToLobby() {
  for (const dialog of document.querySelectorAll("dialog[open]")) dialog.close();
  closeSocket();
  // Nothing of the table may come back on screen (a resize re-renders the last state).
  Object.assign(app, {
    tableId: null, state: null, table: null, role: null, seat: null, host: false,
    selected: [], hintCard: null, flash: null, busy: false,
  });
  if (location.pathname !== "/") history.pushState({}, "", "/");
  showLobby();
}

// ---------------------------------------------------------------------------
// Chat: the server relays the players' lines to everyone at the table (spectators
// read them).  Names and lines are other people's words: they reach the page only
// through textContent.

const CHAT_KEPT = 200;

function chatLimit() {
  const limit = app.config && app.config.limits && app.config.limits.chat_chars;
  return Number.isInteger(limit) && limit > 0 ? limit : 200;
}

function resetChat() {
  $("chat-log").replaceChildren();
  $("chat-error").hidden = true;
  app.chatSent = null;
  app.chatUnread = 0;
  renderUnread();
  $("chat").open = storage.get("openhearts.chat") === "open";
  loadConfig().then(() => { $("chat-input").maxLength = chatLimit(); }, () => {});
}

function renderUnread() {
  const badge = $("chat-unread");
  badge.hidden = app.chatUnread === 0;
  badge.textContent = app.chatUnread ? ` (${app.chatUnread} new)` : "";
}

function onChat(message) {
  if (typeof message.text !== "string") return;
  const seat = Number.isInteger(message.seat) ? message.seat : null;
  const name = typeof message.name === "string" && message.name
    ? message.name : seat === null ? "Someone" : nameOf(seat);
  const mine = seat !== null && seat === mySeat();
  const log = $("chat-log");
  const stamp = typeof message.time === "string" ? new Date(message.time) : null;
  const line = h("li", {
    class: mine ? "mine" : null,
    title: stamp && !Number.isNaN(stamp.getTime()) ? stamp.toLocaleTimeString() : null,
  }, [
    h("span", { class: "chat-name", text: name }),
    ": ",
    h("span", { class: "chat-text", text: message.text }),
  ]);
  const atBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 8;
  log.appendChild(line);
  while (log.childElementCount > CHAT_KEPT) log.firstElementChild.remove();
  // Someone scrolled back to read is not yanked down by a new line.
  if (atBottom) log.scrollTop = log.scrollHeight;
  if (!$("chat").open && !mine) {
    app.chatUnread += 1;
    renderUnread();
  }
  announce(mine ? `You said: ${message.text}` : `${name} says: ${message.text}`, {
    queue: true,
  });
}

function sendChat(event) {
  event.preventDefault();
  const input = $("chat-input");
  const text = input.value.trim();
  if (!text || mySeat() === null) return;
  $("chat-error").hidden = true;
  const id = send("chat", { text: text.slice(0, chatLimit()) });
  if (id !== null) app.chatSent = { id, text: input.value };
}

function chatAccepted() {
  const input = $("chat-input");
  // Only what was sent is cleared: the player may have started the next line.
  if (input.value === app.chatSent.text) input.value = "";
  app.chatSent = null;
}

function chatRefused(code, text) {
  app.chatSent = null;
  const box = $("chat-error");
  box.textContent = code === "not_seated"
    ? "Only the players at the table can chat." : `Not sent: ${text}`;
  box.hidden = false;
  announce(box.textContent, { queue: true });
}

// ---------------------------------------------------------------------------
// Dialogs: scores, winner, moon choice, keys

function openDialog(id) {
  const dialog = $(id);
  if (!dialog.open) {
    if (typeof dialog.showModal === "function") dialog.showModal();
    else dialog.setAttribute("open", "");
  }
}

function closeDialog(id) {
  const dialog = $(id);
  if (dialog.open) dialog.close();
}

function openScores({ deal = null, final = false } = {}) {
  const s = app.state;
  if (!s) return;
  const names = s.names || [];
  const me = mySeat();
  const table = $("scores-table");
  table.replaceChildren();
  table.appendChild(
    h("caption", { class: "visually-hidden", text: "Points of every deal and the totals" }),
  );
  const headRow = h("tr", {}, [h("th", { scope: "col", text: "Deal" })]);
  names.forEach((name, seat) => {
    headRow.appendChild(h("th", {
      scope: "col", class: seat === me ? "you" : null, text: seat === me ? `${name} (you)` : name,
    }));
  });
  table.appendChild(h("thead", {}, [headRow]));
  const body = h("tbody");
  const rows = s.deal_points || [];
  rows.forEach((points, index) => {
    const info = app.dealInfo.get(index);
    const row = h("tr", { class: index === rows.length - 1 && !final ? "last" : null }, [
      h("th", { scope: "row", text: String(index + 1) }),
    ]);
    points.forEach((value, seat) => {
      let text = String(value);
      if (info && info.shooter === seat && info.shot) text += info.shot === "sun" ? " ☀" : " ☾";
      row.appendChild(h("td", { text }));
    });
    body.appendChild(row);
  });
  if (!rows.length) {
    body.appendChild(h("tr", {}, [
      h("td", { colspan: names.length + 1, text: "No deal has been played yet." }),
    ]));
  }
  table.appendChild(body);
  const winners = s.phase === "game_over" ? s.winners || [] : [];
  const totalRow = h("tr", {}, [h("th", { scope: "row", text: "Total" })]);
  (s.scores || []).forEach((value, seat) => {
    totalRow.appendChild(
      h("td", { class: winners.includes(seat) ? "win" : null, text: String(value) }),
    );
  });
  table.appendChild(h("tfoot", {}, [totalRow]));

  const summary = $("scores-summary");
  summary.replaceChildren();
  summary.className = "summary";
  const over = s.phase === "game_over";
  if (over) {
    const winnerNames = winners.map((seat) => (seat === me ? "you" : nameOf(seat)));
    const youWin = winners.includes(me);
    summary.className = "summary winner-line";
    const list = listWords(winnerNames);
    const verb = winners.length === 1 ? "wins" : "win";
    summary.textContent = youWin && winners.length === 1
      ? "You win the game!"
      : `${list[0].toUpperCase()}${list.slice(1)} ${verb} the game!`;
    $("scores-title").textContent = "Game over";
  } else if (deal) {
    $("scores-title").textContent = `Deal ${deal.deal + 1} is over`;
    summary.textContent = dealSummary(deal);
  } else {
    $("scores-title").textContent = "Scores";
    const end = app.table?.rules?.end_score ?? 100;
    summary.textContent =
      `Deal ${s.deal + 1} in progress; the game ends when someone reaches ${end}.`;
  }
  const isHost = app.host;
  $("scores-close").hidden = over;
  $("play-again").hidden = !over || !isHost;
  $("back-lobby").hidden = !over;
  openDialog("scores-dialog");
  announce(`${$("scores-title").textContent}. ${summary.textContent} ${scoresSentence()}`, {
    queue: true,
  });
  (over ? (isHost ? $("play-again") : $("back-lobby")) : $("scores-close")).focus();
}

function dealSummary(deal) {
  const taken = deal.taken || deal.points || [];
  if (deal.shooter !== null && deal.shooter !== undefined && deal.shot) {
    const who = deal.shooter === mySeat() ? "You" : nameOf(deal.shooter);
    return `${who} shot the ${deal.shot}!`;
  }
  const parts = taken.map((p, seat) => `${whoOf(seat)} ${p}`);
  return `Points taken: ${parts.join(", ")}.`;
}

function scoresSentence() {
  const s = app.state;
  if (!s) return "";
  const parts = (s.scores || []).map((score, seat) => `${whoOf(seat)} ${score}`);
  return `Scores: ${parts.join(", ")}.`;
}

function openMoonDialog(moon) {
  const points = moon.points ?? 26;
  $("moon-text").textContent = `You took every point card. Either everyone else adds `
    + `${points}, or you subtract ${points} from your own score.`;
  $("moon-others").textContent = `Everyone else adds ${points}`;
  $("moon-me").textContent = `I subtract ${points}`;
  if (!$("moon-dialog").open) {
    openDialog("moon-dialog");
    (moon.suggested_others_add === false ? $("moon-me") : $("moon-others")).focus();
    announce(`You shot the moon. ${$("moon-text").textContent}`, { queue: true });
  }
}

// ---------------------------------------------------------------------------
// Memory aids (M, "Played"): the cards played and not yet seen, the voids, hearts,
// the points taken.  All of it comes from the seat's own view and the public rules:
// the unseen cards are worked out here (deck less removed, played and own cards), so
// the server never has to name a card that sits in another hand.

const SPOKEN_RANKS = { T: "10", J: "jack", Q: "queen", K: "king", A: "ace" };
const RANK_SHORT = { T: "10" };

function memoryFacts() {
  const s = app.state;
  const played = [];
  for (const trick of s.tricks || []) played.push(...(trick.cards || []));
  for (const [, card] of s.trick || []) played.push(card);
  const removed = new Set(app.table?.rules?.removed || []);
  const known = new Set([...played, ...(s.hand || [])]);
  const byIndex = (a, b) => cardIndex(a) - cardIndex(b);
  const suits = [...SUITS].map((suit) => ({
    suit,
    played: played.filter((c) => c[1] === suit).sort(byIndex),
    unseen: [...RANKS].map((r) => r + suit).filter((c) => !removed.has(c) && !known.has(c)),
  }));
  const voids = (s.voids || []).map(
    (letters) => [...SUITS].filter((x) => (letters || []).includes(x)),
  );
  return {
    played: played.length, suits, voids, heartsBroken: Boolean(s.hearts_broken),
    points: s.points_taken || [],
  };
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
  parts.push(facts.heartsBroken ? "Hearts are broken." : "Hearts are not broken.");
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

function renderPlayed() {
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
  $("played-hearts").textContent = facts.heartsBroken
    ? "Hearts are broken." : "Hearts are not broken yet.";
  $("played-points").replaceChildren(...facts.points.map((p, seat) => h("li", {
    class: seat === mySeat() ? "you" : null,
    text: `${seat === mySeat() ? "You" : nameOf(seat)}: ${p}`,
  })));
}

function openPlayed() {
  if (!app.state) return;
  renderPlayed();
  openDialog("played-dialog");
  $("played-close").focus();
  announce(memorySentence());
}

// ---------------------------------------------------------------------------
// Announcement keys (source 003): C, 1-6, S, T, and H for the hand

function tableSentence() {
  const { cards, old, winner } = shownTrick();
  if (!cards.length) return "No cards on the table.";
  const parts = cards.map(([seat, card]) => `${whoOf(seat)}, ${cardName(card)}`);
  if (old) {
    const taker = winner === mySeat() ? "You" : nameOf(winner);
    return `Last trick: ${parts.join("; ")}. ${taker} took it.`;
  }
  return `On the table: ${parts.join("; ")}.`;
}

function oneCardSentence(n) {
  const { cards, old } = shownTrick();
  if (n > cards.length || old) return `There is no card ${n} on the table.`;
  const [seat, card] = cards[n - 1];
  return `Card ${n}: ${whoOf(seat)}, ${cardName(card)}.`;
}

function scoresAnnouncement() {
  const s = app.state;
  const totals = (s.scores || []).map((score, seat) => `${whoOf(seat)} ${score}`);
  const deal = (s.points_taken || []).map((p, seat) => `${whoOf(seat)} ${p}`);
  return `Scores: ${totals.join(", ")}. This deal: ${deal.join(", ")}.`;
}

function turnSentence() {
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

function handSentence() {
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

const RANK_KEYS = { j: "J", q: "Q", k: "K", a: "A" };
const SUIT_KEYS = { c: "C", d: "D", s: "S", h: "H" };

function onKeyDown(event) {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  const tag = target && target.tagName;
  if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
  if (document.querySelector("dialog[open]")) return;
  if ($("table-view").hidden || !app.state) return;
  const key = event.key;
  const lower = key.length === 1 ? key.toLowerCase() : key;

  if (target && target.classList && target.classList.contains("hand-card")) {
    const buttons = [...$("hand").querySelectorAll(".hand-card")];
    const index = buttons.indexOf(target);
    let next = null;
    if (key === "ArrowRight" || key === "ArrowDown") next = Math.min(index + 1, buttons.length - 1);
    else if (key === "ArrowLeft" || key === "ArrowUp") next = Math.max(index - 1, 0);
    else if (key === "Home") next = 0;
    else if (key === "End") next = buttons.length - 1;
    if (next !== null) {
      event.preventDefault();
      focusCard(buttons[next].dataset.card);
      return;
    }
  } else if (key === "ArrowRight" || key === "ArrowLeft") {
    const start = app.focusCard || ((app.state.legal || [])[0]) || (app.state.hand || [])[0];
    if (start) {
      event.preventDefault();
      focusCard(start);
    }
    return;
  }

  if (app.typed && lower in SUIT_KEYS) {
    event.preventDefault();
    const code = app.typed + SUIT_KEYS[lower];
    app.typed = "";
    actOnTyped(code);
    return;
  }
  app.typed = "";
  if (lower in RANK_KEYS) {
    event.preventDefault();
    app.typed = RANK_KEYS[lower];
    announce(`${cardName(`${RANK_KEYS[lower]}C`).split(" of ")[0]}: now the suit, C, D, S or H.`);
    return;
  }
  let sentence = null;
  if (lower === "c") sentence = tableSentence();
  else if (/^[1-6]$/.test(lower)) sentence = oneCardSentence(Number(lower));
  else if (lower === "s") sentence = scoresAnnouncement();
  else if (lower === "t") sentence = turnSentence();
  else if (lower === "h") sentence = handSentence();
  else if (lower === "m") {
    event.preventDefault();
    openPlayed();
    return;
  }
  else if (lower === "p") {
    event.preventDefault();
    confirmPass();
    return;
  } else if (lower === "/") {
    event.preventDefault();
    $("type-card").focus();
    return;
  } else if (lower === "?") {
    openDialog("help-dialog");
    return;
  }
  if (sentence !== null) {
    event.preventDefault();
    announce(sentence);
  }
}

// ---------------------------------------------------------------------------
// Wiring

function init() {
  installSprite();
  $("play-now-form").addEventListener("submit", playNow);
  $("new-table-form").addEventListener("submit", createTable);
  $("opt-preset").addEventListener("change", updatePlayerChoices);
  $("nav-lobby").addEventListener("click", goToLobby);
  $("nav-help").addEventListener("click", () => openDialog("help-dialog"));
  $("help-close").addEventListener("click", () => closeDialog("help-dialog"));
  $("copy-link").addEventListener("click", async () => {
    const input = $("share-link");
    try {
      await navigator.clipboard.writeText(input.value);
      toast("Link copied.", "info");
      announce("Link copied.");
    } catch {
      input.select();
      announce("Select the link and copy it.");
    }
  });
  $("fill-bots").addEventListener("click", () => send("fill"));
  $("start-game").addEventListener("click", () => send("start"));
  $("pass-confirm").addEventListener("click", confirmPass);
  $("hint").addEventListener("click", () => send("hint"));
  $("undo").addEventListener("click", () => {
    app.selected = [];
    app.hintCard = null;
    send("undo");
  });
  $("show-scores").addEventListener("click", () => openScores());
  $("show-played").addEventListener("click", openPlayed);
  $("played-close").addEventListener("click", () => closeDialog("played-dialog"));
  $("auto-play-one").addEventListener("change", (event) => {
    app.autoWanted = event.target.checked;
    if (send("auto", { play_one: app.autoWanted }) === null) app.autoWanted = null;
    if (app.state) renderTable();
  });
  $("type-card-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const input = $("type-card");
    const code = parseCard(input.value);
    if (!code) {
      flash(`"${input.value}" is not a card: type a rank and a suit, like qs or 10h.`, "error");
      return;
    }
    input.value = "";
    actOnTyped(code);
  });
  $("scores-close").addEventListener("click", () => closeDialog("scores-dialog"));
  $("play-again").addEventListener("click", () => {
    closeDialog("scores-dialog");
    send("start");
  });
  $("back-lobby").addEventListener("click", goToLobby);
  $("leave-table").addEventListener("click", askToLeave);
  $("leave-stay").addEventListener("click", () => closeDialog("leave-dialog"));
  $("leave-confirm").addEventListener("click", leaveTable);
  $("chat-form").addEventListener("submit", sendChat);
  $("chat").addEventListener("toggle", () => {
    const open = $("chat").open;
    storage.set("openhearts.chat", open ? "open" : "closed");
    if (open) {
      app.chatUnread = 0;
      renderUnread();
      const log = $("chat-log");
      log.scrollTop = log.scrollHeight;
    }
  });
  // The game waits for the shooter's choice: Escape must not leave it unmade.
  $("moon-dialog").addEventListener("cancel", (event) => event.preventDefault());
  $("moon-others").addEventListener("click", () => {
    closeDialog("moon-dialog");
    send("moon", { others_add: true });
  });
  $("moon-me").addEventListener("click", () => {
    closeDialog("moon-dialog");
    send("moon", { others_add: false });
  });
  document.addEventListener("keydown", onKeyDown);
  let resizeTimer = null;
  window.addEventListener("resize", () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => { if (app.state) renderTable(); }, 80);
  });
  window.addEventListener("popstate", route);
  // Back online or back to the tab: reconnect now rather than at the next retry.
  const reconnectNow = () => {
    if (app.tableId && !app.wsOpen && app.reconnectTimer && !document.hidden) {
      clearTimeout(app.reconnectTimer);
      app.reconnectTimer = null;
      connect();
    }
  };
  window.addEventListener("online", reconnectNow);
  document.addEventListener("visibilitychange", reconnectNow);
  route();
}

function route() {
  const tableId = tableIdFromPath();
  if (tableId) openTable(tableId).catch(() => {});
  else {
    closeSocket();
    showLobby();
  }
}

// Tests and the screenshot script read this; it exposes nothing the page does not show.
window.openhearts = {
  get state() { return app.state; },
  get table() { return app.table; },
  get seat() { return mySeat(); },
};

init();
