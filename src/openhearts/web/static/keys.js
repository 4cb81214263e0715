// The keyboard.  The commands' keys come from the shared key map of every face
// (GET /api/keys, made from openhearts.session.keys): this module only says what each
// command does on the page.  The page's own keys move in the hand (arrows, Home, End;
// Enter or Space plays) and play a court card or ace by rank then suit (Q then S).

import { actOnTyped, clearChoice, confirmPass } from "./actions.js";
import { announce } from "./announce.js";
import { api } from "./api.js";
import { cardName } from "./cards.js";
import { openDialog } from "./dialogs.js";
import { $, h } from "./dom.js";
import { focusCard } from "./hand.js";
import { requestHint, requestPlayForMe, requestUndo } from "./hints.js";
import { openPlayed } from "./memory.js";
import { askNewGame } from "./newgame.js";
import { openOptions } from "./options.js";
import { openReview } from "./review.js";
import { openScores } from "./scores.js";
import {
  handSentence, oneCardSentence, scoresAnnouncement, tableSentence, turnSentence,
} from "./sentences.js";
import { openStats } from "./stats.js";
import { app, mySeat } from "./store.js";
import { openWon } from "./won.js";

const RANK_KEYS = { j: "J", q: "Q", k: "K", a: "A" };
const SUIT_KEYS = { c: "C", d: "D", s: "S", h: "H" };

/** What each command of the key map does here; `n` is the card number of 1-6. */
export const COMMANDS = {
  hint: requestHint,
  undo: requestUndo,
  play_for_me: requestPlayForMe,
  last_trick: openReview,
  won: openWon,
  memory: openPlayed,
  sheet: () => openScores(),
  read_table: () => announce(tableSentence()),
  read_card: (n) => announce(oneCardSentence(n)),
  read_scores: () => announce(scoresAnnouncement()),
  read_turn: () => announce(turnSentence()),
  read_hand: () => announce(handSentence()),
  pass_cards: confirmPass,
  stats: openStats,
  options: openOptions,
  new_game: askNewGame,
  help: openHelp,
  type_card: () => $("type-card").focus(),
  clear: clearChoice,
};

/** The Keys dialog, ending with the rules of the table's game (the plain game's
 * `rules`, which has no key): a game joined by a link, or resumed, may be of any. */
export function openHelp() {
  const described = (app.table && app.table.describe) || [];
  $("help-rules").replaceChildren(...described.map((line) => h("li", { text: line })));
  $("help-rules-part").hidden = !described.length;
  $("help-title").textContent = described.length ? "Keys and rules" : "Keys";
  openDialog("help-dialog");
}

/** The commands that work while the moon choice is open. */
const MOON_COMMANDS = ["hint", "play_for_me", "undo"];

/** Commands of the key map that have no place on the web page: typed commands of the
 * plain game, with no key (the server keeps every game, so there is nothing to save;
 * every trick of the game is under L). */
export const NOT_ON_THE_WEB = ["rules", "save", "quit", "tricks"];

/** Key (lower case) to [command, card number]; empty until the map is loaded. */
const keyMap = new Map();
/** The key map's loading, shared by every caller (two at once listed the keys twice);
 * forgotten when it fails, so that the next key tries again. */
let loading = null;

/** Load the key map once, and list its keys in the Keys dialog. */
export function loadKeys() {
  if (!loading) {
    loading = fillKeyMap().catch((error) => {
      loading = null;
      throw error;
    });
  }
  return loading;
}

async function fillKeyMap() {
  const answer = await api("GET", "/api/keys");
  const rows = [];
  for (const entry of (answer && answer.keys) || []) {
    if (!(entry.command in COMMANDS) || !entry.keys.length) continue;
    for (const key of entry.keys) {
      const number = entry.command === "read_card" ? Number(key) : null;
      keyMap.set(key.toLowerCase(), [entry.command, number]);
    }
    const shown = entry.keys.length > 2
      ? [entry.keys[0], "–", entry.keys[entry.keys.length - 1]] : entry.keys;
    rows.push(h("dt", {}, shown.map((key) => (key === "–" ? key : h("kbd", { text: key })))));
    rows.push(h("dd", { "data-command": entry.command, text: entry.description }));
  }
  $("help-keys").append(...rows);
}

export function onKeyDown(event) {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  const tag = target && target.tagName;
  if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
  const open = [...document.querySelectorAll("dialog[open]")];
  if ($("table-view").hidden || !app.state) return;
  const key = event.key;
  const lower = key.toLowerCase();
  if (open.length) {
    // The moon choice keeps the keys that help make it: hint, for me, undo.
    const [command] = keyMap.get(lower) || [];
    if (open.length === 1 && open[0].id === "moon-dialog" && MOON_COMMANDS.includes(command)) {
      event.preventDefault();
      COMMANDS[command]();
    }
    return;
  }

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
    } else if (mySeat() === null) {
      // The arrows move in the hand: someone watching has none, and heard nothing.
      event.preventDefault();
      announce("You are watching: you hold no cards.");
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
  const typed = app.typed;
  app.typed = "";
  if (lower in RANK_KEYS) {
    event.preventDefault();
    if (mySeat() === null) {
      // Not "now the suit", then nothing: someone watching has no card to play.
      announce(`You are watching: ${PLAYERS_ONLY.type_card}.`);
      return;
    }
    app.typed = RANK_KEYS[lower];
    announce(`${cardName(`${RANK_KEYS[lower]}C`).split(" of ")[0]}: now the suit, C, D, S or H.`);
    return;
  }
  if (!keyMap.size) {
    // A key pressed while the page was still loading its keys was lost: it is carried
    // out when they come.
    loadKeys().then(() => runCommandKey(lower, typed), (error) => announce(error.message));
    return;
  }
  if (runCommandKey(lower, typed)) event.preventDefault();
}

/** Carry out the key map's command for key `lower` (`typed`: a rank typed before it);
 * false when the key has none. */
function runCommandKey(lower, typed) {
  const found = keyMap.get(lower);
  if (!found) return false;
  const [command, number] = found;
  // Escape after a rank only forgets the rank.
  if (command === "clear" && typed) {
    announce("No card typed.");
    return true;
  }
  // A spectator's key for a player's action was silent: said, as R and N say it.
  if (mySeat() === null && PLAYERS_ONLY[command]) {
    announce(`You are watching: ${PLAYERS_ONLY[command]}.`);
    return true;
  }
  COMMANDS[command](number);
  return true;
}

/** What the commands only a player has would do, for a spectator's answer. */
const PLAYERS_ONLY = {
  hint: "hints are for the players",
  undo: "only a player can take a move back",
  play_for_me: "the computer plays only for a player",
  pass_cards: "only the players pass cards",
  type_card: "only a player plays cards",
};
