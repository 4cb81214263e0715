// The state of the page, and what follows from it: whose turn, what the player may do,
// names.  Everything else reads and changes the one `app` object here.

export const app = {
  config: null,
  tableId: null,
  token: null,
  ws: null,
  wsOpen: false,
  closing: false,
  reconnectDelay: 500,
  reconnectTimer: null,
  /** "Connection lost" was said since the socket last opened. */
  lostSaid: false,
  /** When the page last heard from the server (a silent socket is given up). */
  lastHeard: 0,
  pingTimer: null,
  joinTried: false,
  askName: false,
  role: null,
  seat: null,
  host: false,
  table: null,
  state: null,
  seq: -1,
  nextId: 1,
  pending: new Map(),
  /** An undo asked while the player's own choice was on its way (hints.js). */
  undoQueued: false,
  /** A turn or a pass came while a dialog was open: focus a usable card once it closes. */
  turnInDialog: false,
  /** The game ("table:number") whose loss of rating the page has already said. */
  unratedSaid: null,
  selected: [],
  focusCard: null,
  hintCard: null,
  // The id of the hint asked for by "For me": its answer is played, not shown.
  forMe: null,
  lastAction: 0,
  flash: null,
  busy: false,
  typed: "",
  dealInfo: new Map(),
  turnKey: null,
  wasPassing: false,
  leaving: null,
  notice: null,
  chatSent: null,
  chatUnread: 0,
  autoWanted: null,
  settledSaid: null,
  /** The cards of a trick said with the player's turn: {deal, trick, cards}. */
  heard: null,
};

export function seatInfo(seat) {
  return app.table && app.table.seats ? app.table.seats.find((s) => s.seat === seat) : null;
}

/** Whether every other seat is a computer player (hints and undo are for such games). */
export function againstBots() {
  const seats = (app.table && app.table.seats) || [];
  return seats.length > 0 && seats.every((s) => s.seat === mySeat() || s.kind === "bot");
}

export function mySeat() {
  return app.state && app.state.seat !== null && app.state.seat !== undefined
    ? app.state.seat : null;
}

export function isMyTurn() {
  const s = app.state;
  return Boolean(s && s.phase === "playing" && mySeat() !== null && s.to_move === mySeat());
}

/**
 * Whether the server plays this seat's card now ("Auto play one"): the only legal card,
 * or the lowest once the deal's points are settled.  The page then offers no card: one
 * sent as the server plays its own would be refused as out of turn.
 */
export function autoPlays() {
  const s = app.state;
  if (!isMyTurn() || s.bot_playing || s.auto_play_one === false) return false;
  return (s.legal || []).length === 1 || Boolean(s.settled);
}

/** Whether the player is to choose a card now (and may send one). */
export function mayPlay() {
  // While a change of "Auto play one" is on its way, the server may be about to play.
  return isMyTurn() && !autoPlays() && app.autoWanted === null;
}

/** Whether the rest of this deal's cards of ours are played for us. */
export function settledForMe() {
  const s = app.state;
  return Boolean(
    s && s.phase === "playing" && s.settled && mySeat() !== null && s.auto_play_one !== false
      && !s.bot_playing,
  );
}

export function mustPass() {
  const s = app.state;
  return Boolean(
    s && s.phase === "passing" && mySeat() !== null && !s.passed
      && (s.waiting_for || []).includes(mySeat()) && cardsToPass() > 0,
  );
}

export function cardsToPass() {
  const rules = app.table && app.table.rules;
  return rules && Number.isInteger(rules.cards_passed) ? rules.cards_passed : 3;
}

export function nameOf(seat) {
  const names = (app.state && app.state.names) || [];
  return names[seat] || `Seat ${seat + 1}`;
}

export function whoOf(seat) {
  return seat === mySeat() ? "you" : nameOf(seat);
}

export function gameInProgress() {
  const s = app.state;
  return Boolean(s && s.phase !== "game_over" && app.table && app.table.status === "playing");
}
