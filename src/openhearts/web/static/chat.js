// Chat: the server relays the players' lines to everyone at the table (spectators
// read them).  Names and lines are other people's words: they reach the page only
// through textContent.

import { announce } from "./announce.js";
import { send } from "./connection.js";
import { $, h, storage } from "./dom.js";
import { loadConfig } from "./lobby.js";
import { app, mySeat, nameOf } from "./store.js";

const CHAT_KEPT = 200;

function chatLimit() {
  const limit = app.config && app.config.limits && app.config.limits.chat_chars;
  return Number.isInteger(limit) && limit > 0 ? limit : 200;
}

export function resetChat() {
  $("chat-log").replaceChildren();
  $("chat-error").hidden = true;
  app.chatSent = null;
  app.chatUnread = 0;
  renderUnread();
  $("chat").open = storage.get("openhearts.chat") === "open";
  loadConfig().then(() => { $("chat-input").maxLength = chatLimit(); }, () => {});
}

export function renderUnread() {
  const badge = $("chat-unread");
  badge.hidden = app.chatUnread === 0;
  badge.textContent = app.chatUnread ? ` (${app.chatUnread} new)` : "";
}

export function onChat(message) {
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

export function sendChat(event) {
  event.preventDefault();
  const input = $("chat-input");
  const text = input.value.trim();
  if (!text || mySeat() === null) return;
  $("chat-error").hidden = true;
  const id = send("chat", { text: text.slice(0, chatLimit()) });
  if (id !== null) app.chatSent = { id, text: input.value };
}

export function chatAccepted() {
  const input = $("chat-input");
  // Only what was sent is cleared: the player may have started the next line.
  if (input.value === app.chatSent.text) input.value = "";
  app.chatSent = null;
}

export function chatRefused(code, text) {
  app.chatSent = null;
  const box = $("chat-error");
  box.textContent = code === "not_seated"
    ? "Only the players at the table can chat." : `Not sent: ${text}`;
  box.hidden = false;
  announce(box.textContent, { queue: true });
}
