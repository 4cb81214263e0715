// Dialogs: opening and closing, and the moon shooter's choice.

import { announce } from "./announce.js";
import { $ } from "./dom.js";
import { app, whoOf } from "./store.js";

export function openDialog(id) {
  const dialog = $(id);
  if (!dialog.open) {
    if (typeof dialog.showModal === "function") dialog.showModal();
    else dialog.setAttribute("open", "");
  }
}

/**
 * Open a dialog that shows the table's facts and says them: `render` fills it, its
 * Close button (`<name>-close`) takes the focus, and `sentence()` goes to the live region.
 */
export function openAndSay(name, render, sentence) {
  render();
  openDialog(`${name}-dialog`);
  // Opened at its top: a dialog taller than a phone's screen opened scrolled down to its
  // Close button, its title and headings out of sight.
  $(`${name}-close`).focus({ preventScroll: true });
  $(`${name}-dialog`).scrollTop = 0;
  announce(sentence());
}

export function closeDialog(id) {
  const dialog = $(id);
  if (dialog.open) dialog.close();
}

export function openMoonDialog(moon) {
  const points = moon.points ?? 26;
  $("moon-text").textContent = `You took every point card. Either everyone else adds `
    + `${points}, or you subtract ${points} from your own score.`;
  $("moon-others").textContent = `Everyone else adds ${points}`;
  $("moon-me").textContent = `I subtract ${points}`;
  // The totals each choice makes, as the terminal game shows them (J♦ included).
  const totals = moon.totals;
  $("moon-totals").hidden = !totals;
  if (totals) {
    const listing = (values) => values.map((v, seat) => `${whoOf(seat)} ${v}`).join(", ");
    $("moon-totals").textContent = `If everyone else adds ${points}: `
      + `${listing(totals.others_add)}. If you subtract ${points}: `
      + `${listing(totals.shooter_subtracts)}.`;
  }
  // Against bots the shooter may ask for a hint, let the computer choose, or take back
  // the card that made the moon, as on the table (H, G, U).
  const s = app.state || {};
  $("moon-hint-button").hidden = !s.can_hint;
  $("moon-for-me").hidden = !s.can_hint;
  $("moon-undo").hidden = !s.can_undo;
  $("moon-help").hidden = !s.can_hint && !s.can_undo;
  if (!$("moon-dialog").open) {
    $("moon-hint").hidden = true;
    openDialog("moon-dialog");
    (moon.suggested_others_add === false ? $("moon-me") : $("moon-others")).focus();
    announce(`You shot the moon. ${$("moon-text").textContent}`, { queue: true });
  }
}
