"""The terminal game's parts that need no screen: storage, sentences, the session, drawing."""

from __future__ import annotations

import argparse
import dataclasses
import json
import re
import time
from pathlib import Path
from typing import Any

import pytest
from rich.style import Style

from openhearts import Card, CardSet, Game, Rules
from openhearts.bots import act, make_bot
from openhearts.cards import Suit
from openhearts.game import IllegalActionError, Play
from openhearts.options import add_rules_arguments
from openhearts.phases import Phase
from openhearts.record import dumps
from openhearts.sentences import Style as SentenceStyle
from openhearts.sentences import spoken as words
from openhearts.sentences.advice import hint_line
from openhearts.sentences.events import Narrator
from openhearts.session import NoHint, Seats, Session, SessionInfo
from openhearts.session.driver import decide
from openhearts.session.events import Event
from openhearts.session.hints import make_hint
from openhearts.session.memory import known_voids
from openhearts.session.names import table_names
from openhearts.session.review import deal_reviews
from openhearts.tui import settings_from_args
from openhearts.tui.drawing import Canvas, CardLook, draw_card
from openhearts.tui.screens import memory_text, review_text
from openhearts.tui.speech import Speaker
from openhearts.tui.storage import HOME_VARIABLE, Settings, Stats, Storage
from openhearts.tui.widgets import slot_side, won_summary


def finished_game(seed: int = 1, end_score: int = 30) -> Game:
    game = Game(Rules.preset("standard", end_score=end_score), seed=seed)
    bots = [make_bot("random", seed=s) for s in range(4)]
    while not game.is_over:
        seat = game.to_act()[0]
        act(game, seat, bots[seat])
    return game


# Storage ------------------------------------------------------------------------------


def test_settings_round_trip_and_home_variable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(HOME_VARIABLE, str(tmp_path))
    store = Storage()
    assert store.settings_path == tmp_path / "settings.json"
    settings = Settings(
        name="Ada",
        preset="source-003",
        rules=Rules.preset("source-003", players=5).to_dict(),
        level="hard",
        speed="slow",
        auto_play_one=False,
        opponents=["Bo", "Cy"],
        speech_command="espeak-ng -s 200",
    )
    assert store.save_settings(settings)
    again = Storage().load_settings()
    assert again == settings
    assert again.make_rules().players == 5
    assert again.delay > Settings(speed="fast").delay > Settings(speed="off").delay == 0


def test_damaged_files_give_defaults_and_are_kept_aside(tmp_path: Path) -> None:
    store = Storage(tmp_path)
    store.settings_path.write_text("{not json", encoding="utf-8")
    assert store.load_settings() == Settings()
    assert (tmp_path / "settings.json.bad").exists()
    assert store.problem is not None and "damaged" in store.problem
    # Wrong types are ignored one by one.
    store.settings_path.write_text(
        json.dumps({"name": 5, "speed": "warp", "auto_play_one": "yes", "level": "easy",
                    "rules": {"players": 9}}),
        encoding="utf-8",
    )  # fmt: skip
    loaded = store.load_settings()
    assert loaded.name == "You" and loaded.speed == "normal" and loaded.auto_play_one
    assert loaded.rules is None
    store.save_path.write_text("garbage", encoding="utf-8")
    assert not store.has_unfinished_game()
    assert not store.save_path.exists()


def test_statistics_count_games_deals_points_and_moons(tmp_path: Path) -> None:
    store = Storage(tmp_path)
    assert store.load_stats().lines() == ["No game finished yet."]
    game = finished_game()
    stats = store.record_game(game, 0)
    assert stats.games_played == 1
    assert stats.games_won == (1 if 0 in game.winners else 0)
    assert stats.deals_played == len(game.results)
    assert stats.points_taken == sum(r.points[0] for r in game.results)
    assert stats.moons_shot == sum(1 for r in game.results if r.shooter == 0)
    assert stats.best_total == game.scores[0]
    store.record_game(game, 0)
    again = store.load_stats()
    assert again.games_played == 2 and again.deals_played == 2 * len(game.results)
    assert f"Average points per deal: {again.average_per_deal:.1f}" in again.lines()
    assert Stats.from_dict({"games_played": -3, "games_won": True}).games_played == 0
    # A moon subtracted or the J♦ can leave points and a final total below 0: kept.
    negative = Stats.from_dict(Stats(1, 1, 2, -3, 1, 0, -26).to_dict())
    assert (negative.points_taken, negative.best_total) == (-3, -26)
    # One of a kind is said in the singular.
    one = Stats(games_played=1, games_won=1, deals_played=1, moons_shot=1, suns_shot=1)
    assert one.summary().startswith("1 game, 1 won (100%), 1 deal, ")
    assert one.summary().endswith(", 1 moon shot, 1 sun.")


def test_a_damaged_statistics_file_is_set_aside_not_written_over(tmp_path: Path) -> None:
    from openhearts.session.statistics import load_stats, record_game

    path = tmp_path / "statistics.json"
    path.write_text('{"games_played": 5, "games_won": ', encoding="utf-8")
    stats = record_game(finished_game(), 0, path)
    assert stats.games_played == 1
    assert (tmp_path / "statistics.json.bad").read_text(encoding="utf-8").startswith('{"games')
    assert load_stats(path).games_played == 1
    # The lock held while the file was read and written goes with it.
    assert not (tmp_path / "statistics.json.lock").exists()


def test_a_folder_where_a_file_belongs_is_never_set_aside(tmp_path: Path) -> None:
    """The terminal game moved a folder (or, as root, /dev/null) at its save path to
    NAME.bad, taking it for a damaged save, and put a file in its place."""
    (tmp_path / "saved-game.json").mkdir()
    (tmp_path / "settings.json").mkdir()
    store = Storage(tmp_path)
    assert not store.has_unfinished_game()
    assert store.problem is not None and "is not a file this game can use" in store.problem
    assert store.load_settings() == Settings()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["saved-game.json", "settings.json"]
    assert (tmp_path / "saved-game.json").is_dir()


@pytest.mark.parametrize("damaged", ['{"games_played": 5, "games_', "[]", '"five games"'])
def test_damaged_statistics_set_aside_are_said_in_every_face(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, damaged: str
) -> None:
    """Found by a tester: a damaged statistics file was set aside without a word, and
    both faces said "No game finished yet."; JSON holding no statistics ([]) was not
    even set aside, and the next game wrote over it."""
    from openhearts.session.statistics import load_stats, record_game

    path = tmp_path / "statistics.json"
    path.write_text(damaged, encoding="utf-8")
    said = f"{path} could not be read as statistics; it is kept as statistics.json.bad"
    assert load_stats(path).note.startswith(said)
    assert (tmp_path / "statistics.json.bad").read_text(encoding="utf-8") == damaged
    path.write_text(damaged, encoding="utf-8")
    counted = record_game(finished_game(), 0, path)
    assert counted.games_played == 1 and "statistics.json.bad-2" in counted.note
    assert "note" not in json.loads(path.read_text(encoding="utf-8"))
    path.write_text(damaged, encoding="utf-8")
    store = Storage(tmp_path)
    assert store.load_stats().games_played == 0
    assert store.problem is not None and "it is kept as statistics.json.bad-3" in store.problem


def test_statistics_that_cannot_be_read_are_not_written_over(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One failed read (a permission, a disk error) counted the game from zero and wrote
    over every game before it: 5 games became 1."""
    from openhearts import paths
    from openhearts.session import statistics
    from openhearts.session.statistics import load_stats, record_game

    path = tmp_path / "statistics.json"
    path.write_text(json.dumps(Stats(games_played=5).to_dict()), encoding="utf-8")
    real = paths.read_text

    def refused(where: Path, *args: Any, **kwargs: Any) -> str:
        if Path(where) == path:
            raise PermissionError(13, "Permission denied", str(where))
        return real(where, *args, **kwargs)

    monkeypatch.setattr(statistics, "read_text", refused)
    with pytest.raises(PermissionError):
        record_game(finished_game(), 0, path)
    store = Storage(tmp_path)
    store.record_game(finished_game(), 0)  # shown as it can be, not kept
    assert store.problem == "The statistics could not be kept: Permission denied."
    monkeypatch.undo()
    assert load_stats(path).games_played == 5


def test_the_terminal_game_sets_statistics_that_are_not_text_aside(tmp_path: Path) -> None:
    """It wrote over a file that was not UTF-8; the plain game kept it as .bad."""
    (tmp_path / "statistics.json").write_bytes(b'{"games_played": 5\xff}')
    assert Storage(tmp_path).record_game(finished_game(), 0).games_played == 1
    assert (tmp_path / "statistics.json.bad").read_bytes() == b'{"games_played": 5\xff}'


def test_games_ending_together_are_both_counted(tmp_path: Path) -> None:
    """Each read, added to and wrote the file: one count wrote over the other."""
    from concurrent.futures import ThreadPoolExecutor

    from openhearts.session.statistics import load_stats, record_game

    path = tmp_path / "statistics.json"
    game = finished_game()
    with ThreadPoolExecutor(4) as pool:
        list(pool.map(lambda _: record_game(game, 0, path), range(40)))
    assert load_stats(path).games_played == 40


def test_saved_game_round_trip(tmp_path: Path) -> None:
    store = Storage(tmp_path, save_path=str(tmp_path / "sub" / "mine.json"))
    game = Game(seed=4)
    bots = [make_bot("random", seed=s) for s in range(4)]
    for _ in range(20):
        seat = game.to_act()[0]
        act(game, seat, bots[seat])
    seats = Seats.build(4, [2], "hard", game.seed)
    assert store.save_game(Session(game, seats, auto_play_one=False))
    assert store.has_unfinished_game()
    assert [path.name for path in (tmp_path / "sub").iterdir()] == ["mine.json"]  # one file
    loaded, info = store.load_game()
    assert loaded.actions == game.actions and info == SessionInfo((2,), "hard", False)
    session = Session.resume(loaded, info, name="You", level="easy")
    assert session.human == 2 and session.seats.level == "hard"
    store.clear_game()
    assert not store.has_unfinished_game()
    with pytest.raises(Exception, match="no saved game"):
        store.load_game()


def test_hearts_play_resume_keeps_new_games_out_of_the_resumed_file(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from openhearts.cli import build_parser
    from openhearts.tui import run_tui
    from openhearts.tui.app import HeartsApp

    monkeypatch.setenv("OPENHEARTS_HOME", str(tmp_path))
    seen: list[Storage] = []
    monkeypatch.setattr(HeartsApp, "run", lambda app: seen.append(app.storage))
    record = tmp_path / "done.json"
    run_tui(build_parser("play").parse_args(["play", "--resume", str(record)]))
    assert seen[0].new_game_path == tmp_path / "saved-game.json"
    chosen = tmp_path / "mine.json"
    run_tui(
        build_parser("play").parse_args(["play", "--resume", str(record), "--save", str(chosen)])
    )
    assert seen[1].new_game_path == seen[1].save_path == chosen


def test_a_resumed_text_record_is_saved_beside_it(tmp_path: Path) -> None:
    """The terminal game saved a resumed PBN-style text record back into it, as JSON."""
    from openhearts import pbn

    record = tmp_path / "game.pbn"
    record.write_text(pbn.dumps(Game(seed=2)), encoding="utf-8")
    beside = tmp_path / "game.json"
    store = Storage(tmp_path)
    said = store.resumed_from(record)
    assert said == f"{record} is a text record and stays as it is: this game is saved in {beside}."
    assert store.save_path == beside
    plain = tmp_path / "plain.json"
    plain.write_text(dumps(Game(seed=2)), encoding="utf-8")
    assert store.resumed_from(plain) is None and store.save_path == plain
    # Found by a tester: --save FILE.pbn, resumed when offered, wrote JSON over it.
    given = Storage(tmp_path, save_path=str(record))
    given.hold(record)
    assert given.resumed_from(record) == said
    assert given.save_path == given.held_path == beside
    given.release()


def test_a_new_game_never_takes_a_save_file_another_window_holds(tmp_path: Path) -> None:
    """Found by a tester: after --resume FILE, the next game moved aside the game
    another window was playing on the default file, and the two wrote over each other."""
    from openhearts.session.saving import (
        SaveFileInUse,
        load_session,
        only_this_game_on,
        save_session,
    )

    store = Storage(tmp_path)
    resumed = tmp_path / "resumed.json"
    store.hold(resumed)
    default = tmp_path / "saved-game.json"
    other = Game(seed=5)
    save_session(default, other, SessionInfo())
    with only_this_game_on(default):  # the other window
        said = store.clear_game()
        beside = tmp_path / "saved-game-2.json"
        assert store.save_path == store.held_path == beside
        assert said == (
            f"Another game is open on {default} (in another window or terminal): this game "
            f"is saved in {beside}."
        )
        assert load_session(default)[0].seed == other.seed  # left alone
        # Held now: a third window is refused the file.
        with pytest.raises(SaveFileInUse), only_this_game_on(beside):
            pass
    # Once the other window has gone, the next game takes the default file again.
    assert store.clear_game() is not None  # its unfinished game is kept aside
    assert store.save_path == store.held_path == default
    store.release()
    assert not (tmp_path / "saved-game.json.lock").exists()


def test_a_save_that_fails_goes_on_in_a_file_no_other_window_holds(tmp_path: Path) -> None:
    """When the save file could not be written, the game moved to the default file,
    moving aside (silently) the game another window was playing there.  It goes on
    in NAME-2.json now, says so at once, and says what it kept aside on the way."""
    from openhearts.session.saving import load_session, only_this_game_on, save_session

    blocked = tmp_path / "file"
    blocked.write_text("not a directory")
    store = Storage(tmp_path, save_path=str(blocked / "g.json"))
    store.hold(store.save_path)
    default = tmp_path / "saved-game.json"
    beside = tmp_path / "saved-game-2.json"
    save_session(default, Game(seed=5), SessionInfo())
    unfinished = Game(seed=6)
    save_session(beside, unfinished, SessionInfo())  # from an earlier game, unfinished
    session = Session(Game(seed=1), Seats.build(4, [0], "easy", 1))
    with only_this_game_on(default):  # the other window
        assert store.save_game(session)
    assert store.save_path == store.held_path == beside
    assert load_session(beside)[0].seed == 1 and load_session(default)[0].seed == 5
    kept = tmp_path / "saved-game-2-unfinished-1.json"
    assert load_session(kept)[0].seed == 6
    said = store.save_moved or ""
    assert said.startswith(f"The game could not be saved to {blocked / 'g.json'}: "), said
    assert f"An unfinished game was in {beside}; it is kept in {kept}" in said
    assert said.endswith(f"It is saved in {beside} from now on.")
    store.release()


def test_the_farewell_to_a_terminal_already_closed_is_no_traceback(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Closing the terminal's window: printing the farewell raised OSError (EIO), and
    the program ended with a traceback and status 1 instead of 129."""
    import io

    from openhearts.cli import build_parser
    from openhearts.tui import run_tui
    from openhearts.tui.app import HeartsApp

    class Gone(io.StringIO):
        def write(self, text: str) -> int:
            raise OSError(5, "Input/output error")

    monkeypatch.setenv("OPENHEARTS_HOME", str(tmp_path))
    monkeypatch.setattr(HeartsApp, "run", lambda app: 129)
    monkeypatch.setattr(HeartsApp, "farewell", lambda app: "The game is saved in ...")
    monkeypatch.setattr("sys.stdout", Gone())
    assert run_tui(build_parser("play").parse_args(["play"])) == 129


def test_settings_from_command_line() -> None:
    parser = argparse.ArgumentParser()
    add_rules_arguments(parser)
    parser.add_argument("--name")
    parser.add_argument("--opponents")
    parser.add_argument("--level", default="easy")
    parser.add_argument("--no-auto-play-one", dest="auto_play_one", action="store_false")
    args = parser.parse_args(
        ["--players", "3", "--end-score", "50", "--name", "Ada", "--opponents", "Bo, Cy",
         "--level", "hard", "--no-auto-play-one"]
    )  # fmt: skip
    settings = settings_from_args(Settings(), args)
    assert settings.make_rules().players == 3 and settings.make_rules().end_score == 50
    assert (settings.name, settings.opponents, settings.level) == ("Ada", ["Bo", "Cy"], "hard")
    assert settings.auto_play_one is False
    saved = Settings(preset="source-001", rules=Rules.preset("source-001").to_dict())
    kept = settings_from_args(saved, parser.parse_args([]))
    assert kept.preset == "source-001" and kept.auto_play_one


def test_typed_defaults_win_over_saved_settings_and_names_are_cut_as_everywhere() -> None:
    """`hearts play --preset standard --level easy` means those, even when the saved
    settings say otherwise; names are cleaned as in every face (24 characters)."""
    from openhearts import play

    parser = argparse.ArgumentParser()
    play.add_arguments(parser)
    saved = Settings(preset="source-003", rules=Rules.preset("source-003").to_dict(), level="hard")
    typed = parser.parse_args(["--preset", "standard", "--level", "easy"])
    settings = settings_from_args(saved, typed)
    assert (settings.preset, settings.level) == ("standard", "easy")
    assert settings.make_rules() == Rules.preset("standard")
    untouched = settings_from_args(
        Settings(preset="source-003", rules=Rules.preset("source-003").to_dict(), level="hard"),
        parser.parse_args([]),
    )
    assert (untouched.preset, untouched.level) == ("source-003", "hard")
    long_name = parser.parse_args(["--name", "Maximiliana Fitzgerald-O'Brien\x1b"])
    assert settings_from_args(Settings(), long_name).name == "Maximiliana Fitzgerald-O"


# Sentences ------------------------------------------------------------------------------


def names_game(seed: int = 1, **changes: Any) -> Game:
    return Game(Rules.preset("standard", **changes), seed=seed, names=table_names(4, "You"))


def test_the_status_line_lists_three_winners_as_a_list() -> None:
    """A three-way tie for the lowest total read "Game over: West and
    North and East win."; the web page and the plain game say "West, North and East"."""
    view = names_game().view(0)
    over = dataclasses.replace(view, phase=Phase.GAME_OVER, scores=(105, 40, 40, 40))
    assert words.status(over) == "Game over: West, North and East win."


def test_status_lines_say_what_to_do() -> None:
    game = names_game()
    view = game.view(0)
    assert words.status(view) == (
        "Pass three cards to the left, to West: select them, then press P."
    )
    # The count comes before anything a narrow status line would cut.
    assert words.status(view, 1) == "Pass three cards to the left, to West: 1 of 3 chosen."
    assert (
        words.status(view, 3) == "Pass three cards to the left, to West: all three chosen, press P."
    )
    # One card passed (cards_passed=1) is one card, not "them" nor "all one".
    single = names_game(cards_passed=1).view(0)
    assert words.status(single) == "Pass one card to the left, to West: select it, then press P."
    assert words.status(single, 1) == "Pass one card to the left, to West: chosen, press P."
    for seat in range(4):
        game.pass_cards(seat, game.hand(seat).cards()[:3])
    view = game.view(0)
    leader = game.current_player
    assert leader is not None
    if leader == 0:
        assert words.status(view) == "Your turn: lead the 2♣."
    else:
        assert words.status(view) == f"{game.names[leader]} leads the 2♣."
    game.play(game.legal_plays().cards()[0])
    text = words.table(game.view(0))
    assert text.startswith("On the table: ") and "two of clubs" in text


def test_pass_phrases_for_every_direction() -> None:
    for players, direction_words in (
        (4, ["to the left, to West", "to the right, to East", "across, to North"]),
        (5, ["to the left", "to the right", "to the player 2 seats to your left"]),
    ):
        for deal, expected in enumerate(direction_words):
            rules = Rules.preset("standard", players=players)
            game = Game(rules, seed=1, first_deal=deal, names=table_names(players, "You"))
            assert words.pass_phrase(game.view(0)).startswith(expected)


def test_announcement_sentences() -> None:
    game = names_game(seed=5, pass_cycle=("hold",))
    bots = [make_bot("random", seed=s) for s in range(4)]
    while len(game.view(0).tricks) < 2:
        seat = game.to_act()[0]
        act(game, seat, bots[seat])
    view = game.view(0)
    last = view.tricks[-1]
    assert words.table(view).startswith("No cards on the table. Last trick: ")
    assert words.table_item(view, 1) == (
        f"1: {words.who(view, last.leader)}, the {last.cards[0].name}."
    )
    assert words.table_item(view, 7) == "No card 7 on the last trick."
    assert words.trick_taken(view, last).endswith(("points.", "point.", "no points."))
    assert words.scores(view).startswith("Scores: you 0, West 0, North 0, East 0.")
    hand = words.hand(view)
    assert hand.startswith(f"Your hand, {len(view.hand)} cards.")
    for suit in ("clubs", "diamonds", "spades", "hearts"):
        if view.hand.of_suit(["clubs", "diamonds", "spades", "hearts"].index(suit)):
            assert f"{suit}: " in hand.lower()
    # The suits begin a sentence of their own: "Your hand, 11 cards. Clubs: ...".
    assert re.match(r"Your hand, \d+ cards\. [A-Z]", hand), hand
    assert words.turn(view).startswith(("It is your turn", "It is "))
    assert words.cards_words(CardSet.parse("2C QS AH")) == (
        "the two of clubs, the queen of spades and the ace of hearts"
    )
    assert words.card_points(CardSet.parse("QS 2H JD"), view) == 14
    assert words.card_points(CardSet.parse("QS 2H JD"), names_game(
        jack_of_diamonds=True).view(0)) == 4  # fmt: skip


def test_memory_aids_sentences_and_dialog() -> None:
    game = names_game(seed=2)
    assert words.memory(game.view(0)) == ["No cards have been played yet in this deal."]
    assert "No cards have been played yet" in memory_text(game.view(0)).plain
    bots = [make_bot("random", seed=s) for s in range(4)]
    # Play on until another seat has shown a void and a trick is in progress.
    while True:
        view = game.view(0)
        if view.trick and any(view.voids[1:]) and len(view.tricks) >= 3:
            break
        seat = game.to_act()[0]
        act(game, seat, bots[seat])
    said = words.memory(view)
    assert said[0] == f"{len(view.played)} cards played so far, " + (
        f"{words.number_word(len(view.tricks))} tricks complete."
    )
    # One card: "1 cards played" was said and shown.
    first = names_game(seed=2)
    act(first, first.to_act()[0], make_bot("random", seed=0))
    while first.phase != Phase.PLAYING or len(first.view(0).played) != 1:
        act(first, first.to_act()[0], make_bot("random", seed=0))
    assert words.memory(first.view(0))[0] == "1 card played so far, no tricks complete."
    assert "1 card played, 0 tricks complete" in memory_text(first.view(0)).plain
    for suit in Suit:
        line = next(s for s in said if s.startswith(suit.word.capitalize() + ":"))
        played = [c.rank.word for c in view.played.of_suit(suit)]
        unseen = [c.rank.word for c in view.unseen.of_suit(suit)]
        done, out = line.split("; not yet seen ")
        assert [w for w in re.findall(r"[a-z]+", done) if w in RANKS] == played
        assert done.endswith("played none") == (not played)
        assert [w for w in re.findall(r"[a-z]+", out) if w in RANKS] == unseen
        # Nothing in your own hand is ever listed as unseen.
        assert not view.unseen.of_suit(suit) & view.hand
    voids = known_voids(view)
    assert {(seat, suit) for seat, suit, _ in voids} == {
        (seat, suit) for seat in range(1, 4) for suit in view.voids[seat]
    }
    for seat, suit, number in voids:
        # The trick named is one where that seat did not follow the suit led.
        assert number is not None
        plays = view.tricks[number - 1].plays(4) if number <= len(view.tricks) else list(view.trick)
        assert plays[0][1].suit == suit
        assert any(s == seat and c.suit != suit for s, c in plays)
        assert f"{view.names[seat]} has no {suit.word} (shown on trick {number})." in said
    assert ("Hearts are broken." in said) == view.hearts_broken
    taken = ", ".join(f"{words.who(view, s)} {view.points_taken[s]}" for s in range(4))
    assert said[-1] == f"Points taken this deal: {taken}."
    dialog = memory_text(view).plain
    for seat, suit, number in voids:
        shown = f"(showed it on trick {number})"
        assert f"{view.names[seat]}: no {suit.symbol} {suit.word} {shown}" in dialog
    assert ("Hearts: broken" in dialog) == view.hearts_broken


RANKS = {"two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack",
         "queen", "king", "ace"}  # fmt: skip


# Session (the face-neutral core the terminal game runs on) ------------------------------


def test_undo_goes_back_past_cards_auto_play_one_played() -> None:
    """A card auto play one played is no choice to go back to: the driver would only play
    it again, so undo goes on to the last card you chose (but never back into the pass)."""
    rules = Rules.preset("standard", pass_cycle=("hold",))
    found = 0
    for seed in range(40):
        session = Session.new(rules, seed, table_names(4, "You"), level="random")
        game = session.game
        chosen: Card | None = None
        while not game.results:
            seat = session.bot_to_act()
            if seat is not None:
                session.apply_decision(session.decide(seat))
                continue
            forced = game.auto_play_card()
            if forced is None:
                chosen = game.legal_plays().cards()[-1]
                session.play(session.human, chosen)
                continue
            session.play(session.human, forced)
            if chosen is None or len(game.hand(session.human)) == 0:
                continue
            # Just after a forced card that followed a real choice in this deal.
            actions = list(game.actions)
            copy = Game(rules, seed=seed, names=list(game.names))
            for action in actions:
                copy.apply(action)
            plain = Session(copy, session.seats, auto_play_one=False)
            assert spoken(plain, plain.undo())[0].startswith(f"Taken back: your {forced.name}")
            said = spoken(session, session.undo())
            assert said[0].startswith(f"Taken back: your {chosen.name} and {forced.name}")
            assert "played after it" not in said[0]  # two cards: "after them"
            assert session.human_to_act() and game.auto_play_card() is None
            assert {chosen, forced} <= set(session.view().hand)
            assert len(game.actions) < len(actions) - 1
            found += 1
            break
    assert found >= 3, found


def spoken(session: Session, events: list[Event]) -> list[str]:
    narrator = Narrator(session.view(), SentenceStyle(spoken=True))
    return [line for event in events for line in narrator.lines(event)]


def test_undoing_a_pass_counts_the_cards_played_not_the_others_passes() -> None:
    """Passing first, the others' passes come after ours and go back with it: the
    sentence counts only the cards played after it."""
    for seed in range(20):
        session = Session.new(Rules.preset("standard"), seed, table_names(4, "You"), level="random")
        me = session.human
        session.pass_cards(me, session.view().hand.cards()[:3])
        while not session.human_to_act():
            seat = session.bot_to_act()
            assert seat is not None
            session.apply_decision(session.decide(seat))
        plays = sum(isinstance(action, Play) for action in session.game.actions)
        if plays:
            break
    said = spoken(session, session.undo())[0]
    assert said.endswith(f", and {plays} card{'s' * (plays != 1)} played after it."), said
    assert session.game.phase == "passing"


@pytest.mark.parametrize("seed", [9, 11])  # the first card forced, and a real choice
def test_session_plays_refuses_and_undoes(seed: int) -> None:
    session = Session.new(Rules.preset("standard"), seed, table_names(4, "You"), level="random")
    me = session.human
    with pytest.raises(IllegalActionError, match="choose the cards to pass first"):
        session.play(me, "2C")
    with pytest.raises(IllegalActionError, match="nothing of yours"):
        session.undo()
    while (seat := session.bot_to_act()) is not None:
        session.apply_decision(session.decide(seat))
    said = spoken(session, session.pass_cards(me, session.view().hand.cards()[:3]))
    assert said[0].startswith("You pass the ")
    while not session.human_to_act():
        seat = session.bot_to_act()
        assert seat is not None
        session.apply_decision(session.decide(seat))
    view = session.view()
    card = view.legal.cards()[0]
    before = len(session.game.actions)
    said = spoken(session, session.play(me, card))
    assert said[0] in (f"You play the {card.name}.", f"You lead the {card.name}.")
    while (seat := session.bot_to_act()) is not None and session.game.phase == "playing":
        session.apply_decision(session.decide(seat))
        if session.human_to_act():
            break
    taken_back = spoken(session, session.undo())[0]
    if len(view.legal) == 1:
        # The first card was the only one legal, no choice: the pass goes back with it.
        assert taken_back.startswith("Taken back: your pass of ") and card.name in taken_back
        assert session.game.phase == "passing"
        return
    assert taken_back.startswith(f"Taken back: your {card.name}")
    assert len(session.game.actions) == before
    illegal = [c for c in view.hand if c not in view.legal]
    if illegal:
        with pytest.raises(IllegalActionError):
            session.play(me, illegal[0])
    # Undo again takes back the pass.
    assert spoken(session, session.undo())[0].startswith("Taken back: your pass of ")
    assert session.game.phase == "passing"


def test_a_broken_bot_falls_back_to_a_legal_move() -> None:
    class Broken:
        def choose_pass(self, view: object) -> CardSet:
            raise RuntimeError("boom")

        def choose_play(self, view: object) -> Card:
            return Card.parse("2C") if False else Card(99 % 52)

        def choose_moon(self, view: object) -> bool:
            raise RuntimeError("boom")

    game = Game(seed=2)
    decision = decide(Broken(), game.view(1))  # type: ignore[arg-type]
    assert decision.problem == "boom"
    game.apply(decision.action)
    for seat in (0, 2, 3):
        game.pass_cards(seat, game.hand(seat).cards()[:3])
    mover = game.current_player
    assert mover is not None
    decision = decide(Broken(), game.view(mover))  # type: ignore[arg-type]
    assert isinstance(decision.action, Play) and decision.action.card in game.legal_plays()


def test_unknown_level_falls_back_to_random() -> None:
    seats = Seats.build(4, [0], "no-such-level", 1)
    assert seats.level == "random" and seats.problem is not None


def test_default_names_are_unique() -> None:
    assert table_names(6, "North") == [
        "North", "Southwest", "Northwest", "North 2", "Northeast", "Southeast"
    ]  # fmt: skip
    assert table_names(3, "", ["A", "B", "C"]) == ["You", "A", "B"]


def test_hint_text() -> None:
    game = Game(seed=4)
    names = list(game.names)
    hint = make_hint(game.view(0))
    assert hint_line(hint, SentenceStyle(spoken=True), names).startswith("Hint: pass the ")
    for seat in range(4):
        game.pass_cards(seat, game.hand(seat).cards()[:3])
    mover = game.current_player
    assert mover is not None
    hint = make_hint(game.view(mover))
    text = hint_line(hint, SentenceStyle(spoken=True), names)
    assert hint.best.card == Card.parse("2C") and text.startswith("Hint: play the two of clubs")
    with pytest.raises(NoHint):
        make_hint(game.view((mover + 1) % 4))


# Drawing --------------------------------------------------------------------------------


def test_cards_are_drawn_with_shapes_as_well_as_colours() -> None:
    canvas = Canvas(11, 4)
    draw_card(canvas, 0, 0, Card.parse("TH"), CardLook())
    draw_card(canvas, 6, 0, Card.parse("QS"), CardLook(cursor=True))
    lines = canvas.text().plain.splitlines()
    assert lines == ["╭───╮ ┏━━━┓", "│10 │ ┃Q  ┃", "│ ♥ │ ┃ ♠ ┃", "╰───╯ ┗━━━┛"]
    strips = canvas.strips(Style(bgcolor="green"))
    assert [strip.text for strip in strips] == lines
    assert all(strip.cell_length == 11 for strip in strips)
    # A card just received keeps a mark of its own under the cursor, without colour too.
    received = Canvas(11, 4)
    draw_card(received, 0, 0, Card.parse("TH"), CardLook(new=True))
    draw_card(received, 6, 0, Card.parse("QS"), CardLook(new=True, cursor=True))
    assert received.text().plain.splitlines() == [
        "╔═══╗ ┏━━━┓",
        "║10•║ ┃Q •┃",
        "║ ♥ ║ ┃ ♠ ┃",
        "╚═══╝ ┗━━━┛",
    ]


def test_layout_sides_and_won_summary() -> None:
    assert [slot_side(s, 4) for s in range(1, 4)] == ["left", "top", "right"]
    assert [slot_side(s, 3) for s in range(1, 3)] == ["left", "right"]
    assert [slot_side(s, 6) for s in range(1, 6)] == ["left", "left", "top", "right", "right"]
    assert won_summary(CardSet(), 0) == "no tricks yet"
    assert won_summary(CardSet.parse("JD 2C 3C 4C"), 1, jack=True) == "won 1 trick: J♦"


def test_speaker_runs_the_command_in_order(tmp_path: Path) -> None:
    said = tmp_path / "said.txt"
    speaker = Speaker(f"sh -c 'echo \"$0\" >> {said}'")
    assert speaker.active
    for sentence in ("West played the two of clubs.", "It's your turn; lead."):
        speaker.say(sentence)
    speaker.close(wait=10)
    assert said.read_text(encoding="utf-8").splitlines() == [
        "West played the two of clubs.",
        "It's your turn; lead.",
    ]
    broken = Speaker("/no/such/speech-program")
    broken.say("hello")
    broken.close(wait=10)
    assert broken.problem is not None and not broken.active
    assert not Speaker("  ").active
    # A command that runs and fails (no sound device) is switched off too, saying why.
    failing = Speaker("sh -c 'echo no audio device >&2; exit 3'")
    failing.say("hello")
    failing.close(wait=10)
    assert failing.problem == "the speech command 'sh' failed (exit code 3): no audio device"
    assert not failing.active
    # An unclosed quote (typed, or saved by hand) switches speech off, saying why.
    unread = Speaker('espeak-ng -v "en')
    assert unread.problem == "the speech command cannot be read: no closing quotation"
    assert not unread.active


def test_a_speaker_replaced_lets_one_voice_speak_at_a_time_in_order(tmp_path: Path) -> None:
    """Closing the options started a second speaker beside the first, still saying its
    queue: two voices at once, the newer sentences before the older ones (found by a
    tester).  The new speaker takes the sentences not yet said, after the one being said."""
    said = tmp_path / "said.txt"
    slow = f'sh -c \'echo "start $0" >> {said}; sleep 0.2; echo "end $0" >> {said}\''
    first = Speaker(slow)
    for sentence in ("one", "two", "three"):
        first.say(sentence)
    time.sleep(0.1)  # "one" is being said
    second = first.replaced(slow)
    second.say("four")
    first.say("never: the old speaker says no more")
    second.close(wait=10)
    in_order = ("one", "two", "three", "four")
    assert said.read_text(encoding="utf-8").split("\n")[:-1] == [
        f"{edge} {sentence}" for sentence in in_order for edge in ("start", "end")
    ]
    # Speech switched off: what was waiting is dropped, the sentence being said ends.
    said.unlink()
    talking = Speaker(slow)
    for sentence in ("one", "two"):
        talking.say(sentence)
    time.sleep(0.1)
    silent = talking.replaced("")
    talking.close(wait=10)
    assert not silent.active
    assert said.read_text(encoding="utf-8").split("\n")[:-1] == ["start one", "end one"]


def test_a_six_player_score_sheet_fits_80_columns_with_names_told_apart() -> None:
    """Too wide for the room, the sheet leaves out the pass directions and writes the
    compass names short: "South…" could be Southwest or Southeast."""
    from rich.console import Console

    from openhearts.tui.screens import score_table

    names = ["You", "Southwest", "Northwest", "North", "Northeast", "Southeast"]
    game = Game(Rules.preset("source-003", players=6), seed=1, names=names)
    bots = [make_bot("random", seat) for seat in range(6)]
    while not game.results:
        seat = game.to_act()[0]
        act(game, seat, bots[seat])

    def rendered(room: int | None) -> str:
        console = Console(width=room or 200, record=True, color_system=None)
        console.print(score_table(game, 0, room))
        return console.export_text()

    narrow = rendered(68)
    assert "…" not in narrow and "Pass" not in narrow
    assert all(short in narrow for short in ("SW", "NW", "NE", "SE", "North"))
    assert max(len(line) for line in narrow.splitlines()) <= 68
    wide = rendered(None)
    assert "Southwest" in wide and "Southeast" in wide and "Pass" in wide
    # At 60 columns (a room of 48) the lines between the columns go, not the figures:
    # they read "…" for three players.
    tight = rendered(48)
    assert "…" not in tight and all(short in tight for short in ("SW", "NW", "NE", "SE"))
    assert max(len(line) for line in tight.splitlines()) <= 48
    assert "Total" in tight and "◀" in tight


def test_a_score_sheet_of_long_names_cuts_the_names_not_the_figures() -> None:
    """With names of 24 letters every figure read "…" at 80 and at 100 columns."""
    from rich.console import Console

    from openhearts.tui.screens import score_table

    names = [
        "Alexandria-Ocasio-Cortez",
        "Bartholomew-Fitzgerald-S",
        "Maximiliana-Wolkenstein-",
        "Konstantinopoulos-Papado",
    ]
    game = Game(Rules(), seed=1, names=names)
    bots = [make_bot("random", seat) for seat in range(4)]
    while not game.results:
        act(game, game.to_act()[0], bots[game.to_act()[0]])
    for room in (48, 68, 88):
        console = Console(width=room, record=True, color_system=None)
        console.print(score_table(game, 0, room, totals_first=True))
        text = console.export_text()
        assert max(len(line) for line in text.splitlines()) <= room
        total = next(line for line in text.splitlines() if "Total" in line)
        figures = [int(n) for n in re.findall(r"-?\d+", total)]
        assert figures == list(game.scores), (room, text)
        assert "Alexandria" in text or "Alex" in text


@pytest.mark.parametrize("room", [None, 40], ids=["ruled", "tight"])
def test_a_score_sheet_stands_its_figures_under_names_two_columns_wide(room: int | None) -> None:
    """A heading in Chinese, or with an emoji, was padded by letters: the figures
    under "李小龍" stood three columns left of its end, under every wide name."""
    from rich.console import Console

    from openhearts.session.names import columns
    from openhearts.tui.screens import score_table

    game = Game(Rules(end_score=200), seed=2, names=["東京太郎", "李小龍", "Zoë🦊", "Bob"])
    bots = [make_bot("random", seat) for seat in range(4)]
    while not game.results:
        act(game, game.to_act()[0], bots[game.to_act()[0]])
    console = Console(width=room or 120, record=True, color_system=None)
    console.print(score_table(game, 0, room))
    lines = console.export_text().splitlines()
    heading = next(line for line in lines if "Deal" in line)
    assert "李" in heading and "…" not in next(line for line in lines if "Total" in line)
    total = next(line for line in lines if "Total" in line)

    def ends(line: str) -> list[int]:
        """Where each run of letters or figures ends, in columns."""
        return [columns(line[: found.end()]) for found in re.finditer(r"[^\s│┃◀]+", line)]

    assert ends(heading)[-4:] == ends(total)[-4:], (heading, total)


def test_the_help_ends_with_the_rules_of_the_game_in_play() -> None:
    """The plain game's ``rules`` had no key in the terminal game: someone who resumed a
    saved game of another variant could not see which rules it was played by."""
    from rich.console import Console

    from openhearts.tui.screens import keys_help

    rules = Rules.preset("source-002", players=5)
    console = Console(width=100, record=True, color_system=None)
    console.print(keys_help(rules))
    text = console.export_text()
    assert text.index("The rules of this game") > text.index("Keys")
    for line in rules.describe():
        assert line in text, line
    console = Console(width=100, record=True, color_system=None)
    console.print(keys_help())
    assert "The rules of this game" not in console.export_text()


def test_the_help_lists_every_key_and_wraps_in_its_column() -> None:
    from rich.console import Console

    from openhearts.session.keys import KEYS
    from openhearts.tui.screens import keys_help

    console = Console(width=66, record=True, color_system=None)
    console.print(keys_help())
    lines = console.export_text().splitlines()
    text = " ".join(" ".join(line.split()) for line in lines)
    for entry in KEYS:
        if entry.keys:
            assert " ".join(entry.description.split()) in text, entry.description
    # A description that wraps goes on under itself, not under the keys.
    wrapped = [line for line in lines if line and not line[:15].strip()]
    assert wrapped and all(line[16:17].strip() for line in wrapped), wrapped


def test_a_panel_keeps_its_cards_won_line_with_large_figures() -> None:
    """14 points this deal with a total of 120 made the points line wrap, and the line
    of cards won (who took the Q♠) left the panel; a panel with no cards left said
    " 0 cards" with a space before it."""
    import asyncio

    from textual.app import App, ComposeResult

    from openhearts.tui.widgets import SeatInfo, SeatPanel

    class Panels(App[None]):
        CSS = "SeatPanel { width: 25; height: 4; padding: 0 1; }"

        def compose(self) -> ComposeResult:
            yield SeatPanel(1, id="one")

    async def run() -> list[str]:
        app = Panels()
        async with app.run_test(size=(40, 8)) as pilot:
            panel = app.query_one(SeatPanel)
            won = CardSet.parse("QS 2H 3H 4H 5H 6H 7H 8H 9H TH AS")
            panel.show(SeatInfo(1, "Bartholomew", 0, 14, 120, won, 3))
            await pilot.pause()
            return [strip.text.rstrip() for strip in panel.render_lines(panel.region.reset_offset)]

    lines = asyncio.run(run())
    assert lines[1].strip() == "0 cards", lines
    assert lines[2].strip() == "deal 14 · total 120", lines
    assert lines[3].strip().startswith("won 3 tricks: Q♠ ♥×9"), lines


def test_a_narrow_panel_shortens_a_name_two_columns_a_letter() -> None:
    """Six players at 80 × 24: "Zoë🦊🦊 · dealer · pas…" lost what the seat is doing,
    as "Southwest · dealer · p…" did before its name gave way; a name was measured in
    letters, and an emoji or a Chinese letter takes two columns."""
    import asyncio

    from textual.app import App, ComposeResult

    from openhearts.tui.widgets import SeatInfo, SeatPanel

    class Panels(App[None]):
        CSS = "SeatPanel { width: 25; height: 4; padding: 0 1; }"

        def compose(self) -> ComposeResult:
            yield SeatPanel(1, id="one")

    async def run() -> str:
        app = Panels()
        async with app.run_test(size=(40, 8)) as pilot:
            panel = app.query_one(SeatPanel)
            info = SeatInfo(1, "Zoë🦊🦊", 8, 0, 0, CardSet(), 0, dealer=True, passed=True)
            panel.show(info)
            await pilot.pause()
            return panel.render_lines(panel.region.reset_offset)[0].text.strip()

    first = asyncio.run(run())
    assert first.endswith("· dealer · passed"), first


def test_a_narrow_panel_writes_a_deal_below_zero_with_its_own_sign() -> None:
    """Six players at 58 columns with the J♦ counting -10: a player who took the J♦
    and no heart read "total 0 (+-10)"."""
    import asyncio

    from textual.app import App, ComposeResult

    from openhearts.tui.widgets import SeatInfo, SeatPanel

    class Panels(App[None]):
        CSS = "SeatPanel { width: 18; height: 4; padding: 0 1; }"

        def compose(self) -> ComposeResult:
            yield SeatPanel(1, id="one")

    async def run(taken: int) -> str:
        app = Panels()
        async with app.run_test(size=(40, 8)) as pilot:
            panel = app.query_one(SeatPanel)
            panel.show(SeatInfo(1, "Northeast", 2, taken, 85, CardSet.parse("JD 3C"), 1, jack=True))
            await pilot.pause()
            strips = panel.render_lines(panel.region.reset_offset)
            return strips[2].text.strip()

    assert asyncio.run(run(-10)) == "total 85 (-10)"
    assert asyncio.run(run(13)) == "total 85 (+13)"


def test_trick_labels_and_captions_are_cut_with_a_mark_or_told_short() -> None:
    """Six players in a narrow middle: compass names become NE, SW... where whole
    names do not fit, other names end in "…", and the caption too (it read "◀ South"
    for Southwest); no label starts or ends outside the table."""
    import asyncio

    from textual.app import App, ComposeResult

    from openhearts.tui.widgets import TrickPicture, TrickView

    names = ["You", "Southwest", "Northwest", "North", "Northeast", "Southeast"]

    class Middle(App[None]):
        CSS = "TrickView { width: 40; height: 14; }"

        def compose(self) -> ComposeResult:
            yield TrickView(id="trick")

    async def run() -> list[str]:
        app = Middle()
        async with app.run_test(size=(44, 16)) as pilot:
            view = app.query_one(TrickView)
            plays = [(seat, Card.parse(card)) for seat, card in ((4, "TS"), (5, "AS"), (1, "2S"))]
            caption = "Deal 1: pass 3 cards to the player two seats to your left ◀ Southwest"
            view.show(TrickPicture(6, list(range(6)), names, plays, None, caption))
            await pilot.pause()
            return [strip.text for strip in view.render_lines(view.region.reset_offset)]

    lines = asyncio.run(run())
    text = "\n".join(lines)
    assert lines[-1].strip().endswith("…"), lines[-1]
    for short in ("NE", "SE", "SW"):
        assert re.search(rf"\d·{short}\b", text), text
    assert "South…" not in text and "North…" not in text


@pytest.mark.parametrize("room", [None, 60], ids=["whole", "compact"])
def test_the_tricks_and_memory_aids_line_up_names_two_columns_wide(room: int | None) -> None:
    """The tricks review (L) and the points in the memory aids (M) padded names by
    letters: after a name in Chinese, or with an emoji, every card stood out of line."""
    from openhearts.session.names import columns
    from openhearts.session.review import deal_reviews
    from openhearts.tui.screens import memory_text, review_text

    names = ["東京太郎 (you)", "李小龍", "Zoë🦊", "Bob"]
    game = Game(Rules(pass_cycle=("hold",)), seed=5, names=["東京太郎", *names[1:]])
    while len(game.view(0).tricks) < 4:
        game.play(game.legal_plays().cards()[0])
    deal = deal_reviews(game)[0]
    lines = review_text(deal, names, "Deal 1", room).plain.splitlines()[2:]
    # Where each card's suit stands, line after line.
    places = {
        tuple(columns(line[:index]) for index, char in enumerate(line) if char in "♣♦♠♥")
        for line in lines
    }
    assert len(places) == 1, lines
    points = memory_text(game.view(0)).plain.split("Points taken this deal\n")[1]
    assert len({columns(line) for line in points.splitlines()}) == 1, points


@pytest.mark.parametrize("size", [(40, 14), (30, 8)], ids=["around", "row"])
def test_the_trick_keeps_its_width_with_names_two_columns_wide(size: tuple[int, int]) -> None:
    """Names in Chinese or Japanese, or with an emoji, were written one character a
    column in the middle of the table, each taking two on screen: the row ran past the
    table's edge and pushed the panel beside it to the right (88 columns at 80)."""
    import asyncio

    from rich.cells import cell_len
    from textual.app import App, ComposeResult

    from openhearts.tui.widgets import TrickPicture, TrickView

    names = ["東京太郎", "李小龍", "Zoë🦊🦊", "北京北京北京"]
    width, height = size

    class Middle(App[None]):
        CSS = f"TrickView {{ width: {width}; height: {height}; }}"

        def compose(self) -> ComposeResult:
            yield TrickView(id="trick")

    async def run() -> list[int]:
        app = Middle()
        async with app.run_test(size=(width + 4, height + 2)) as pilot:
            view = app.query_one(TrickView)
            plays = [(seat, Card.parse(card)) for seat, card in ((1, "2C"), (2, "9C"), (3, "KC"))]
            view.show(
                TrickPicture(4, list(range(4)), names, plays, 3, "北京北京北京 takes the trick")
            )
            await pilot.pause()
            strips = view.render_lines(view.region.reset_offset)
            return [sum(cell_len(segment.text) for segment in strip) for strip in strips]

    assert set(asyncio.run(run())) == {width}


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--level", "nosuchlevel"], "no bot level 'nosuchlevel'"),
        (["--opponents", "Bo,Cy,Di,Ed"], "--opponents: 4 names for 3 computer players"),
    ],
)
def test_hearts_play_refuses_what_the_plain_game_refuses(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    message: str,
) -> None:
    """The terminal game started against random players (or dropped a name) where the
    plain game said what was wrong: one check for both faces."""
    from openhearts.cli import build_parser
    from openhearts.plain.setup import run_plain
    from openhearts.tui import run_tui
    from openhearts.tui.app import HeartsApp

    monkeypatch.setenv("OPENHEARTS_HOME", str(tmp_path))
    monkeypatch.setattr(HeartsApp, "run", lambda app: pytest.fail("the game started"))
    assert run_tui(build_parser("play").parse_args(["play", *argv])) == 2
    assert f"hearts play: {message}" in capsys.readouterr().err
    assert run_plain(build_parser("play").parse_args(["play", "--plain", *argv])) == 2
    assert f"hearts play: {message}" in capsys.readouterr().err


def test_a_name_blank_once_cleaned_keeps_its_seats_default_name() -> None:
    """A blank entry shifted the later names a seat to the right."""
    from openhearts.session.names import typed_opponents

    opponents = typed_opponents("Bo,\u200b,Di", 4)
    assert opponents == ["Bo", "", "Di"]
    assert table_names(4, "You", opponents) == ["You", "Bo", "North", "Di"]


def test_the_review_of_six_players_keeps_each_trick_on_one_line_at_80_columns() -> None:
    """Six compass names made each trick two lines, the second ragged under the trick
    numbers: short names then, and the points only (the star says who took it)."""
    rules = Rules.preset("source-003", players=6)
    game = Game(rules, seed=5, names=table_names(6, "You", direction=rules.direction))
    bots = [make_bot("random", seed=seat) for seat in range(6)]
    while game.deal_number == 0:
        seat = game.to_act()[0]
        act(game, seat, bots[seat])
    deal = deal_reviews(game)[0]
    room = 80 - 12
    lines = review_text(deal, game.names, "Deal 1", room).plain.splitlines()[2:]
    assert len(lines) == len(deal.tricks) == 8
    assert all(len(line) <= room for line in lines), lines
    assert all(re.fullmatch(r" ?\d+ ( +(You|NW|NE|SW|SE|N|S) +\S+[★ ]){6}  \d+ pts?", line)
               for line in lines), lines  # fmt: skip
    # Where whole names fit, they stay, with who took each trick.
    wide = review_text(deal, game.names, "Deal 1", 200).plain.splitlines()[2:]
    assert all(" takes " in line and "Northwest" in line for line in wide), wide


@pytest.mark.parametrize("room", [None, 60, 40])
def test_the_score_sheet_shows_names_as_typed(room: int | None) -> None:
    """Found by a tester: a name holding "[/]" stopped the terminal game with a markup
    error whenever the sheet opened (by itself after every deal), and "[bold]" vanished."""
    from rich.console import Console

    from openhearts.tui.screens import score_table

    game = finished_game()
    game.names = ("[/]", "Ann [bold]", "[/b]", "Cy")
    console = Console(width=room or 200, record=True, color_system=None)
    console.print(score_table(game, 0, room))
    text = console.export_text()
    assert "[/]" in text and "[/b]" in text
    assert "[bold]" in text or room is not None  # cut short to fit a narrow sheet
