// Leaving the table: a bot takes the seat at once, and the seat token stays in the
// browser, so the table's link brings the player back to the same seat.

import { announce } from "./announce.js";
import { sendRaw } from "./connection.js";
import { closeDialog, openDialog } from "./dialogs.js";
import { $, storage } from "./dom.js";
import { goToLobby } from "./lobby.js";
import { app, gameInProgress, mySeat } from "./store.js";
import { forgetSeat, setTable } from "./waiting.js";

export function askToLeave() {
  if (mySeat() === null || app.leaving) return;
  if (gameInProgress()) {
    openDialog("leave-dialog");
    $("leave-stay").focus();
  } else leaveTable();
}

export function leaveTable() {
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

/**
 * A guest gives their seat up before the game starts: the seat is free again (for
 * them too) and this page watches the waiting room.
 */
export function giveUpSeat() {
  if (app.seat === null || app.host || app.leaving) return;
  if (!app.table || app.table.status !== "waiting") return;
  const id = app.nextId++;
  app.leaving = { url: app.table.url || `/t/${app.tableId}`, timer: null, seat: true };
  app.pending.set(id, "leave");
  if (!sendRaw({ type: "leave", id, seat_only: true })) {
    app.pending.delete(id);
    app.leaving = null;
    announce("Not connected: your seat is still yours. Try again in a moment.");
  }
}

function seatGivenUp() {
  forgetSeat();
  $("join-name").value = storage.get("openhearts.name") || "";
  setTable(app.table);
  announce("You gave up your seat: you are watching this table. "
    + "Type your name to take a free seat again.");
}

export function finishLeaving(acknowledged) {
  const leaving = app.leaving;
  if (!leaving) return;
  clearTimeout(leaving.timer);
  app.leaving = null;
  if (leaving.seat) {
    seatGivenUp();
    return;
  }
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
