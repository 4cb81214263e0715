// The score table: every deal, the totals, the winner.

import { announce } from "./announce.js";
import { openDialog } from "./dialogs.js";
import { $, h } from "./dom.js";
import { app, mySeat, nameOf, whoOf } from "./store.js";
import { listWords } from "./words.js";

export function openScores({ deal = null, final = false } = {}) {
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
  const next = renderScoreActions(over);
  openDialog("scores-dialog");
  const said = `${$("scores-title").textContent}. ${summary.textContent} ${scoresSentence()}`;
  announce(next ? `${said} ${next}` : said, { queue: true });
  (over ? (app.host ? $("play-again") : $("back-lobby")) : $("scores-close")).focus();
}

/**
 * The score table's buttons, and the line under it: at the end only the host has
 * "Play again", and the others are told another game may follow.  Shown again when the
 * table passes to this page's player while the final scores are open.  The line, or "".
 */
export function renderScoreActions(over = app.state?.phase === "game_over") {
  const isHost = app.host;
  $("scores-close").hidden = over;
  $("play-again").hidden = !over || !isHost;
  $("back-lobby").hidden = !over;
  const next = $("scores-next");
  next.textContent = over && !isHost
    ? "The host can start another game at this table: stay here to "
      + (mySeat() === null ? "watch it." : "play it in the same seat.")
    : "";
  next.hidden = !next.textContent;
  return next.textContent;
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
