// OpenHearts web page: lobby, waiting room and card table, talking to the server over
// the protocol in docs/web-protocol.md.  Plain modules, no build step: this module wires
// the page's buttons and keys to the modules that do the work (see docs/web-page.md).
//
// Every name and every message from the server is put on the page with textContent:
// the only markup built here comes from constants.

import { actOnTyped, confirmPass } from "./actions.js";
import { announce, flash, toast } from "./announce.js";
import { installSprite, parseCards } from "./cards.js";
import { renderUnread, sendChat } from "./chat.js";
import { connect, joinWithName, route, send } from "./connection.js";
import { closeDialog } from "./dialogs.js";
import { $, storage } from "./dom.js";
import { focusAfterDialog, landFocus } from "./game.js";
import { focusCard } from "./hand.js";
import { requestHint, requestPlayForMe, requestUndo } from "./hints.js";
import { loadKeys, onKeyDown, openHelp } from "./keys.js";
import { askToLeave, giveUpSeat, leaveTable } from "./leave.js";
import {
  createTable, goToLobby, keepPlayerName, LEVEL_SELECTS, playNow, updateLevelNote,
  updatePlayerChoices, updatePresetDescription,
} from "./lobby.js";
import { openPlayed } from "./memory.js";
import { askNewGame, playAgain, startNewGame } from "./newgame.js";
import { onAutoPlayOne, openOptions, takeSeatBack } from "./options.js";
import { openReview, stepReview } from "./review.js";
import { openScores } from "./scores.js";
import { openStats } from "./stats.js";
import { app, gameInProgress, mustPass, mySeat } from "./store.js";
import { renderTable } from "./table.js";
import { onListChange } from "./waiting.js";
import { openWon } from "./won.js";

function init() {
  installSprite();
  for (const dialog of document.querySelectorAll("dialog")) {
    // After the browser has given the focus back to what had it before the dialog.
    dialog.addEventListener("close", () => setTimeout(focusAfterDialog, 0));
  }
  $("play-now-form").addEventListener("submit", playNow);
  $("new-table-form").addEventListener("submit", createTable);
  $("player-name").addEventListener("change", keepPlayerName);
  $("opt-preset").addEventListener("change", updatePlayerChoices);
  $("opt-players").addEventListener("change", updatePresetDescription);
  for (const id of LEVEL_SELECTS) {
    $(id).addEventListener("change", (event) => updateLevelNote(event.target));
  }
  // With a seat in a game under way, the lobby is leaving the table: asked, and said,
  // as Leave table does (a bot took the seat without a word).
  $("nav-lobby").addEventListener("click", () => {
    if (mySeat() !== null && gameInProgress()) askToLeave();
    else goToLobby();
  });
  $("nav-help").addEventListener("click", openHelp);
  $("nav-stats").addEventListener("click", openStats);
  $("nav-options").addEventListener("click", openOptions);
  $("options-close").addEventListener("click", () => closeDialog("options-dialog"));
  $("new-game-confirm").addEventListener("click", startNewGame);
  $("new-game-cancel").addEventListener("click", () => closeDialog("new-game-dialog"));
  $("stats-close").addEventListener("click", () => closeDialog("stats-dialog"));
  $("join-form").addEventListener("submit", joinWithName);
  $("help-close").addEventListener("click", () => closeDialog("help-dialog"));
  $("copy-link").addEventListener("click", async () => {
    const input = $("share-link");
    try {
      await navigator.clipboard.writeText(input.value);
      toast("Link copied.", "info");
    } catch {
      input.select();
      announce("Select the link and copy it.");
    }
  });
  $("fill-bots").addEventListener("click", () => send("fill"));
  $("start-game").addEventListener("click", () => send("start"));
  $("list-table").addEventListener("change", onListChange);
  $("pass-confirm").addEventListener("click", confirmPass);
  $("hint").addEventListener("click", requestHint);
  $("play-for-me").addEventListener("click", requestPlayForMe);
  $("undo").addEventListener("click", requestUndo);
  $("show-scores").addEventListener("click", () => openScores());
  $("show-played").addEventListener("click", openPlayed);
  $("played-close").addEventListener("click", () => closeDialog("played-dialog"));
  $("show-review").addEventListener("click", openReview);
  // Touch screens have no W or N key: the won cards and a new game were out of reach.
  $("show-won").addEventListener("click", openWon);
  $("new-game").addEventListener("click", askNewGame);
  $("review-previous").addEventListener("click", () => stepReview(-1));
  $("review-next").addEventListener("click", () => stepReview(1));
  $("review-close").addEventListener("click", () => closeDialog("review-dialog"));
  $("won-close").addEventListener("click", () => closeDialog("won-dialog"));
  $("auto-play-one").addEventListener("change", onAutoPlayOne);
  $("type-card").addEventListener("keydown", (event) => {
    // Escape closes the card entry (keys.md): back to the hand, the box emptied.
    if (event.key !== "Escape") return;
    event.preventDefault();
    event.target.value = "";
    event.target.blur();
    landFocus();
    const active = document.activeElement;
    if (!active || active === document.body) focusCard(app.focusCard);
  });
  $("type-card-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const input = $("type-card");
    const codes = parseCards(input.value);
    if (!codes) {
      flash(`"${input.value}" is not a card: type a rank and a suit, like qs or 10h.`, "error");
      return;
    }
    if (codes.length > 1 && !mustPass()) {
      flash("Type one card to play (several only when passing).", "error");
      return;
    }
    input.value = "";
    // Several at once choose cards to pass: those already chosen stay chosen.
    for (const code of codes) {
      if (codes.length === 1 || !app.selected.includes(code)) actOnTyped(code);
    }
  });
  $("scores-close").addEventListener("click", () => closeDialog("scores-dialog"));
  $("play-again").addEventListener("click", playAgain);
  $("back-lobby").addEventListener("click", goToLobby);
  $("leave-table").addEventListener("click", askToLeave);
  $("leave-stay").addEventListener("click", () => closeDialog("leave-dialog"));
  $("leave-confirm").addEventListener("click", leaveTable);
  $("give-up-seat").addEventListener("click", giveUpSeat);
  $("take-back-seat").addEventListener("click", takeSeatBack);
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
  $("moon-hint-button").addEventListener("click", requestHint);
  $("moon-for-me").addEventListener("click", requestPlayForMe);
  $("moon-undo").addEventListener("click", requestUndo);
  document.addEventListener("keydown", onKeyDown);
  loadKeys().catch(() => {});
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

// Tests and the screenshot script read this; it exposes nothing the page does not show.
window.openhearts = {
  get state() { return app.state; },
  get table() { return app.table; },
  get seat() { return mySeat(); },
  /** Whether a message of the page's own still awaits its answer (or waits to go). */
  get busy() { return app.pending.size > 0 || app.undoQueued; },
};

init();
