// The Options dialog (O, or Options in the top bar): the page's animation speed, kept by
// the browser, and "Auto play one", kept by the server for the player's seat.  Choices
// take effect at once.

import { announce } from "./announce.js";
import { send } from "./connection.js";
import { openDialog } from "./dialogs.js";
import { $, h } from "./dom.js";
import { SPEEDS, setSpeed, speedName } from "./prefs.js";
import { app, mySeat } from "./store.js";
import { renderTable } from "./table.js";

/** Build the speed choices once, from the speeds the page knows. */
function renderSpeeds() {
  const box = $("speed-choices");
  if (box.childElementCount) return;
  for (const [name, { label }] of Object.entries(SPEEDS)) {
    box.appendChild(h("label", { class: "check" }, [
      h("input", {
        type: "radio", name: "speed", value: name, id: `speed-${name}`,
        onchange: () => {
          setSpeed(name);
          announce(`Animation speed: ${label}.`);
        },
      }),
      ` ${label}`,
    ]));
  }
}

/** Show the current choices: the stored speed, and "Auto play one" when seated. */
export function renderOptions() {
  renderSpeeds();
  const checked = $(`speed-${speedName()}`);
  if (checked) checked.checked = true;
  const seated = Boolean(app.state) && mySeat() !== null && !$("table-view").hidden;
  $("options-seat").hidden = !seated;
  if (seated) $("auto-play-one").checked = app.autoWanted ?? app.state.auto_play_one !== false;
}

export function openOptions() {
  renderOptions();
  openDialog("options-dialog");
  $(`speed-${speedName()}`).focus();
}

/**
 * A bot keeps the seat (the clock ran out twice, or the player was gone): any action
 * gives it back, and the `auto` message, repeating the setting as it is, is the one that
 * changes nothing else.
 */
export function takeSeatBack() {
  if (!app.state || !app.state.bot_playing) return;
  const playOne = app.autoWanted ?? app.state.auto_play_one !== false;
  send("auto", { play_one: playOne });
}

/** "Auto play one" switched: the server's setting for this seat (the `auto` message). */
export function onAutoPlayOne(event) {
  app.autoWanted = event.target.checked;
  if (send("auto", { play_one: app.autoWanted }) === null) app.autoWanted = null;
  if (app.state) renderTable();
}
