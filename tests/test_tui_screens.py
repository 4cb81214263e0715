"""The terminal game at 80×24 and 120×40: every screen readable (text snapshots), and
the defects a new player met (options screen, typed passes, keys, quitting, the log,
the score sheet)."""

from __future__ import annotations

import asyncio
import dataclasses
import html
import re
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from textual.pilot import Pilot
from textual.widgets import Button, Footer, Input, RichLog, Select, Static
from textual.widgets._footer import FooterKey

from openhearts.record import save
from openhearts.session.saving import load_session
from openhearts.tui.app import HeartsApp
from openhearts.tui.options_screen import OptionsScreen
from openhearts.tui.screens import ChoiceScreen, InfoScreen
from openhearts.tui.storage import Settings, Storage
from openhearts.tui.widgets import SeatPanel, TrickView
from test_tui_app import (
    finished_record,
    human_move_by_keys,
    human_turn,
    make_app,
    settle,
    table,
)

SIZES = [(80, 24), (120, 40)]


def screen_text(app: HeartsApp, save_to: Path | None = None) -> str:
    """The screen as text, line by line, from Textual's own screenshot (SVG)."""
    svg = app.export_screenshot()
    if save_to is not None:
        save_to.write_text(svg, encoding="utf-8")
    parts = re.findall(r"<text[^>]*>(.*?)</text>", svg)
    return "\n".join(html.unescape(part).replace("\xa0", " ") for part in parts)


def on_table(app: HeartsApp) -> bool:
    screen: object = app.screen
    return screen is app.table


async def open_and_read(pilot: Pilot[int], app: HeartsApp, key: str, tmp: Path) -> str:
    await pilot.press(key)
    await settle(pilot)
    text = screen_text(app, tmp / f"{key}.svg")
    await pilot.press("escape")
    await settle(pilot)
    return text


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_screen_is_readable(tmp_path: Path, size: tuple[int, int]) -> None:
    async def run() -> None:
        app = make_app(tmp_path, seed=1, end_score=20, show_options=True)
        async with app.run_test(size=size) as pilot:
            await settle(pilot)
            assert isinstance(app.screen, OptionsScreen)
            text = screen_text(app, tmp_path / "options.svg")
            for phrase in ("Your name", "Rules preset", "standard", "Start game"):
                assert phrase in text, (phrase, text)
            # Every input of the form keeps room to type in (defect 1: 3 columns wide).
            for widget in app.screen.query("#options-form Input, #options-form Select"):
                assert widget.region.width >= 20, (widget.id, widget.region.width)
            await pilot.press("ctrl+s")
            await settle(pilot, lambda: human_turn(app))
            text = screen_text(app, tmp_path / "table.svg")
            assert "Pass three cards to the left" in text
            assert "West" in text and "North" in text and "East" in text
            for key, phrase in [
                ("question_mark", "Keys"),
                ("d", "Score sheet"),
                ("m", "Memory: deal 1"),
                ("w", "Cards won this deal"),
                ("i", "Your statistics"),
            ]:
                assert phrase in await open_and_read(pilot, app, key, tmp_path)
            await human_move_by_keys(pilot, app)
            for _ in range(30):
                await settle(pilot, lambda: human_turn(app) or not on_table(app))
                if table(app).session.view().tricks or not on_table(app):
                    break
                await human_move_by_keys(pilot, app)
            if on_table(app):
                assert "Trick" in await open_and_read(pilot, app, "l", tmp_path)
            # Play on to the score sheet after the first deal.
            for _ in range(60):
                await settle(pilot, lambda: human_turn(app) or isinstance(app.screen, InfoScreen))
                if isinstance(app.screen, InfoScreen):
                    break
                await human_move_by_keys(pilot, app)
            assert isinstance(app.screen, InfoScreen)
            text = screen_text(app, tmp_path / "after-deal.svg")
            assert "After deal 1" in text and "Next deal" in text
            # Defect 8: the last trick of the deal is not left behind the score sheet.
            picture = table(app).query_one(TrickView).picture
            assert picture is not None and not picture.plays

    asyncio.run(run())


def test_typed_passes_take_only_held_cards(tmp_path: Path) -> None:
    """Defect 5: "/3s" counted as chosen without being held, then failed in lower case."""

    async def run() -> None:
        app = make_app(tmp_path, seed=1)
        async with app.run_test(size=(100, 32)) as pilot:
            await settle(pilot, lambda: human_turn(app))
            screen = table(app)
            view = screen.session.view()
            stranger = screen.session.view(1).hand.cards()[0]
            await pilot.press("slash")
            entry = screen.query_one("#entry", Input)
            entry.value = str(stranger)
            await pilot.press("enter")
            assert screen.message == f"You do not hold the {stranger.pretty}."
            assert screen.message_is_error and not screen.chosen
            await pilot.press("slash")
            entry.value = "xx"
            await pilot.press("enter")
            assert screen.message.startswith("Cannot read 'xx' as a card")
            held = view.hand.cards()[:2]
            await pilot.press("slash")
            entry.value = " ".join(str(card) for card in held)
            await pilot.press("enter")
            assert set(screen.chosen) == set(held) and not screen.message_is_error
            await pilot.press("slash")
            entry.value = " ".join(str(card) for card in view.hand.cards()[-2:])
            await pilot.press("enter")
            assert screen.message == (
                "You have already chosen two cards: name one more to pass three, not two."
            )
            assert set(screen.chosen) == set(held)
            # With three chosen, one more typed is refused as Enter on a fourth card is.
            await pilot.press("slash")
            entry.value = str(view.hand.cards()[-3])
            await pilot.press("enter")
            assert len(screen.chosen) == 3
            await pilot.press("slash")
            entry.value = str(view.hand.cards()[-1])
            await pilot.press("enter")
            assert screen.message.startswith("You have already chosen three cards: press P")

    asyncio.run(run())


def test_uppercase_keys_work(tmp_path: Path) -> None:
    """Defect 5: C, S, T, R and H as the docs print them did nothing."""

    async def run() -> None:
        app = make_app(tmp_path, seed=1)
        async with app.run_test(size=(100, 32)) as pilot:
            await settle(pilot, lambda: human_turn(app))
            for key, start in [
                ("C", "No cards on the table."),
                ("S", "Scores: you 0"),
                ("T", "Your turn to pass"),
                ("R", "Your hand, 13 cards."),
            ]:
                await pilot.press(key)
                assert app.announcements[-1].startswith(start), (key, app.announcements[-1])
            await pilot.press("H")
            await settle(pilot, lambda: app.announcements[-1].startswith("Hint"))
            assert app.announcements[-1].startswith("Hint: pass the ")

    asyncio.run(run())


def test_quitting_says_where_the_game_is_saved(tmp_path: Path) -> None:
    """Defect 8: quitting printed no "saved, resume with ..." line."""

    async def run() -> str | None:
        app = make_app(tmp_path, seed=1)
        async with app.run_test(size=(100, 32)) as pilot:
            await settle(pilot, lambda: human_turn(app))
            await human_move_by_keys(pilot, app)
            await settle(pilot, lambda: human_turn(app))
            await pilot.press("ctrl+q")
        return app.farewell()

    farewell = asyncio.run(run())
    assert farewell is not None
    assert "The game is saved in " in farewell
    assert "resume it with: hearts play --resume " in farewell


def test_long_announcements_wrap_in_the_log(tmp_path: Path) -> None:
    """Defect 8: long announcement lines were cut at the screen edge."""

    async def run() -> None:
        app = make_app(tmp_path, seed=1)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, lambda: human_turn(app))
            log = table(app).query_one("#log", RichLog)
            before = len(log.lines)
            long = "A long announcement " + "that goes on " * 20 + "to its very end."
            app.announce(long)
            await pilot.pause()
            wrapped = [strip.text for strip in log.lines[before:]]
            assert len(wrapped) > 1
            assert " ".join(line.strip() for line in wrapped).endswith("to its very end.")
            # Each line fits the log: none runs under the scrollbar (min_width was 78).
            room = log.scrollable_content_region.width
            assert all(strip.cell_length <= room for strip in log.lines[before:]), room
            # PageUp shows it from its start; PageDown goes back to the end.
            top = log.scroll_y
            await pilot.press("pageup")
            assert log.scroll_y < top
            await pilot.press("pagedown")
            assert log.scroll_y == top

    asyncio.run(run())


def test_options_choices_are_kept(tmp_path: Path) -> None:
    async def run() -> None:
        app = make_app(tmp_path, show_options=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            players = app.screen.query_one("#opt-players", Select)
            players.value = 3
            await settle(pilot)
            await pilot.press("ctrl+s")
            await settle(pilot, lambda: app.table is not None)
            assert table(app).session.game.rules.players == 3
            assert not isinstance(app.screen, ChoiceScreen)

    asyncio.run(run())


def test_options_in_a_game_go_back_keeping_the_changes_for_the_next_game(
    tmp_path: Path,
) -> None:
    """In a game, O opens the options on Back: Enter (in a field too) returns to the game
    rather than ending it, and the rules changed there, players included, are the next
    game's.  A preset that does not allow the players chosen is refused with the reason."""

    async def run() -> None:
        app = make_app(tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, lambda: app.table is not None)
            game = table(app).session.game
            await pilot.press("o")
            await settle(pilot, lambda: isinstance(app.screen, OptionsScreen))
            options = app.screen
            assert isinstance(options, OptionsScreen)
            assert app.focused is options.query_one("#back")
            await pilot.pause()
            # The summary opens at its start, with the focused button in sight below it.
            assert options.query_one("#options-side-text").scroll_y == 0
            back = options.query_one("#back").region
            assert back.height and back.bottom <= 23, back
            options.query_one("#opt-players", Select).value = 5
            await settle(pilot)
            options.query_one("#opt-preset", Select).value = "source-000"
            await settle(pilot)
            assert "source-000 describes a game of 4 players only" in options.error
            await pilot.press("ctrl+s")
            assert isinstance(app.screen, OptionsScreen)  # refused, with the reason said
            options.query_one("#opt-preset", Select).value = "standard"
            await settle(pilot)
            assert options.error == ""
            options.query_one("#opt-end_score", Input).value = "0"
            await settle(pilot)
            assert options.error.startswith("end score: "), options.error  # the label's words
            options.query_one("#opt-end_score", Input).value = "100"
            await settle(pilot)
            options.query_one("#opt-name", Input).focus()
            await pilot.press("enter")
            await settle(pilot, lambda: app.screen is table(app))
            assert table(app).session.game is game  # the game goes on
            rules = app.settings.rules
            assert rules is not None and rules["players"] == 5
            assert app.settings.preset == "standard"

    asyncio.run(run())


def test_a_question_shows_every_button_whole(tmp_path: Path) -> None:
    """The New game? question has three buttons and a short text: the dialog is as wide
    as its buttons, so Cancel (focused by Escape's choice) is not cut to "C"."""

    async def run() -> None:
        app = make_app(tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, lambda: app.table is not None)
            await pilot.press("n")
            await settle(pilot, lambda: isinstance(app.screen, ChoiceScreen))
            dialog = app.screen.query_one(".dialog").region
            buttons = list(app.screen.query(Button))
            assert [str(b.label) for b in buttons] == ["New game", "Options first", "Cancel"]
            for button in buttons:
                inside = button.region.intersection(dialog)
                assert inside == button.region, (str(button.label), button.region, dialog)

    asyncio.run(run())


def test_a_dialog_footer_names_the_dialog_keys(tmp_path: Path) -> None:
    """Over a dialog the footer says what its keys do, not the table's (H, P...)."""

    async def run() -> None:
        app = make_app(tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, lambda: human_turn(app))
            await pilot.press("l")
            await settle(pilot, lambda: app.screen is not table(app))
            await pilot.pause()
            footer = app.screen.query_one(Footer)
            keys = [str(getattr(key, "description", "")) for key in footer.query("FooterKey")]
            assert keys == ["Close", "Previous deal", "Next deal"], keys
            await pilot.press("escape")
            await settle(pilot, lambda: app.screen is table(app))
            # A question names what Escape chooses there.
            await pilot.press("n")
            await settle(pilot, lambda: isinstance(app.screen, ChoiceScreen))
            await pilot.pause()
            footer = app.screen.query_one(Footer)
            keys = [str(getattr(key, "description", "")) for key in footer.query("FooterKey")]
            assert keys == ["Cancel"], keys

    asyncio.run(run())


def test_the_options_say_what_the_chosen_level_does(tmp_path: Path) -> None:
    async def run() -> None:
        app = make_app(tmp_path, level="hard:budget=30", show_options=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            note = app.screen.query_one("#opt-level-note", Static)
            assert str(note.render()) == ("searches the cards it cannot see; options: budget=30")
            app.screen.query_one("#opt-level", Select).value = "expert"
            await settle(pilot)
            assert "thinks longer" in str(note.render())
            screen = app.screen
            assert isinstance(screen, OptionsScreen)
            assert screen.read_settings(None).level == "expert"

    asyncio.run(run())


def test_a_level_holding_brackets_is_shown_as_typed(tmp_path: Path) -> None:
    """A level kept in the settings (an outside program, ``--level 'cmd:...'``) was read
    as markup by the options screen: "[/]" in it stopped the game with a MarkupError
    before the first screen, at every start, and "[v2]" in a path vanished."""

    async def run() -> None:
        level = "cmd:/opt/bots[v2]/mybot --tag [/]"
        app = make_app(tmp_path, level=level, show_options=True)
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, lambda: isinstance(app.screen, OptionsScreen))
            note = app.screen.query_one("#opt-level-note", Static)
            # A program has no options to list (the note named its command as them).
            assert str(note.render()) == "a program of your own, speaking the engine protocol"
            assert level in screen_text(app)

    asyncio.run(run())


def test_dialogs_refit_on_resize_and_keep_their_buttons_in_sight(tmp_path: Path) -> None:
    """A dialog opened wide and then squeezed is sized again (its text was cropped and
    Close went off screen); at 50 columns the three buttons of "New game?" stand one
    above the other, each in sight; Tab stops on a dialog's body only when it scrolls."""

    def inside(app: HeartsApp, selector: str) -> bool:
        region = app.screen.query_one(selector).region
        width, height = app.size
        return bool(region.width) and region.right <= width and region.bottom <= height

    async def run() -> None:
        app = make_app(tmp_path, seed=1)
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, lambda: human_turn(app))
            await pilot.press("question_mark")
            await settle(pilot)
            await pilot.resize_terminal(60, 20)
            await settle(pilot)
            await pilot.pause()
            dialog = app.screen.query_one(".dialog").region
            assert dialog.right <= 60 and inside(app, "#close"), dialog
            assert app.screen.query_one(".dialog-body").can_focus  # help scrolls here
            await pilot.press("escape")
            await settle(pilot, lambda: app.screen is table(app))
            await pilot.press("d")  # a sheet with one row: nothing to scroll
            await settle(pilot)
            await pilot.pause()
            assert not app.screen.query_one(".dialog-body").can_focus
            await pilot.press("escape")
            await settle(pilot, lambda: app.screen is table(app))
            await pilot.resize_terminal(50, 15)
            await pilot.press("n")
            await settle(pilot, lambda: isinstance(app.screen, ChoiceScreen))
            await pilot.pause()
            for button in ("#choice-new", "#choice-options", "#choice-cancel"):
                assert inside(app, button), button

    asyncio.run(run())


def test_game_over_at_80x24_shows_the_totals_and_statistics(tmp_path: Path) -> None:
    """After a long game the deals filled the dialog at 80×24 and the totals and your
    statistics were below the fold; they now come first, the deals scroll below."""
    from openhearts.tui.storage import Settings, Storage

    game, path = finished_record(tmp_path, end_score=100)
    assert len(game.results) >= 5

    async def run() -> None:
        app = HeartsApp(Storage(tmp_path), Settings(speed="off"), resume=str(path))
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, lambda: isinstance(app.screen, ChoiceScreen))
            await pilot.pause()
            text = screen_text(app)
            assert "Total" in text and "Your statistics" in text, text

    asyncio.run(run())


def test_game_over_at_60x20_keeps_every_button_in_sight(tmp_path: Path) -> None:
    """Stacked, the three buttons of Game over took three rows each: Options and Quit
    were below the screen, and Tab to them showed nothing."""
    from openhearts.tui.storage import Settings, Storage

    _, path = finished_record(tmp_path, end_score=20)

    async def run() -> None:
        app = HeartsApp(Storage(tmp_path), Settings(speed="off"), resume=str(path))
        async with app.run_test(size=(60, 20)) as pilot:
            await settle(pilot, lambda: isinstance(app.screen, ChoiceScreen))
            await pilot.pause()
            for button in ("#choice-again", "#choice-options", "#choice-quit"):
                region = app.screen.query_one(button).region
                assert region.height and region.bottom <= 20 and region.right <= 60, button

    asyncio.run(run())


def test_the_welcome_is_shown_from_its_start(tmp_path: Path) -> None:
    """At 80×24 the log showed the welcome from its second line and the status line's
    second line was blank; below 24 rows, with no log, "Press ? for the keys" was never
    seen.  Now the log shows it from its start and the status line repeats it."""

    async def run(size: tuple[int, int]) -> None:
        app = make_app(tmp_path / f"{size[1]}", seed=1)
        async with app.run_test(size=size) as pilot:
            await settle(pilot, lambda: human_turn(app))
            await pilot.pause()
            screen = table(app)
            assert screen.message.startswith("New game: ") and "Press ? for the keys" in (
                screen.message
            )
            if size[1] >= 24:
                log = screen.query_one("#log", RichLog)
                shown = [strip.text for strip in log.render_lines(log.region.reset_offset)]
                assert shown[0].strip().startswith("New game: "), shown

    asyncio.run(run((80, 24)))
    asyncio.run(run((80, 22)))


def test_the_side_panels_keep_the_totals_in_sight_at_64_columns(tmp_path: Path) -> None:
    """Below 72 columns the side panels narrow, but with four players not so far that
    "deal 0 · total 0" is cut to "deal 0 · tota…"."""

    async def run() -> None:
        app = make_app(tmp_path, seed=1)
        async with app.run_test(size=(64, 24)) as pilot:
            await settle(pilot, lambda: human_turn(app))
            text = screen_text(app)
            assert "tota…" not in text, text
            assert text.count("deal 0 · total 0") >= 2, text

    asyncio.run(run())


@pytest.mark.parametrize("players", [3, 5, 6])
def test_every_total_stays_whole_at_60x20(tmp_path: Path, players: int) -> None:
    """With five or six players at 60 columns every opponent's panel read "deal 0 ·
    tota…": the total comes first there, and compass names go short ("NW")."""

    async def run() -> None:
        app = make_app(tmp_path, seed=1, players=players)
        async with app.run_test(size=(60, 20)) as pilot:
            await settle(pilot, lambda: human_turn(app))
            await pilot.pause()
            text = screen_text(app)
            assert "tota…" not in text, text
            assert len(re.findall(r"total 0\b|\b0 total", text)) >= players - 1, text
            assert len(re.findall(r"· \d+ cards", text)) == players - 1, text

    asyncio.run(run())


def test_the_arrows_scroll_a_dialog_taller_than_the_screen(tmp_path: Path) -> None:
    """At 80×24 the memory aids and the keys go on below the edge, and the Close button
    has the focus: ↓, PageDown and End did nothing (only Tab, then PageDown, scrolled).
    The footer says Scroll where there is something to scroll."""

    async def run() -> None:
        app = make_app(tmp_path, seed=1)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, lambda: human_turn(app))
            for _ in range(5):
                await human_move_by_keys(pilot, app)
                await settle(pilot, lambda: human_turn(app))
            for key in ("m", "question_mark"):
                await pilot.press(key)
                await settle(pilot, lambda: isinstance(app.screen, InfoScreen))
                await pilot.pause()
                body = app.screen.query_one(".dialog-body")
                assert body.max_scroll_y > 0, key
                assert isinstance(app.focused, Button)
                footer = [str(k.description) for k in app.screen.query(FooterKey)]
                assert "Scroll" in footer, footer
                await pilot.press("down")
                assert body.scroll_y == 1
                await pilot.press("pagedown")
                assert body.scroll_y > 1
                await pilot.press("end")
                assert body.scroll_y == body.max_scroll_y
                await pilot.press("home")
                assert body.scroll_y == 0
                await pilot.press("escape")
                await settle(pilot, lambda: app.screen is table(app))
            # A dialog with nothing to scroll offers no Scroll.
            await pilot.press("w")
            await settle(pilot, lambda: isinstance(app.screen, InfoScreen))
            await pilot.pause()
            assert app.screen.query_one(".dialog-body").max_scroll_y == 0
            footer = [str(k.description) for k in app.screen.query(FooterKey)]
            assert "Scroll" not in footer, footer

    asyncio.run(run())


def test_your_own_line_ends_in_an_ellipsis_where_it_does_not_fit(tmp_path: Path) -> None:
    """At 60 columns your line was cut mid-word ("… · won 4"), where every other cut
    text ends in "…"."""

    async def run() -> None:
        app = make_app(tmp_path, seed=1, players=6)
        async with app.run_test(size=(60, 20)) as pilot:
            await settle(pilot, lambda: human_turn(app))
            panel = table(app).query_one(".me", SeatPanel)
            assert panel.info is not None
            panel.show(dataclasses.replace(panel.info, name="Maximiliana Longname"))
            await pilot.pause()
            width = panel.content_size.width
            text = panel.render()
            assert len(text.plain) > width
            lines = text.wrap(Console(width=width), width)
            assert len(lines) == 1 and lines[0].plain.endswith("…"), lines

    asyncio.run(run())


def test_game_over_shows_the_totals_without_scrolling_at_60_by_20(tmp_path: Path) -> None:
    """Your statistics above the sheet pushed its totals below the dialog's edge."""
    _, path = finished_record(tmp_path)

    async def run() -> None:
        app = HeartsApp(Storage(tmp_path), Settings(speed="off"), resume=str(path))
        async with app.run_test(size=(60, 20)) as pilot:
            await settle(pilot, lambda: isinstance(app.screen, ChoiceScreen))
            await pilot.pause()
            body = app.screen.query_one(".dialog-body")
            assert body.scroll_y == 0
            text = screen_text(app)
            assert "Total" in text and "◀" in text, text
            # The statistics follow, a scroll away.
            await pilot.press("end")
            await pilot.pause()
            assert "Your statistics" in screen_text(app)

    asyncio.run(run())


def test_the_options_keep_room_to_type_in_at_60_columns(tmp_path: Path) -> None:
    """At 60×20 the inputs were 12 columns wide and their lists wrapped inside them
    ("4 / play / ers")."""

    async def run() -> None:
        app = make_app(tmp_path, seed=1, show_options=True)
        async with app.run_test(size=(60, 20)) as pilot:
            await settle(pilot)
            assert isinstance(app.screen, OptionsScreen)
            widths = {
                widget.id: widget.region.width
                for widget in app.screen.query("#options-form Input, #options-form Select")
            }
            assert widths and min(widths.values()) >= 20, widths

    asyncio.run(run())


def test_a_game_that_cannot_be_saved_is_said_and_saved_elsewhere_at_once(
    tmp_path: Path,
) -> None:
    """The save file could not be written: nothing was said while playing, and Ctrl+Q
    printed nothing and left the game in no file.  Then it was kept only in memory
    until the end, lost to a crash: it goes to the default file at once, as in the plain
    game."""
    blocked = tmp_path / "blocked"
    blocked.write_text("a file where the folder should be", encoding="utf-8")
    home = tmp_path / "home"
    storage = Storage(home, save_path=str(blocked / "game.json"))
    app = HeartsApp(storage, Settings(level="random", speed="off"), seed=1, show_options=False)

    async def run() -> None:
        async with app.run_test(size=(100, 32)) as pilot:
            await settle(pilot, lambda: human_turn(app))
            await human_move_by_keys(pilot, app)
            await settle(pilot, lambda: human_turn(app))
            warned = [a for a in app.announcements if "could not be saved" in a]
            assert len(warned) == 1, app.announcements
            assert warned[0].endswith(f"It is saved in {home / 'saved-game.json'} from now on.")
            assert app.table is not None
            # Saved there after every move, before the end.
            on_disk = load_session(home / "saved-game.json")[0].actions
            assert on_disk == app.table.session.game.actions
            await human_move_by_keys(pilot, app)
            await settle(pilot, lambda: human_turn(app))
            assert len([a for a in app.announcements if "could not be saved" in a]) == 1
            await pilot.press("ctrl+q")

    asyncio.run(run())
    farewell = app.farewell()
    assert farewell is not None
    saved = home / "saved-game.json"
    assert f"The game is saved in {saved}; resume it with" in farewell, farewell
    assert app.table is not None
    assert load_session(saved)[0].actions == app.table.session.game.actions


def test_a_finished_game_is_saved_before_it_is_counted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Counted first, a crash before the save left it to be finished and counted again."""
    seen: list[bool] = []
    real = Storage.record_game

    def record(self: Storage, game: Any, seat: int) -> Any:
        seen.append(self.load_game()[0].is_over)
        return real(self, game, seat)

    monkeypatch.setattr(Storage, "record_game", record)
    _, path = finished_record(tmp_path)
    game, _ = load_session(path)
    # One card before the end, which the app plays (a bot's, or the person's only one).
    unfinished = tmp_path / "unfinished.json"
    game.undo()
    assert not game.is_over
    save(game, str(unfinished))

    async def run() -> None:
        app = HeartsApp(Storage(tmp_path), Settings(speed="off"), resume=str(unfinished))
        async with app.run_test(size=(100, 32)) as pilot:
            await settle(pilot, lambda: seen != [])
            await settle(pilot, lambda: isinstance(app.screen, ChoiceScreen))

    asyncio.run(run())
    assert seen == [True]
