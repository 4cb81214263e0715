// Small helpers for the page: elements by id, building elements, the browser's
// storage, which section is shown.

export const $ = (id) => document.getElementById(id);

export const storage = {
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

export const seatKey = (tableId) => `openhearts.seat.${tableId}`;
/** Kept when the host removed this browser's player from a table (it may only watch). */
export const removedKey = (tableId) => `openhearts.removed.${tableId}`;
/** Set while this browser holds the host's seat of a table, to tell it if that passed on. */
export const hostKey = (tableId) => `openhearts.host.${tableId}`;

export function h(tag, props = {}, children = []) {
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

/** Which section of the page is shown: the lobby, the waiting room or the table. */
export function show(view) {
  $("lobby").hidden = view !== "lobby";
  $("waiting").hidden = view !== "waiting";
  $("table-view").hidden = view !== "table";
  document.body.dataset.view = view;
  // "Skip to your hand" led nowhere outside a game (the hand is hidden there).
  const skip = $("skip-link");
  const toHand = view === "table";
  skip.href = toHand ? "#hand" : "#main";
  skip.textContent = toHand ? "Skip to your hand" : "Skip to the main content";
}
