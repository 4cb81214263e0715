// Statistics: what the server keeps for this browser's player token (games, wins,
// deals, final totals, moons and suns), in a dialog opened from the top bar or with I.

import { announce } from "./announce.js";
import { api } from "./api.js";
import { openDialog } from "./dialogs.js";
import { $, h, storage } from "./dom.js";
import { app } from "./store.js";
import { plural } from "./words.js";

/** The rows of the statistics, as [label, value] pairs. */
export function statsRows(stats) {
  const won = stats.games ? ` (${Math.round((100 * stats.wins) / stats.games)}%)` : "";
  const average = stats.average ?? "none yet";
  const best = stats.best ?? "none yet";
  return [
    ["Games played", String(stats.games)],
    ["Games won", `${stats.wins}${won}`],
    ["Deals played", String(stats.deals)],
    ["Average final score", String(average)],
    ["Best (lowest) final score", String(best)],
    ["Moons shot", String(stats.moons)],
    // As the terminal game's: a sun is rare, and said only once there is one.
    ...(stats.suns ? [["Suns shot", String(stats.suns)]] : []),
  ];
}

function render(note, rows) {
  $("stats-note").textContent = note;
  $("stats-list").replaceChildren(...rows.flatMap(([label, value]) => [
    h("dt", { text: label }), h("dd", { text: value }),
  ]));
}

export async function openStats() {
  render("Loading…", []);
  openDialog("stats-dialog");
  $("stats-close").focus();
  const token = storage.get("openhearts.player");
  let stats = {
    games: 0, wins: 0, deals: 0, points: 0, moons: 0, suns: 0, best: null, average: null,
  };
  if (token) {
    try {
      stats = await api("GET", "/api/stats", undefined, { Authorization: `Bearer ${token}` });
    } catch (error) {
      render(`The statistics cannot be shown: ${error.message}`, []);
      announce($("stats-note").textContent);
      return;
    }
  }
  const who = stats.name ? `${stats.name}: ` : "";
  let note = stats.games
    ? `${who}${plural(stats.games, "game")} finished in this browser.`
    : "No finished game yet: the statistics start with your first game played to the end.";
  const rows = statsRows(stats);
  const mine = app.table && app.seat !== null ? (app.table.seats || [])[app.seat] : null;
  if (app.table && app.table.rated === false) {
    note += " The game at this table does not count: it used a hint or an undo.";
  } else if (mine && mine.helped) {
    note += " The game at this table does not count for you: the computer moved for you.";
  }
  render(note, rows);
  announce(`${note} ${rows.map(([label, value]) => `${label}: ${value}`).join(". ")}.`);
}
