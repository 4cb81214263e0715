// The lobby: play now, a new table, your tables, the tables waiting for players.

import { toast } from "./announce.js";
import { api } from "./api.js";
import { cardSvg, parseCards } from "./cards.js";
import { closeSocket, openTable } from "./connection.js";
import { $, h, hostKey, seatKey, show, storage } from "./dom.js";
import { app } from "./store.js";
import { counted, listWords, plural } from "./words.js";

export async function loadConfig() {
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

const levelLabel = (level) => level.charAt(0).toUpperCase() + level.slice(1);

/** The lobby's lists of bot levels, each with a note under it (`${id}-note`). */
export const LEVEL_SELECTS = ["play-now-level", "opt-level"];

/** Under a level list, what the chosen level does (the server's words, as every face has). */
export function updateLevelNote(select) {
  const notes = (app.config && app.config.level_notes) || {};
  const note = $(`${select.id}-note`);
  note.textContent = notes[select.value] ? `${levelLabel(select.value)}: ${notes[select.value]}.` : "";
}

function drawHeroFan() {
  const fan = $("hero-fan");
  if (fan.childElementCount) return;
  ["JC", "KD", "QS", "AH"].forEach((code, i) => {
    const svg = cardSvg(code);
    svg.style.transform = `rotate(${(i - 1.5) * 14}deg)`;
    fan.appendChild(svg);
  });
}

export async function showLobby() {
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
  for (const id of LEVEL_SELECTS) {
    fillSelect($(id), levels, chosen, levelLabel);
    updateLevelNote($(id));
  }
  const presets = config.presets || [];
  fillSelect(
    $("opt-preset"), presets.map((p) => p.name), config.default_preset || "standard",
    (name) => {
      const preset = presets.find((p) => p.name === name);
      return preset && preset.description ? `${name}: ${preset.description}` : name;
    },
  );
  $("opt-end-score").value = String((config.default_options || {}).end_score ?? 100);
  describePlayNow(config);
  // The server's number of players too (`hearts serve --players 6`), as "Play now" has it.
  $("opt-players").value = String(playNowPlayers(config));
  updatePlayerChoices();
  // Not before: a form sent while the lists were still empty named no level or preset,
  // and the server refused it with words about fields the person never saw empty.
  $("play-now").disabled = false;
  $("create-table").disabled = false;
  loadMyTables();
  loadOpenTables();
  watchOpenTables();
}

/** The number of players of a table that asks for none: the server's, else its preset's. */
function playNowPlayers(config) {
  const preset = (config.presets || []).find((p) => p.name === config.default_preset);
  return config.default_players ?? (preset && preset.rules && preset.rules.players) ?? 4;
}

/** What "Play now" starts: the server's own rules (`hearts serve --preset`, `--players`,
 * `-o`), which the panel said were always "three computer players, standard rules". */
function describePlayNow(config) {
  const name = config.default_preset || "standard";
  const preset = (config.presets || []).find((p) => p.name === name);
  const players = playNowPlayers(config);
  $("play-now-rules").textContent =
    `You and ${counted(players - 1, "computer player")}, ${name} rules.`;
  const served = Object.keys(config.default_options || {}).length > 0;
  const lines = (preset && preset.describe_by_players && preset.describe_by_players[players]) || [];
  const unusual = name !== "standard" || players !== 4 || served;
  $("play-now-describe").textContent = unusual ? lines.join(" · ") : "";
  $("play-now-describe").hidden = !unusual || lines.length === 0;
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
      if (error.status === 404) {
        storage.remove(seatKey(id));
        storage.remove(hostKey(id));
      }
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

/** How often the lobby reads the tables waiting for players again (ms). */
const OPEN_TABLES_EVERY = 15000;
let openTablesTimer = null;

/** Keep the waiting tables fresh while the lobby is in sight. */
function watchOpenTables() {
  if (openTablesTimer !== null) return;
  openTablesTimer = setInterval(() => {
    if (document.body.dataset.view !== "lobby" || document.hidden) return;
    // Rebuilding the list would take the focus from a Join link being read.
    if ($("open-table-list").contains(document.activeElement)) return;
    loadOpenTables();
  }, OPEN_TABLES_EVERY);
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
  // Up to ten tables with a free seat (the full ones are skipped before counting).
  const open = tables.filter((table) => table.seats.some((seat) => seat.kind === "empty"));
  for (const table of open.slice(0, 10)) {
    const host = table.seats.find((seat) => seat.host);
    const free = table.seats.filter((seat) => seat.kind === "empty").length;
    const who = host && host.name ? `${host.name}'s table` : "A table";
    list.appendChild(h("li", {}, [
      h("span", { class: "who", text: who }),
      h("span", { class: "muted", text: `${table.preset}, ${plural(free, "free seat")}` }),
      h("a", { href: table.url, text: "Join", "aria-label": `Join ${who}` }),
    ]));
  }
  $("open-tables").hidden = list.childElementCount === 0;
}

function chosenPreset() {
  const presets = (app.config && app.config.presets) || [];
  return presets.find((p) => p.name === $("opt-preset").value);
}

/** The preset's rules for the number of players chosen (five players deal ten cards
 * each, remove cards and lead another club). */
export function updatePresetDescription() {
  const preset = chosenPreset();
  const byPlayers = (preset && preset.describe_by_players) || {};
  const lines = byPlayers[$("opt-players").value] || (preset && preset.describe) || [];
  $("preset-describe").textContent = lines.join(" · ");
}

export function updatePlayerChoices() {
  const config = app.config;
  if (!config) return;
  const preset = chosenPreset();
  const allowed = preset && preset.players ? preset.players.map(String) : ["3", "4", "5", "6"];
  const select = $("opt-players");
  for (const option of select.options) option.disabled = !allowed.includes(option.value);
  if (!allowed.includes(select.value)) select.value = allowed.includes("4") ? "4" : allowed[0];
  updatePresetDescription();
  // The boxes start as the preset has them, and are sent as they are left: a rule the
  // preset switches on can be switched off.  The server's own preset comes with the
  // options its operator gave it (`hearts serve -o`), as "Play now" has them: the form
  // sent the preset's alone.
  const served = preset && preset.name === config.default_preset
    ? config.default_options || {} : {};
  if (preset && preset.rules) {
    $("opt-sun").checked = Boolean(served.sun ?? preset.rules.sun);
    $("opt-jack").checked = Boolean(served.jack_of_diamonds ?? preset.rules.jack_of_diamonds);
  }
  for (const [id, key] of SERVED_FIELDS) {
    const value = served[key];
    $(id).value = value === undefined || value === null ? ""
      : Array.isArray(value) ? value.join(" ") : String(value);
  }
}

/** The form's fields for rules options beyond the preset's ("" keeps the preset's). */
const SERVED_FIELDS = [
  ["opt-first-trick", "first_trick"], ["opt-hearts-break", "hearts_break"],
  ["opt-moon", "moon"], ["opt-seating", "seating"], ["opt-direction", "direction"],
  ["opt-cards-passed", "cards_passed"], ["opt-pass-cycle", "pass_cycle"],
  ["opt-removed", "removed"], ["opt-first-lead", "first_lead"],
  ["opt-first-dealer", "first_dealer"],
];

function playerName() {
  const name = $("player-name").value.trim();
  storage.set("openhearts.name", name);
  return name;
}

/** The name typed in the lobby is kept as soon as it is typed: a Join link next to it
 * takes the seat under that name instead of asking for it again. */
export function keepPlayerName() {
  playerName();
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

export function rememberSeat(answer) {
  storage.set(seatKey(answer.table_id), answer.token);
  if (answer.player_token) storage.set("openhearts.player", answer.player_token);
}

export async function playNow(event) {
  event.preventDefault();
  const button = $("play-now");
  button.disabled = true;
  try {
    const answer = await api("POST", "/api/play-now", commonBody($("play-now-level").value));
    rememberSeat(answer);
    goToTable(answer.table_id, answer.url);
  } catch (error) {
    toast(error.message);
  } finally {
    button.disabled = false;
  }
}

/**
 * A refusal of the server in the form's words: "Options.pass_cycle.1: …" (or
 * "Pass_cycle: …") names the field by its label, "Pass cycle: …".
 */
function inFormWords(message) {
  const match = /^(?:options\.)?([a-z_]+)(?:\.\d+)?:\s*/i.exec(message || "");
  const field = match && document.querySelector(
    `#new-table-form [name="${match[1].toLowerCase()}"]`);
  const label = field && field.closest("label");
  const words = label && label.firstChild && label.firstChild.textContent.trim();
  return words ? `${words}: ${message.slice(match[0].length)}` : message;
}

export async function createTable(event) {
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
  options.sun = $("opt-sun").checked;
  options.jack_of_diamonds = $("opt-jack").checked;
  if ($("opt-direction").value) options.direction = $("opt-direction").value;
  const passed = $("opt-cards-passed").value.trim();
  if (passed) {
    const count = Number(passed);
    if (!Number.isInteger(count) || count < 0 || count > 13) {
      errorBox.textContent = "Cards passed: a whole number from 0 to 13.";
      $("opt-cards-passed").focus();
      return;
    }
    options.cards_passed = count;
  }
  // The seat that deals first, which every other face sets (`-o first_dealer=2`): a
  // server's own was dropped from the tables made here.
  const dealer = $("opt-first-dealer").value.trim();
  if (dealer) {
    const seat = Number(dealer);
    if (!Number.isInteger(seat) || seat < 0 || seat >= body.players) {
      errorBox.textContent = `First dealer: a seat from 0 to ${body.players - 1}.`;
      $("opt-first-dealer").focus();
      return;
    }
    options.first_dealer = seat;
  }
  const cycle = $("opt-pass-cycle").value.trim().toLowerCase().split(/[\s,]+/).filter(Boolean);
  if (cycle.length) options.pass_cycle = cycle;
  // Cards as the other faces take them ("2c", "10h", "Q♠"), sent as the server names them.
  for (const [id, key, label] of [["opt-removed", "removed", "Cards removed"],
    ["opt-first-lead", "first_lead", "First lead"]]) {
    const text = $(id).value.trim();
    if (!text) continue;
    const cards = parseCards(text);
    if (!cards || (key === "first_lead" && cards.length !== 1)) {
      errorBox.textContent = `${label}: ${key === "first_lead" ? "one card" : "cards"}`
        + " like 2C or 10H.";
      $(id).focus();
      return;
    }
    options[key] = key === "first_lead" ? cards[0] : cards;
  }
  body.options = options;
  // Private unless the host ticks the box: listed tables show under "Tables waiting for
  // players" in everyone's lobby.
  body.listed = $("opt-listed").checked;
  const button = $("create-table");
  button.disabled = true;
  try {
    const answer = await api("POST", "/api/tables", body);
    rememberSeat(answer);
    goToTable(answer.table_id, answer.url);
  } catch (error) {
    errorBox.textContent = inFormWords(error.message);
  } finally {
    button.disabled = false;
  }
}

function goToTable(tableId, url) {
  history.pushState({}, "", url || `/t/${tableId}`);
  openTable(tableId);
  // The form's button is gone from sight: the focus goes to the new view's heading, so
  // that a screen reader says where the player is.
  $("waiting-title").focus();
}

/** Back to the lobby from a table: the connection closes; seat tokens are kept. */
export function goToLobby() {
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
