"""The plain line-based game: scripted players drive ``run_plain`` through stdin/stdout."""

from __future__ import annotations

import argparse
import builtins
import io
import os
import re
import signal
import stat
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from openhearts import pbn, play
from openhearts.bots import act, make_bot
from openhearts.cards import Card, CardSet
from openhearts.game import Game, Pass, Play
from openhearts.plain import PlainSession, run_plain
from openhearts.record import load, save
from openhearts.rules import Rules
from openhearts.sentences import Style
from openhearts.session.saving import SessionInfo, load_session, save_session
from openhearts.session.statistics import load_stats

ROOT = Path(__file__).resolve().parents[1]
WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5}
SUIT_LETTERS = {"clubs": "C", "diamonds": "D", "spades": "S", "hearts": "H"}


def parse_args(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    play.add_arguments(parser)
    return parser.parse_args(["--plain", "--level", "random", *argv])


def hand_from(transcript: str) -> list[str]:
    """The cards of the last "Your hand:" block, as short names."""
    block = transcript.rsplit("Your hand:\n", 1)[1]
    cards = []
    for line in block.splitlines():
        match = re.match(r"^  (?:\S+ )?(clubs|diamonds|spades|hearts): (.*)$", line)
        if not match:
            break
        if match.group(2) != "-":
            letter = SUIT_LETTERS[match.group(1)]
            cards += [rank.rstrip("*") + letter for rank in match.group(2).split()]
    return cards


def may_play(transcript: str) -> list[str]:
    return transcript.rsplit("You may play: ", 1)[1].splitlines()[0].split()


def sensible(transcript: str) -> str:
    """A player that passes its highest cards, plays the first legal card, takes the
    usual moon choice."""
    prompt = transcript.rsplit("\n", 1)[-1]
    if prompt.startswith("Pass "):
        count = WORDS[prompt.split()[1]]
        return " ".join(hand_from(transcript)[-count:])
    if prompt.startswith("Your card"):
        return may_play(transcript)[0]
    if prompt.startswith("add or subtract"):
        return ""
    raise AssertionError(f"unexpected prompt {prompt!r}")


class Console:
    """Stands in for the terminal: captures output; answers prompts with a function
    of the transcript so far, or with fixed lines first."""

    def __init__(
        self,
        monkeypatch: pytest.MonkeyPatch,
        player: Callable[[str], str] = sensible,
        lines: tuple[str, ...] = (),
        limit: int = 5000,
    ) -> None:
        self.out = io.StringIO()
        self.lines: Iterator[str] = iter(lines)
        self.player = player
        self.asked = 0
        self.limit = limit
        monkeypatch.setattr(sys, "stdout", self.out)
        monkeypatch.setattr(sys, "stdin", io.StringIO(""))
        monkeypatch.setattr(builtins, "input", self.input)

    def input(self, prompt: str = "") -> str:
        self.asked += 1
        if self.asked > self.limit:
            raise EOFError
        line = next(self.lines, None)
        return line if line is not None else self.player(self.out.getvalue())

    @property
    def text(self) -> str:
        return self.out.getvalue()


@pytest.mark.parametrize("seed", ["2", "3", "4"])
def test_the_end_of_the_game_is_said_once(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, seed: str
) -> None:
    """When your own card ended the game, "Game over" was said twice."""
    console = Console(monkeypatch, player=lambda transcript: "g")  # the computer plays for you
    argv = ("--seed", seed, "--end-score", "10", "--level", "random")
    assert run_plain(parse_args(*argv, "--save", str(tmp_path / "g.json"))) == 0
    assert console.text.count("Game over after") == 1, console.text[-600:]


def test_full_game_to_the_winner(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    console = Console(monkeypatch)
    status = run_plain(parse_args("--seed", "4", "--end-score", "30", "--save", str(path)))
    text = console.text
    assert status == 0
    assert "Game over after" in text
    assert re.search(r"(You win|wins|share the win) with -?\d+ points", text)
    assert "Pass three cards to the left (West): " in text
    assert "Pass three cards to the right (East): " in text
    assert re.search(r"West (plays|leads) \S+\.", text)
    assert re.search(r"takes? the trick with the \S+", text)
    assert "Deal 1 is over." in text and "This deal" in text
    # Each deal is announced once, as it begins.
    openings = re.findall(r"^Deal (\d+)\. ", text, re.MULTILINE)
    assert len(openings) >= 2 and openings == [str(n) for n in range(1, len(openings) + 1)]
    assert "Traceback" not in text
    game = load(str(path))
    assert game.is_over and max(game.scores) >= 30
    assert f"hearts replay {path}" in text
    # Counted in the statistics every face shares (the terminal game's I key, stats here).
    assert load_stats().games_played == 1


def test_the_rest_of_a_settled_deal_is_played_for_you(monkeypatch: pytest.MonkeyPatch) -> None:
    # With this seed, a deal reaches a point where no point card is left while you
    # still have a choice of cards: they are played for you, and the game says why.
    console = Console(monkeypatch)
    assert run_plain(parse_args("--seed", "26", "--end-score", "30")) == 0
    assert "(no points left to take)" in console.text
    silent = Console(monkeypatch)
    args = parse_args("--seed", "26", "--end-score", "30", "--no-auto-play-one")
    assert run_plain(args) == 0
    assert "(no points left to take)" not in silent.text


@pytest.mark.parametrize(
    ("players", "preset"), [(3, "standard"), (5, "source-002"), (6, "source-003")]
)
def test_other_player_counts(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, players: int, preset: str
) -> None:
    path = tmp_path / "game.json"
    console = Console(monkeypatch)
    args = parse_args(
        "--players", str(players), "--preset", preset, "--seed", "2", "--end-score", "20",
        "--save", str(path), "--name", "Ann",
    )  # fmt: skip
    assert run_plain(args) == 0
    game = load(str(path))
    assert game.is_over and game.rules.players == players
    # The human sits at seat 0 even where the seating is shuffled.
    assert game.names[0] == "Ann"
    assert "Game over" in console.text


def test_hand_display_and_legal_marks(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    console = Console(monkeypatch, lines=("2c 3c 4c",))
    game = Game(Rules.preset("standard"), seed=1)
    hands = [
        "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
        "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
        "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
        "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
    ]
    game.replace_hands(hands)
    session = PlainSession(
        game,
        {s: make_bot("random", s) for s in (1, 2, 3)},
        save_path=str(tmp_path / "g.json"),
        style=Style(True),
    )
    console.limit = 3
    assert session.run() == 0
    text = console.text
    assert "  ♣ clubs: 2 3 4 5 6 7 8 9 10 J Q K A\n  ♦ diamonds: -" in text
    # After passing 2-4♣ away, you hold 5♣.. and receive three hearts from East.
    assert "You pass 2♣ 3♣ 4♣ to West." in text
    assert re.search(r"You receive \S+♥ \S+♥ \S+♥ from East\.", text)


def test_one_card_passed_is_said_in_the_singular(monkeypatch: pytest.MonkeyPatch) -> None:
    console = Console(monkeypatch, lines=("2c 3c",), limit=3)
    run_plain(parse_args("--seed", "5", "-o", "cards_passed=1"))
    text = console.text
    assert "Deal 1. You deal. Pass one card to the left (West)." in text
    assert "Pass one card to the left (West): " in text
    assert "Pass exactly one card; you named two." in text
    assert "cards to the left" not in text


def test_bad_input_gets_reasons(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    state = {"illegal": False, "bad": 0}

    def player(transcript: str) -> str:
        prompt = transcript.rsplit("\n", 1)[-1]
        if prompt.startswith("Your card") and not state["illegal"]:
            legal = {Card.parse(c) for c in may_play(transcript)}
            illegal = [c for c in hand_from(transcript) if Card.parse(c) not in legal]
            if illegal:
                state["illegal"] = True
                return illegal[0]
        return sensible(transcript)

    lines = (
        "",
        "xyzzy",
        "2c 2c 3c",
        "2c",
        "frobnicate now",
        "g now",
        "9s 9s 9s",
        "10c 10c 10c",
        "10h",
    )
    console = Console(monkeypatch, player, lines=lines, limit=60)
    path = tmp_path / "g.json"
    assert run_plain(parse_args("--seed", "5", "--save", str(path))) == 0
    text = console.text
    assert "Name three cards from your hand, e.g." in text
    # A word that is no card and no command is told as such, in a sentence.
    assert "'xyzzy' is neither a card nor a command: type 'help' for the commands." in text
    assert "You named the 2♣ twice." in text or "You do not hold" in text
    assert "Pass exactly three cards; you named one." in text
    assert "'frobnicate' is neither a card nor a command" in text
    # A key letter with words after it was tried as cards: the letter alone is the command.
    assert "Cannot read 'g' as a card" in text and "For the command 'g', type it alone." in text
    # A ten is written 10 in every refusal, as in the hand; a card named thrice says so.
    assert "You named the 10♣ three times." in text
    assert "T♣" not in text and "T♥" not in text
    reason = r"You cannot play the \S+: (you hold \S+, and must follow suit|the first trick|hearts)"
    assert re.search(reason, text)
    assert "Traceback" not in text
    assert state["illegal"]
    # Out of answers: saved, and the record is good.
    assert "The game is saved in" in text
    assert not load(str(path)).is_over


def test_not_held_and_one_card_at_a_time(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    game = Game(Rules.preset("standard", pass_cycle=("hold",)), seed=1)
    game.replace_hands(
        [
            "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
            "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
            "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
            "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
        ]
    )
    lines = ("2c 3c", "ah", "3c", "2c", "last", "scores")
    console = Console(monkeypatch, lines=lines, limit=len(lines))
    session = PlainSession(
        game,
        {s: make_bot("random", s) for s in (1, 2, 3)},
        save_path=str(tmp_path / "g.json"),
        auto_play_one=False,
    )
    assert session.run() == 0
    text = console.text
    assert "A hold hand: no passing." in text
    assert "Play one card at a time." in text
    assert "You do not hold the A♥." in text
    assert "You cannot play the 3♣: the first trick must be led with the 2♣." in text
    # Everyone else is void in clubs: you take the first trick with whatever East threw.
    assert re.search(
        r"Trick 1: South \(you\) 2♣, West \S+, North \S+, East (\S+)♥\. "
        r"South \(you\) takes it \(1 point\)\.",
        text,
    )
    assert "Points taken so far in deal 1: You 1, West 0, North 0, East 0." in text


def test_undo_takes_back_the_bots_cards_too(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    game = Game(Rules.preset("standard", pass_cycle=("hold",)), seed=3)
    bots = {s: make_bot("random", s) for s in (1, 2, 3)}
    console = Console(monkeypatch, limit=4)
    session = PlainSession(game, bots, save_path=str(tmp_path / "g.json"), auto_play_one=False)
    # Play the first card, then take it back.
    console.lines = iter(["undo"])
    assert session.run() == 0
    assert "There is nothing of yours to undo yet." in console.text

    answers = iter(["", "undo"])

    def player(transcript: str) -> str:
        answer = next(answers, None)
        if answer == "":
            return sensible(transcript)
        return answer or "quit"

    console.player = player
    console.asked, console.limit = 0, 10
    before = [game.hand(s) for s in range(4)]
    session._announced_deal = None
    assert session.run() == 0
    text = console.text
    assert re.search(r"Taken back: your \S+, and \d cards? played after it\.", text)
    mover = game.current_player
    assert mover == 0
    assert game.hand(0) == before[0]


def play_moon_choice(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, player: Callable[[str], str]
) -> tuple[Game, str]:
    """Three players, the person holding every heart and the top spades, leading: the
    person shoots the moon and chooses how it scores, answering as ``player`` does.  The
    game and the transcript."""
    rules = Rules.preset(
        "standard",
        players=3,
        moon="shooter_chooses",
        pass_cycle=("hold",),
        first_lead="JS",
        first_trick="allowed",
        hearts_break="never_restricted",
        end_score=200,
    )
    hearts = "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH"
    hands = [
        f"{hearts} JS QS KS AS",
        "2S 3S 4S 5S 6S 2C 3C 4C 5C 6C 7C 8C 9C 3D 4D 5D 6D",
        "7S 8S 9S TS TC JC QC KC AC 7D 8D 9D TD JD QD KD AD",
    ]
    game = Game(rules, seed=1)
    game.replace_hands(hands)
    console = Console(monkeypatch, player, limit=40)
    session = PlainSession(
        game, {1: make_bot("random", 1), 2: make_bot("random", 2)},
        save_path=str(tmp_path / "g.json"),
    )  # fmt: skip
    session.run()
    return game, console.text


def test_moon_choice_prompt(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    def player(transcript: str) -> str:
        if transcript.endswith("[add]: ") and "Type 'add'" not in transcript:
            return "maybe"
        return sensible(transcript)

    game, text = play_moon_choice(monkeypatch, tmp_path, player)
    assert "You shot the moon! Choose: 'add' gives everyone else 26 points" in text
    assert text.count("You shot the moon!") == 1  # the prompt says it, once
    assert "The usual choice here is add." in text
    assert "Type 'add' or 'subtract'" in text
    assert "You shot the moon (took every point card) and chose that everyone else adds 26." in text
    assert text.count(" chose") == 1  # said with the deal's result, not before it too
    assert game.results[0].points == (0, 26, 26)


def test_the_score_sheet_says_which_deal_a_moon_scored(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The terminal and web sheets mark a moon's (or a sun's) deal with ☾ (☀); the plain
    sheet showed 0, 26, 26 and nothing of how they came about."""
    asked: list[int] = []

    def player(transcript: str) -> str:
        if "chose that everyone else adds" in transcript and not asked:
            asked.append(len(transcript))
            return "scores"
        return sensible(transcript)

    _, text = play_moon_choice(monkeypatch, tmp_path, player)
    sheet = text[asked[0] :].splitlines()
    said = (
        "  Deal 1: You shot the moon (took every point card) and chose that everyone else adds 26."
    )
    assert said in sheet, sheet


def test_a_file_saved_at_the_moon_prompt_keeps_its_name(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    target = tmp_path / "MoonSave.json"

    def player(transcript: str) -> str:
        if transcript.endswith("[add]: ") and "MoonSave" not in transcript:
            return f"save {target}"
        return sensible(transcript)

    game, text = play_moon_choice(monkeypatch, tmp_path, player)
    assert f"The game is saved in {target}." in text
    assert target.exists() and game.results[0].shooter == 0


def test_go_makes_the_moon_choice(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    def player(transcript: str) -> str:
        return "go" if transcript.endswith("[add]: ") else sensible(transcript)

    game, text = play_moon_choice(monkeypatch, tmp_path, player)
    assert "[add]: go\nThinking...\nThe computer chooses for you: everyone else adds 26." in text
    assert game.results[0].points == (0, 26, 26)


def test_auto_play_one(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    console = Console(monkeypatch, limit=400)
    run_plain(parse_args("--seed", "9", "--end-score", "5", "--save", str(tmp_path / "a.json")))
    assert "(your only legal card)." in console.text
    console2 = Console(monkeypatch, limit=400)
    args = parse_args("--seed", "9", "--end-score", "5", "--no-auto-play-one")
    args.save = str(tmp_path / "b.json")
    run_plain(args)
    assert "(your only legal card)" not in console2.text


def test_missing_level_falls_back_to_random(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import openhearts.session.seats as seats

    def broken(level: str, seed: object = 0) -> object:
        if level != "random":
            raise ImportError("not written yet")
        return make_bot(level, seed)

    monkeypatch.setattr(seats, "make_bot", broken)
    console = Console(monkeypatch, lines=("quit",))
    assert run_plain(parse_args("--level", "easy", "--save", str(tmp_path / "g.json"))) == 0
    assert "The 'easy' computer players are not available (not written yet)" in console.text
    assert "The game is saved in" in console.text


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("--opponents", "A,B,C,D"), "--opponents: 4 names for 3 computer players"),
        (("-o", "moon=sideways"), "moon"),
        (("--level", "genius"), "no bot level 'genius'"),
        (("-o", "first_lead=1C"), "first_lead: '1' is no rank here"),
        # The game began, each seat of the program taken over by a random player in turn.
        (("--level", "cmd:/nonexistent/program"), "--level cmd:/nonexistent/program: the pro"),
        (("--resume", "/nonexistent/file.json"), "cannot resume"),
    ],
)
def test_bad_command_lines(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], argv: tuple[str, ...],
    message: str,
) -> None:  # fmt: skip
    monkeypatch.setattr(builtins, "input", lambda prompt="": pytest.fail("asked for input"))
    assert run_plain(parse_args(*argv)) == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize("option", ["--save", "--resume"])
def test_an_empty_file_name_is_refused(option: str, capsys: pytest.CaptureFixture[str]) -> None:
    """``--save ''`` was taken for no option: the game went to the default file."""
    with pytest.raises(SystemExit):
        parse_args(option, " ")
    assert f"{option}: a file name, not nothing" in capsys.readouterr().err
    # A line break split every message naming the file, and the command printed to
    # resume could not be pasted back.
    with pytest.raises(SystemExit):
        parse_args(option, "game\n.json")
    assert "a file name without control characters" in capsys.readouterr().err
    # "games/" saved to a file called games; saving into a lock file let a second game in.
    for name, said in (("games/", "not a folder's"), ("g.json.lock", "not ending in .lock")):
        with pytest.raises(SystemExit):
            parse_args(option, name)
        assert said in capsys.readouterr().err


def test_damaged_statistics_are_said_by_the_stats_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENHEARTS_HOME", str(tmp_path))
    (tmp_path / "statistics.json").write_text("[]", encoding="utf-8")
    console = Console(monkeypatch, lines=("i", "quit"))
    assert run_plain(parse_args("--seed", "1")) == 0
    said = f"{tmp_path / 'statistics.json'} could not be read as statistics; it is kept as "
    assert said + "statistics.json.bad, and they start again from here." in console.text


def test_no_auto_play_one_is_taken_by_a_resumed_game(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A resumed game kept the saved auto play one without a word, and the plain game
    has no other way to turn it off."""
    path = tmp_path / "g.json"
    save_session(str(path), Game(seed=3), SessionInfo((0,), "random", True))
    Console(monkeypatch, lines=("quit",))
    assert run_plain(parse_args("--resume", str(path), "--no-auto-play-one")) == 0
    assert load_session(str(path))[1] == SessionInfo((0,), "random", False)


def test_resume_and_save_naming_one_file_otherwise_spelled_keep_nothing_aside(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``--resume ./g.json --save g.json`` (one file, two spellings) moved the game being
    resumed aside as "an unfinished game" to g-unfinished-1.json, and said to resume it
    from there: a second copy of the same game. The terminal game compares the files,
    not their spellings."""
    monkeypatch.chdir(tmp_path)
    save_session("g.json", Game(seed=3), SessionInfo((0,), "random", True))
    console = Console(monkeypatch, lines=("quit",))
    assert run_plain(parse_args("--resume", "./g.json", "--save", "g.json")) == 0
    assert "An unfinished game was in" not in console.text
    assert sorted(path.name for path in tmp_path.glob("*.json")) == ["g.json"]
    assert load(str(tmp_path / "g.json")).seed == 3


def test_save_to_the_games_own_files_and_the_copy_left_behind(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Found by a tester: ``save ./g.json`` (the game's own file, spelled otherwise) or
    going back to a file saved to before was refused as "another game is open on it",
    and the file left behind by ``save FILE`` was not said to hold an older copy."""
    monkeypatch.chdir(tmp_path)
    lines = ("save ./g.json", "save a.json", "save g.json", "quit")
    console = Console(monkeypatch, lines=lines)
    assert run_plain(parse_args("--seed", "3", "--save", "g.json")) == 0
    assert "another game is open" not in console.text
    assert "The game is saved in ./g.json." in console.text
    assert "./g.json keeps this game as it was before." in console.text
    assert "a.json keeps this game as it was before." in console.text
    assert "Nothing was saved" not in console.text


def test_save_naming_a_folder_or_a_pipe_is_refused_before_either_face(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Found by a tester: the terminal game took a folder or a pipe given to --save for
    a damaged save, moved it to NAME.bad and wrote a file in its place (as root it moved
    /dev/null away)."""
    from openhearts.cli import main

    monkeypatch.setenv("OPENHEARTS_HOME", str(tmp_path / "home"))
    monkeypatch.setattr(builtins, "input", lambda prompt="": pytest.fail("asked for input"))
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "kept.json").write_text("{}", encoding="utf-8")
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    for plain in ([], ["--plain"]):
        assert main(["play", *plain, "--save", str(folder)]) == 2
        assert f"--save {folder}: a folder; name a file, e.g. {folder / 'game.json'}" in (
            capsys.readouterr().err
        )
        assert main(["play", *plain, "--save", str(pipe)]) == 2
        assert "not a regular file" in capsys.readouterr().err
    assert (folder / "kept.json").exists() and stat.S_ISFIFO(pipe.stat().st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games", "pipe"]


def test_a_level_takes_its_options_as_in_the_arena(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """'hard:budget=2' was read as module:Class: "No module named 'hard'"."""
    console = Console(monkeypatch, lines=("quit",))
    path = tmp_path / "g.json"
    assert run_plain(parse_args("--level", "hard:budget=2", "--save", str(path))) == 0
    assert "cannot load" not in console.text and "random" not in console.text
    assert load_session(str(path))[1] == SessionInfo((0,), "hard:budget=2")
    Console(monkeypatch, lines=("quit",))
    assert run_plain(parse_args("--level", "hard:bogus=1", "--save", str(path))) == 2


def test_the_help_lines_up_every_row() -> None:
    from openhearts.plain.commands import HELP

    rows = [line for line in HELP.splitlines() if line.startswith("  ")]
    assert rows[0].startswith("  a card ")
    # Every description starts in the same column.
    assert all(row[22] == " " and row[23] != " " for row in rows), rows


def test_a_level_name_in_any_case() -> None:
    assert parse_args("--level", "Hard").level == "hard"
    assert parse_args("--level", "EXPERT").level == "expert"
    assert parse_args("--level", "mybots.module:Bot").level == "mybots.module:Bot"


def test_a_blank_opponent_name_keeps_its_seats_default(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``--opponents ",Bo"``: West keeps its name and Bo sits North, where typed; the
    blank was dropped and Bo moved to West."""
    path = tmp_path / "saved.json"
    Console(monkeypatch, limit=1)
    assert run_plain(parse_args("--seed", "3", "--save", str(path), "--opponents", " ,Bo,")) == 0
    assert load(str(path)).names == ("You", "West", "Bo", "East")


def test_a_resumed_text_record_stays_as_it_is(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Resuming a PBN-style text record wrote the JSON save into the .pbn file: the
    game goes on in NAME.json beside it, said once, and resumes from there."""

    path = tmp_path / "game.pbn"
    text = pbn.dumps(Game(Rules(end_score=15), seed=4))
    path.write_text(text, encoding="utf-8")
    console = Console(monkeypatch, limit=8)
    assert run_plain(parse_args("--resume", str(path))) == 0
    beside = tmp_path / "game.json"
    assert f"{path} is a text record and stays as it is: this game is saved in {beside}." in (
        console.text
    )
    assert path.read_text(encoding="utf-8") == text
    halfway = load(str(beside))
    assert halfway.actions and not halfway.is_over
    console = Console(monkeypatch)
    assert run_plain(parse_args("--resume", str(beside))) == 0
    assert "Game over" in console.text and load(str(beside)).is_over


def test_eof_saves_and_resume_finishes(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    path = tmp_path / "saved.json"
    console = Console(monkeypatch, limit=20)
    args = parse_args("--seed", "12", "--end-score", "15", "--save", str(path), "--opponents", "Bo")
    assert run_plain(args) == 0
    assert "End of input. The game is saved in" in console.text
    assert f"hearts play --plain --resume {path}" in console.text
    halfway = load(str(path))
    assert not halfway.is_over and halfway.actions
    assert halfway.names[1] == "Bo"

    console = Console(monkeypatch)
    assert run_plain(parse_args("--resume", str(path))) == 0
    assert re.search(r"Resuming the game: deal \d+, against Bo, North and East\.", console.text)
    assert "Game over" in console.text
    done = load(str(path))
    assert done.is_over
    assert done.actions[: len(halfway.actions)] == halfway.actions

    console = Console(monkeypatch)
    assert run_plain(parse_args("--resume", str(path), "--end-score", "99")) == 0
    assert "That game is already over" in console.text
    assert "A resumed game keeps its rules: the rules options apply to new games only." in (
        console.text
    )
    # Found by a tester: a finished text record resumed moved the JSON record beside it
    # (its FILE.json) aside, to save a game that was over.
    text_record = tmp_path / "saved.pbn"
    text_record.write_text(pbn.dumps(done), encoding="utf-8")
    console = Console(monkeypatch)
    assert run_plain(parse_args("--resume", str(text_record))) == 0
    assert "That game is already over" in console.text
    assert load(str(path)).actions == done.actions
    assert sorted(p.name for p in tmp_path.iterdir()) == ["saved.json", "saved.pbn"]


def test_resume_says_which_typed_options_the_saved_game_keeps(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    path = tmp_path / "saved.json"
    Console(monkeypatch, limit=1)
    assert run_plain(parse_args("--seed", "3", "--save", str(path), "--level", "random")) == 0
    console = Console(monkeypatch, limit=1)
    args = parse_args("--resume", str(path), "--level", "hard", "--seed", "9")
    assert run_plain(args) == 0
    assert (
        "A resumed game keeps its computer players (random) and its shuffles: "
        "--level and --seed apply to new games only."
    ) in console.text
    console = Console(monkeypatch, limit=1)
    assert run_plain(parse_args("--resume", str(path), "--level", "random")) == 0
    assert "A resumed game keeps" not in console.text
    # Found by a tester: --opponents was the one typed option left unsaid.
    console = Console(monkeypatch, limit=1)
    assert run_plain(parse_args("--resume", str(path), "--opponents", "Ann,Bo")) == 0
    assert (
        "A resumed game keeps its computer players' names: --opponents applies to new games only."
    ) in console.text


def test_a_resumed_deal_says_what_was_passed_and_received(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    path = tmp_path / "saved.json"
    Console(monkeypatch, limit=1)  # the pass, then the input ends at the first card
    assert run_plain(parse_args("--seed", "3", "--save", str(path), "--no-auto-play-one")) == 0
    console = Console(monkeypatch, limit=1)
    assert run_plain(parse_args("--resume", str(path))) == 0
    assert re.search(
        r"Deal 1\. You deal\. You have passed \S+ \S+ \S+\. "
        r"You received \S+ \S+ \S+ from East\.",
        console.text,
    ), console.text


def test_save_and_quit_commands(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    other = tmp_path / "sub" / "other.json"
    spaced = tmp_path / "with space.json"
    lines = ("save", f"save {other}", f'save "{spaced}"', "save 'a' 'b'", "rules", "help", "quit")
    console = Console(monkeypatch, lines=lines)
    assert run_plain(parse_args("--seed", "1", "--save", str(tmp_path / "g.json"))) == 0
    text = console.text
    assert f"The game is saved in {tmp_path / 'g.json'}." in text
    assert f"The game is saved in {other}." in text
    # A quoted name loses its quotes, as in a shell.
    assert f"The game is saved in {spaced}." in text and spaced.exists()
    assert "Give one file name to save to, in quotes if it has spaces." in text
    assert "The rules of this game:" in text and "Commands (type them" in text
    assert load(str(other)).rules == Rules.preset("standard")


def test_help_ends_with_the_rules_of_the_game(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """As the terminal and web games' help: the keys, then the rules in force."""
    saved = tmp_path / "g.json"
    console = Console(monkeypatch, lines=("help", "quit"))
    assert run_plain(parse_args("--seed", "1", "--preset", "source-002", "--save", str(saved))) == 0
    text = console.text
    ending = "The rules of this game:\n" + "".join(
        f"  {line}\n" for line in Rules.preset("source-002").describe()
    )
    assert ending in text[text.index("Commands (type them") :], text


def _run(*argv: str, env: dict[str, str] | None = None, **kwargs: Any) -> subprocess.Popen[str]:
    environment = {**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})}
    return subprocess.Popen(
        [sys.executable, "-m", "openhearts", "play", "--plain", "--level", "random", *argv],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=environment,
        cwd=ROOT,
        **kwargs,  # type: ignore[call-overload]
    )


def _read_until_prompt(process: subprocess.Popen[str]) -> str:
    assert process.stdout is not None
    fd = process.stdout.fileno()
    data = b""
    while not (data.endswith(b": ") and not data.endswith(b"\n")):
        chunk = os.read(fd, 4096)
        if not chunk:
            break
        data += chunk
    return data.decode()


def test_ctrl_c_saves_cleanly(tmp_path: Path) -> None:
    path = tmp_path / "interrupted.json"
    process = _run("--seed", "6", "--save", str(path), "--end-score", "50")
    assert process.stdin is not None
    transcript = _read_until_prompt(process)
    process.stdin.write(sensible(transcript) + "\n")
    process.stdin.flush()
    transcript += _read_until_prompt(process)
    assert transcript.rstrip().endswith(":")
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=30)
    # As a shell reports a stop by Ctrl-C: a script can tell it from a finished game.
    assert process.returncode == 130, err
    assert "Interrupted. The game is saved in" in out
    assert "Traceback" not in err
    assert load(str(path)).actions


def test_ascii_output_and_piped_play(tmp_path: Path) -> None:
    path = tmp_path / "piped.json"
    process = _run("--seed", "8", "--save", str(path), env={"PYTHONIOENCODING": "ascii"})
    out, err = process.communicate("2c 3c\nqs\nhand\n", timeout=30)
    assert process.returncode == 0, err
    assert "Traceback" not in err
    assert "  clubs: " in out and "♣" not in out
    assert "You may play:" in out or "Pass exactly three" in out
    assert "End of input. The game is saved in" in out


def test_a_line_the_input_encoding_cannot_read_is_asked_again(tmp_path: Path) -> None:
    path = tmp_path / "piped.json"
    process = _run("--seed", "8", "--save", str(path), env={"PYTHONIOENCODING": "ascii"})
    out, err = process.communicate("Q♠\nhand\n", timeout=30)
    assert process.returncode == 0, err
    assert "Traceback" not in err
    assert "That line cannot be read as ascii: type it again" in out
    # The line after it is read (it was lost with the line that could not be).
    assert "Your hand:" in out.split("cannot be read as ascii", 1)[1]
    assert "End of input. The game is saved in" in out


def test_ctrl_c_while_a_bot_thinks_is_deferred(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # A Ctrl-C while a computer player thinks only takes effect between actions.
    game = Game(Rules.preset("standard"), seed=2)
    bots = {s: make_bot("random", s) for s in (1, 2, 3)}
    path = tmp_path / "g.json"
    console = Console(monkeypatch)
    session = PlainSession(game, bots, save_path=str(path))

    class Interrupting:
        def __init__(self) -> None:
            self.inner = bots[1]

        def choose_pass(self, view: object) -> CardSet:
            os.kill(os.getpid(), signal.SIGINT)
            return self.inner.choose_pass(view)  # type: ignore[arg-type]

        def choose_play(self, view: object) -> Card:
            return self.inner.choose_play(view)  # type: ignore[arg-type]

        def choose_moon(self, view: object) -> bool:
            return True

    session.bots[1] = Interrupting()  # type: ignore[assignment]
    assert session.run() == 130
    assert "Interrupted. The game is saved in" in console.text
    saved = load(str(path))
    # West's pass (the computer players pass first) went through whole before the game
    # stopped.
    assert saved.actions == game.actions
    assert [(type(a), a.seat) for a in saved.actions] == [(Pass, 1)]


def test_transcript_save_is_a_valid_record(tmp_path: Path) -> None:
    game = Game(Rules.preset("standard"), seed=1)
    save(game, str(tmp_path / "empty.json"))
    assert load(str(tmp_path / "empty.json")).actions == []


def test_resume_keeps_shuffled_seats(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    path = tmp_path / "shuffled.json"
    Console(monkeypatch, limit=6)
    args = parse_args(
        "--preset", "source-002", "--players", "5", "--seed", "13", "--name", "Ann",
        "--opponents", "Bo,Cy,Di,Ed", "--end-score", "20", "--save", str(path),
    )  # fmt: skip
    assert run_plain(args) == 0
    seated = load(str(path)).names
    assert seated[0] == "Ann" and sorted(seated[1:]) == ["Bo", "Cy", "Di", "Ed"]
    console = Console(monkeypatch)
    assert run_plain(parse_args("--resume", str(path))) == 0
    others = ", ".join(seated[1:4]) + " and " + seated[4]
    assert f"against {others}." in console.text
    assert load(str(path)).names == seated


SUIT_HANDS = [
    "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
    "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
    "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
]


def test_a_typed_1_is_refused_not_read_as_the_ace(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """ "1c" is more likely a ten that lost its 0 than the ace: refused, nothing played."""
    game = Game(Rules.preset("standard", pass_cycle=("hold",)), seed=1)
    game.replace_hands(SUIT_HANDS)
    game.play("2C")
    for _ in range(3):
        game.play(game.legal_plays().cards()[0])
    lines = ("1c",)
    console = Console(monkeypatch, lines=lines, limit=len(lines))
    bots = {s: make_bot("random", s) for s in (1, 2, 3)}
    before = len(game.actions)
    session = PlainSession(game, bots, save_path=str(tmp_path / "g.json"))
    assert session.run() == 0
    assert "'1' is no rank here: type A for the ace, or 10 for the ten." in console.text
    assert len(game.actions) == before


def _played_to_the_end_of(
    lines: tuple[str, ...], game: Game, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> str:
    """What the plain game printed for ``lines`` typed against random players."""
    console = Console(monkeypatch, lines=lines, limit=len(lines))
    bots = {s: make_bot("random", s) for s in (1, 2, 3)}
    session = PlainSession(game, bots, save_path=str(tmp_path / "g.json"))
    assert session.run() == 0
    return console.text


def test_undo_back_to_an_automatic_card(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    game = Game(Rules.preset("standard", pass_cycle=("hold",)), seed=1)
    game.replace_hands(SUIT_HANDS)
    lines = ("3c", "undo", "undo", "hand")
    text = _played_to_the_end_of(lines, game, monkeypatch, tmp_path)
    assert "You lead 2♣ (your only legal card)." in text
    assert "Taken back: your 3♣, and 3 cards played after it." in text
    # Before it, only the 2♣ that was your sole legal card: nothing to take back (auto
    # play one would play it again at once), in every face alike.
    assert (
        "There is nothing of yours to take back: your cards so far were your only legal ones."
    ) in text
    assert len(game.actions) == 4 and game.actions[0] == Play(0, Card.parse("2C"))


def test_after_an_undo_back_to_the_pass_the_forced_lead_is_played_again(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """One undo after the 2♣ led for you goes back to the pass; pass again, and auto
    play one leads the 2♣ again (it waited: the undo's flag outlived the pass)."""
    game = Game(Rules(), seed=6)  # seat 0 is dealt the 2♣
    kept = " ".join(str(c) for c in game.hand(0).cards() if str(c) != "2C")
    passed = " ".join(kept.split()[:3])
    lines = (passed, "undo", passed)
    text = _played_to_the_end_of(lines, game, monkeypatch, tmp_path)
    assert text.count("You lead 2♣ (your only legal card).") == 2, text
    # Every card led for you after the pass was forced: all go back with it.
    assert "Taken back: your pass of 7♣ 8♣ 9♣ and your 2♣" in text


def test_after_an_undo_back_to_the_moon_choice_the_forced_lead_is_played_again(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """After an undo back to the moon question, the 2♣ of the next deal waited to be
    typed: the undo's flag outlived the moon choice (found by a tester)."""
    next_deal = [
        "2C " + " ".join(rank + "S" for rank in "23456789TJQK"),
        "3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC AS",
        SUIT_HANDS[1],
        SUIT_HANDS[3],
    ]
    rules = Rules.preset("source-000", pass_cycle=("hold",))
    game = Game(rules, seed=1, hands=[SUIT_HANDS, next_deal])  # you shoot the moon
    while game.phase == "playing":
        game.play(game.legal_plays().cards()[0])
    lines = ("add", "undo", "subtract")
    text = _played_to_the_end_of(lines, game, monkeypatch, tmp_path)
    assert "Taken back: your moon choice and your 2♣" in text
    assert text.count("You lead 2♣ (your only legal card).") == 2, text


def test_hint(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    game = Game(Rules.preset("standard", pass_cycle=("hold",)), seed=1)
    game.replace_hands(SUIT_HANDS)
    lines = ("hint", "3c", "hint")
    console = Console(monkeypatch, lines=lines, limit=len(lines))
    bots = {s: make_bot("random", s) for s in (1, 2, 3)}
    PlainSession(game, bots, save_path=str(tmp_path / "g.json")).run()
    text = console.text
    assert "Hint: the strongest computer player would play the " in text
    # Every card with its points and, in brackets, what it is ranked by: best first.
    ranked = re.findall(r"\n  \S+: -?\d+\.\d \(([+-]\d+\.\d)\)", text)
    assert len(ranked) >= 2 and [float(v) for v in ranked] == sorted(float(v) for v in ranked)
    assert re.search(r"\n  A♣: -?\d+\.\d \([+-]\d+\.\d\)\n", text)
    # The number holds the fear of moons, and says so (a likely moon by another player
    # showed +34.7 "against the others" where the deal would give +8.7).
    said = "against the others' average, another player's moon counting its full points once more"
    assert said in " ".join(text.split())


def test_pass_hint(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The plain game gives pass hints too (it used to say hints were for playing)."""
    bots = {s: make_bot("random", s) for s in (1, 2, 3)}
    console = Console(monkeypatch, lines=("hint", "h"), limit=2)
    PlainSession(Game(seed=1), bots, save_path=str(tmp_path / "g.json")).run()
    text = console.text
    assert text.count("Hint: the strongest computer player would pass the ") == 2
    # Every pass weighed with its points and, in brackets, what it is ranked by: best first.
    ranked = re.findall(r"\n  \S+ \S+ \S+: -?\d+\.\d \(([+-]\d+\.\d)\)", text)
    assert len(ranked) >= 4 and [float(v) for v in ranked[: len(ranked) // 2]] == sorted(
        float(v) for v in ranked[: len(ranked) // 2]
    )
    assert "Hints are for choosing a card to play." not in console.text
    assert "moon counting" not in text  # passes are ranked without the fear


def test_play_for_me(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """'go' (or 'g') has the computer pass and play in the person's place, what a hint
    would suggest; the game goes on from there as after the person's own choice."""
    bots = {s: make_bot("random", s) for s in (1, 2, 3)}
    console = Console(monkeypatch, lines=("go", "g", "G"), limit=3)
    game = Game(seed=1)
    PlainSession(game, bots, save_path=str(tmp_path / "g.json")).run()
    text = console.text
    passed = re.search(r"The computer passes the (\S+), the (\S+) and the (\S+) for you\.", text)
    assert passed is not None
    # The line names the cards: the game does not say them a second time.
    assert "You pass " not in text
    chosen = re.findall(r"The computer plays the (\S+) for you\.", text)
    assert len(chosen) == 2
    assert not any(f"You play {c}." in text or f"You lead {c}." in text for c in chosen), text
    mine = [action for action in game.actions if action.seat == 0]
    assert mine[0] == Pass(0, CardSet.parse(" ".join(passed.groups())))
    assert [Play(0, Card.parse(card)) in mine for card in chosen] == [True, True]


def test_tricks_of_a_deal(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """'tricks' shows every trick of the deal so far, 'tricks N' those of deal N; anything
    else says which deals there are."""
    game = Game(Rules.preset("standard", pass_cycle=("hold",)), seed=1)
    game.replace_hands(SUIT_HANDS)
    lines = ("tricks", "tricks 0", "tricks 2", "tricks 1", "tricks ²", "tricks " + "9" * 5000)
    console = Console(monkeypatch, lines=lines, limit=len(lines))
    bots = {s: make_bot("random", s) for s in (1, 2, 3)}
    PlainSession(game, bots, save_path=str(tmp_path / "g.json")).run()
    text = console.text
    trick = (
        "Deal 1, in progress: 1 trick so far.\n"
        "  Trick 1: South (you) 2♣, West 7♦, North 7♠, East J♥. South (you) takes it (1 point).\n"
    )
    assert f"Your card: tricks\n{trick}" in text and f"Your card: tricks 1\n{trick}" in text
    assert "Your card: tricks 0\nThere is no deal '0' to show: this game has deal 1." in text
    assert "Your card: tricks 2\nThere is no deal '2' to show: this game has deal 1." in text
    # Digits that are not plain ones, and numbers far too long, are refused in words.
    assert "There is no deal '²' to show" in text
    assert f"There is no deal '{'9' * 20}…' to show" in text  # cut, and said to be


def test_last_and_tricks_after_a_deal(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Before the first trick of a deal, 'last' and 'tricks' show the deal just finished."""
    game = Game(Rules.preset("standard", pass_cycle=("hold",)), seed=1)
    game.replace_hands(SUIT_HANDS)
    clubs = [f"{rank}c" for rank in (*"23456789", "10", "j", "q", "k", "a")]
    lines = (*clubs, "last", "tricks", "tricks 3")
    console = Console(monkeypatch, lines=lines, limit=len(lines))
    bots = {s: make_bot("random", s) for s in (1, 2, 3)}
    path = str(tmp_path / "g.json")
    PlainSession(game, bots, save_path=path, auto_play_one=False).run()
    text = console.text
    assert len(game.results) == 1 and not game.view(0).tricks
    assert "Your card: last\nTrick 13 of the previous deal: South (you) A♣, " in text
    summary = (
        "Your card: tricks\nDeal 1: points taken: South (you) 26, West 0, North 0, East 0. "
        "South (you) shot the moon (took every point card): everyone else adds 26.\n"
        "  Trick 1: South (you) 2♣, "
    )
    assert summary in text
    assert text.count("\n  Trick ") == 13
    assert "Your card: tricks 3\nThere is no deal '3' to show: this game has deals 1 to 2." in text


def test_duplicate_names_are_numbered(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    Console(monkeypatch, lines=("quit",))
    assert run_plain(parse_args("--name", "West", "--save", str(path))) == 0
    assert load(str(path)).names == ("West", "West 2", "North", "East")


def test_played_command_lists_cards_played_unseen_and_voids(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    asked = {"cards": 0, "memory": False}

    def player(transcript: str) -> str:
        prompt = transcript.rsplit("\n", 1)[-1]
        if prompt.startswith("Your card"):
            asked["cards"] += 1
            if asked["cards"] == 6 and not asked["memory"]:
                asked["memory"] = True
                return "played"
        return sensible(transcript)

    console = Console(monkeypatch, player=player, limit=40)
    run_plain(parse_args("--seed", "4"))
    text = console.text
    start = text.index("Your card: played")
    memory = text[start : text.index("Your card:", start + 10)]
    assert "Played in deal 1:" in memory
    assert "♣ clubs: 2♣" in memory, "the first trick's 2♣ is listed as played"
    assert "(not seen yet: " in memory
    assert "Known voids: " in memory
    assert "Hearts are broken." in memory or "Hearts are not broken yet." in memory


def test_output_closed_by_its_reader_still_saves(tmp_path: Path) -> None:
    """``hearts play --plain ... | head -3``: the reader goes away, the game reads on to
    the end of its input and saves, without a traceback."""
    path = tmp_path / "piped.json"
    process = _run("--seed", "7", "--save", str(path))
    assert process.stdin is not None and process.stdout is not None
    process.stdout.readline()
    process.stdout.close()
    _, err = process.communicate("help\nr\nhelp\nquit\n", timeout=60)
    assert process.returncode == 0, err
    assert "Traceback" not in err and "BrokenPipe" not in err, err
    assert not load(str(path)).is_over


def test_replay_into_a_closed_pipe_says_nothing_more(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    save(Game(seed=3), str(path))
    process = subprocess.Popen(
        [sys.executable, "-m", "openhearts", "replay", str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
    )
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()
    err = process.stderr.read().decode()
    process.wait(timeout=60)
    assert "Traceback" not in err and "BrokenPipe" not in err, err


@pytest.mark.parametrize("signum", [signal.SIGHUP, signal.SIGTERM, signal.SIGKILL])
def test_a_closed_terminal_or_kill_saves_the_game(tmp_path: Path, signum: int) -> None:
    """SIGHUP (the terminal closed), SIGTERM, even SIGKILL after two cards: the game is
    saved (each of the person's choices is saved as it is made)."""
    path = tmp_path / "signalled.json"
    process = _run("--seed", "6", "--save", str(path), "--no-auto-play-one")
    assert process.stdin is not None
    transcript = _read_until_prompt(process)
    for _ in range(3):  # the pass, then two cards
        process.stdin.write(sensible(transcript) + "\n")
        process.stdin.flush()
        transcript += _read_until_prompt(process)
    assert transcript.rstrip().endswith("Your card:")
    process.send_signal(signum)
    out, err = process.communicate(timeout=30)
    if signum != signal.SIGKILL:
        assert process.returncode == 128 + signum, err
        assert "Traceback" not in err
        assert "The game is saved in" in out
    plays = [a for a in load(str(path)).actions if a.seat == 0]
    assert len(plays) >= 3  # the pass and both cards are in the saved game


def test_a_failed_save_keeps_the_save_file_and_quit_still_saves(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    path = tmp_path / "g.json"
    console = Console(monkeypatch, lines=(f"save {tmp_path}", "quit"))
    assert run_plain(parse_args("--seed", "1", "--save", str(path))) == 0
    text = console.text
    assert f"Could not save the game to {tmp_path}:" in text
    assert f"The game is saved in {path}." in text
    assert load(str(path)).names[0] == "You"


def test_a_file_in_the_way_of_a_save_is_said_as_such(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A file where a folder should be was said as "File exists"."""
    blocker = tmp_path / "afile"
    blocker.write_text("")
    console = Console(monkeypatch, lines=(f"save {blocker / 'g.json'}", "quit"))
    assert run_plain(parse_args("--seed", "1", "--save", str(tmp_path / "g.json"))) == 0
    assert f"Could not save the game to {blocker / 'g.json'}: Not a directory." in console.text


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_a_pipe_named_as_the_save_file_is_refused_not_waited_on(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A named pipe (or /dev/zero) given to --resume was read without end: the game
    hung for ever, or filled the memory.  ``save PIPE`` put a file in its place."""
    pipe = tmp_path / "pipe.json"
    os.mkfifo(pipe)
    monkeypatch.setattr(builtins, "input", lambda prompt="": pytest.fail("asked for input"))
    assert run_plain(parse_args("--resume", str(pipe))) == 2
    assert "not a regular file (a device, a pipe or a socket)" in capsys.readouterr().err
    console = Console(monkeypatch, lines=(f"save {pipe}", "quit"))
    assert run_plain(parse_args("--seed", "1", "--save", str(tmp_path / "g.json"))) == 0
    assert f"Could not save the game to {pipe}: not a regular file" in console.text
    assert stat.S_ISFIFO(os.stat(pipe).st_mode)


def test_control_characters_typed_are_written_out_not_sent_to_the_terminal(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """An escape sequence typed after a command came back in the reply as it was: the
    terminal obeyed it (cleared the screen, retitled the window)."""
    monkeypatch.chdir(tmp_path)
    lines = ("tricks \x1b[2J", "save \x1b]0;owned\x07.json", "quit")
    console = Console(monkeypatch, lines=lines)
    assert run_plain(parse_args("--seed", "1", "--save", str(tmp_path / "g.json"))) == 0
    assert "\x1b" not in console.text and "\x07" not in console.text
    assert "There is no deal '\\x1b[2J' to show" in console.text
    # A file name is refused with one (the command printed to resume could not be pasted).
    assert "Give a file name without control characters" in console.text
    assert [path.name for path in tmp_path.iterdir() if "owned" in path.name] == []


def test_a_word_command_with_words_after_it_is_said_as_such(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``go now`` was read as cards ("Cannot read 'go' as a card"); every other word
    command says it takes nothing after it."""
    console = Console(monkeypatch, lines=("go now", "quit"))
    assert run_plain(parse_args("--seed", "1")) == 0
    assert "'go' takes nothing after it: type 'go' alone." in console.text


def test_save_file_refuses_a_file_another_game_holds(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Found by a tester: ``save FILE`` took a file another running game held, and the
    two games wrote over each other (only --save and --resume were checked)."""
    from openhearts.session.saving import only_this_game_on

    held = tmp_path / "held.json"
    with only_this_game_on(held):
        console = Console(monkeypatch, lines=(f"save {held}", "quit"))
        assert run_plain(parse_args("--seed", "1", "--save", str(tmp_path / "g.json"))) == 0
    assert f"Nothing was saved to {held}: another game is open on it" in console.text
    assert not held.exists()


def test_a_home_folder_of_nobody_is_a_plain_name(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Found by a tester: "~nobody/x.json" (no such user) stopped the game with
    RuntimeError from pathlib; a shell leaves such a name as it is, and so does the game."""
    monkeypatch.chdir(tmp_path)
    console = Console(monkeypatch, lines=("save ~nobody-here/y.json", "quit"))
    assert run_plain(parse_args("--seed", "1", "--save", "~nobody-here/x.json")) == 0
    assert "The game is saved in ~nobody-here/y.json." in console.text
    assert (tmp_path / "~nobody-here" / "y.json").exists()


def test_a_finished_game_in_the_save_file_is_kept_for_its_replay(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Found by a tester: the game's end says "see it again with hearts replay FILE",
    and the next game saved to FILE wrote over it without a word."""
    finished = Game(Rules(end_score=1), seed=2)
    bots = [make_bot("random", seed=s) for s in range(4)]
    while not finished.is_over:
        act(finished, finished.to_act()[0], bots[finished.to_act()[0]])
    path = tmp_path / "g.json"
    save_session(path, finished, SessionInfo())
    console = Console(monkeypatch, lines=("quit",))
    assert run_plain(parse_args("--seed", "9", "--save", str(path))) == 0
    kept = tmp_path / "g-finished-1.json"
    assert (
        f"The finished game in {path} is kept in {kept}: see it again with hearts replay {kept}"
    ) in console.text
    assert load_session(kept)[0].actions == finished.actions
    assert load_session(path)[0].seed == 9


def test_the_score_sheet_of_a_game_started_from_totals_shows_them(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Found by a tester: in a record made elsewhere starting from totals, "scores" said
    "every total is 0" while "s" said 50, 73, 80, 90, and no row showed where the
    totals came from."""
    path = tmp_path / "started.json"
    save(Game(Rules(), seed=4, scores=[50, 73, 80, 90]), str(path))
    console = Console(monkeypatch, lines=("scores", "quit"))
    assert run_plain(parse_args("--resume", str(path))) == 0
    assert "every total is 0" not in console.text
    start = next(line for line in console.text.splitlines() if "Start" in line)
    total = next(line for line in console.text.splitlines() if "Total" in line)
    assert start.split()[1:] == total.split()[1:] == ["50", "73", "80", "90"]


def test_the_score_tables_line_up_names_two_columns_wide(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Names in Chinese, or with an emoji, take two columns a letter on screen: the
    score tables were padded by letters, and every number after such a name stood one
    column (or three) out of line."""
    from openhearts.session.names import columns

    console = Console(monkeypatch)
    argv = ("--seed", "3", "--end-score", "1", "--opponents", "李小龍,Zoë🦊,北京")
    run_plain(parse_args(*argv, "--level", "random", "--save", str(tmp_path / "g.json")))
    lines = console.text.splitlines()
    after = lines[lines.index("Deal 1 is over.") + 1 :]
    deal = after[:5]
    assert deal[0].split() == ["This", "deal", "Total"], deal
    assert len({columns(line) for line in deal}) == 1, deal
    heading = next(line for line in after if "李小龍" in line and "北京" in line)
    sheet = after[after.index(heading) :][:3]  # the names, deal 1, the totals
    assert sheet[2].split()[0] == "Total", sheet
    assert len({columns(line) for line in sheet}) == 1, sheet


def test_quit_saves_elsewhere_when_the_save_file_cannot_be_written(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("not a directory")
    console = Console(monkeypatch, lines=("quit",))
    assert run_plain(parse_args("--seed", "1", "--save", str(blocked / "g.json"))) == 0
    saved = Path(console.text.split("The game is saved in ", 1)[1].split(".json", 1)[0] + ".json")
    assert f"Could not save the game to {blocked / 'g.json'}" in console.text
    assert load(str(saved)).seed == 1


def test_saving_as_it_goes_moves_elsewhere_when_the_save_file_cannot_be_written(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The save after each choice is what a kill -9 leaves: it must not fail silently."""
    blocked = tmp_path / "file"
    blocked.write_text("not a directory")
    monkeypatch.setenv("OPENHEARTS_HOME", str(tmp_path / "home"))
    console = Console(monkeypatch, lines=("go",))
    run_plain(parse_args("--seed", "1", "--save", str(blocked / "g.json")))
    text = console.text
    before_eof = text.split("The game is saved in ", 1)[1]
    assert before_eof.split(" ", 1)[1].startswith("from now on."), text
    saved = before_eof.split(" ", 1)[0]
    assert len(load(saved).actions) >= 1


def test_saving_elsewhere_never_takes_the_default_file_another_window_plays_in(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Found in review: when the save file could not be written, the game moved aside
    the game another window was playing in the default file, and the two wrote over
    each other.  It goes to NAME-2.json beside it now, held like the first."""
    from openhearts.session.saving import only_this_game_on

    blocked = tmp_path / "file"
    blocked.write_text("not a directory")
    home = tmp_path / "home"
    monkeypatch.setenv("OPENHEARTS_HOME", str(home))
    default = home / "saved-game.json"
    other = Game(seed=5)
    save_session(default, other, SessionInfo())
    with only_this_game_on(default):  # the other window
        console = Console(monkeypatch, lines=("go", "quit"))
        run_plain(parse_args("--seed", "1", "--save", str(blocked / "g.json")))
    beside = home / "saved-game-2.json"
    assert f"The game is saved in {beside} from now on." in console.text, console.text
    assert load_session(default)[0].seed == 5  # left alone, and left where it was
    assert load_session(beside)[0].seed == 1
    assert not list(home.glob("saved-game-unfinished-*"))


class _Killed(BaseException):
    """What a kill -9 at a prompt amounts to: nothing after it runs."""


def test_a_kill_at_the_first_prompt_keeps_the_deal_shown(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    path = tmp_path / "g.json"
    console = Console(monkeypatch)

    def killed(prompt: str = "") -> str:
        raise _Killed

    monkeypatch.setattr(builtins, "input", killed)
    with pytest.raises(_Killed):
        run_plain(parse_args("--seed", "12", "--save", str(path)))
    assert "Your hand:" in console.text
    saved = load(str(path))
    assert saved.seed == 12 and not saved.actions


def test_the_same_keys_as_the_other_faces(monkeypatch: pytest.MonkeyPatch) -> None:
    """Key letters work as commands, in either case: C, 1-6, S, T, R, H, M, W, D, L."""
    lines = ("T", "s", "C", "1", "R", "W", "M", "D", "L", "quit")
    console = Console(monkeypatch, lines=lines, limit=len(lines))
    assert run_plain(parse_args("--seed", "3")) == 0
    text = console.text
    assert "Your turn to pass three cards" in text
    assert "Scores: you 0, West 0" in text
    assert "No cards on the table." in text
    assert "No card 1 on the table." in text
    assert "Your hand:\n  ♣ clubs:" in text.split("Your turn to pass", 1)[1]
    assert "You have won nothing." in text
    assert "No card has been played yet in this deal." in text
    assert "No deal has finished yet" in text
    assert "No trick has been played yet." in text
    assert "cannot read" not in text


def test_a_new_game_keeps_an_unfinished_one_in_its_save_file(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Starting again without --resume must not write over the game left unfinished."""
    path = tmp_path / "game.json"
    Console(monkeypatch, limit=2)
    run_plain(parse_args("--seed", "5", "--save", str(path)))
    first = load(str(path))
    assert not first.is_over and first.actions
    console = Console(monkeypatch, limit=1)
    run_plain(parse_args("--seed", "8", "--save", str(path)))
    kept = tmp_path / "game-unfinished-1.json"
    assert f"An unfinished game was in {path}; it is kept in {kept}" in console.text
    assert load(str(kept)).actions == first.actions
    assert load(str(path)).seed == 8


def test_saving_over_another_unfinished_game_keeps_it_aside(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """`save FILE`, and `--resume A --save B`, wrote over the unfinished game in the file."""
    other = tmp_path / "other.json"
    Console(monkeypatch, limit=1)
    run_plain(parse_args("--seed", "5", "--save", str(other)))
    first = load(str(other))
    assert not first.is_over and first.seed == 5
    console = Console(monkeypatch, lines=(f"save {other}", "quit"))
    run_plain(parse_args("--seed", "2", "--save", str(tmp_path / "mine.json")))
    kept = tmp_path / "other-unfinished-1.json"
    assert f"An unfinished game was in {other}; it is kept in {kept}" in console.text
    assert load(str(kept)).seed == 5 and load(str(other)).seed == 2
    # Resumed from one file and saved to another that holds a game: kept aside too.
    console = Console(monkeypatch, lines=("quit",))
    run_plain(parse_args("--resume", str(kept), "--save", str(other)))
    again = tmp_path / "other-unfinished-2.json"
    assert f"it is kept in {again}" in console.text
    assert load(str(again)).seed == 2 and load(str(other)).seed == 5


def test_words_that_are_no_card_are_told_as_such(monkeypatch: pytest.MonkeyPatch) -> None:
    lines = ("help me", "status", "2 c", "")
    console = Console(monkeypatch, lines=lines, limit=len(lines))
    run_plain(parse_args("--seed", "1", "-o", "pass_cycle=hold"))
    text = console.text
    assert "'help' takes nothing after it: type 'help' alone." in text
    assert "'status' is neither a card nor a command: type 'help' for the commands." in text
    assert "Cannot read 'help" not in text and "Cannot read 'status" not in text


def test_a_game_resumed_mid_trick_says_the_trick_before_the_cards_that_follow(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """As a kill -9 leaves it: saved after the person's card, the computer players to
    follow.  Their cards come after the trick so far, not out of the blue."""
    from openhearts.session.saving import save_session

    path = tmp_path / "saved.json"
    game = Game(Rules.preset("standard", pass_cycle=("hold",)), seed=4)
    bots = {s: make_bot("random", s) for s in range(4)}
    while game.current_player != 0 or not game.deal.trick:
        seat = game.to_act()[0]
        act(game, seat, bots[seat])
    act(game, 0, bots[0])  # the person's card; the trick goes on
    assert game.deal.trick and game.current_player != 0
    save_session(path, game, SessionInfo((0,), "random", False))
    console = Console(monkeypatch, limit=1)
    run_plain(parse_args("--resume", str(path)))
    text = console.text
    said = text.index("Trick ")
    assert ": on the table: " in text[said : said + 40], text
    assert said < text.index(" plays ") or said < text.index(" takes "), text


def test_a_damaged_save_file_or_a_game_in_the_fallback_file_is_kept_aside(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from openhearts.plain.saving import default_save_path

    damaged = tmp_path / "game.json"
    damaged.write_text("garbage", encoding="utf-8")
    console = Console(monkeypatch, limit=1)
    run_plain(parse_args("--seed", "8", "--save", str(damaged)))
    assert f"it is kept as {damaged}.bad" in console.text
    assert (tmp_path / "game.json.bad").read_text(encoding="utf-8") == "garbage"

    # A game left in the default file, then a save file that cannot be written: the
    # fallback to the default file keeps that game aside instead of writing over it.
    Console(monkeypatch, limit=2)
    run_plain(parse_args("--seed", "5"))
    first = load(default_save_path())
    assert not first.is_over
    blocked = tmp_path / "file"
    blocked.write_text("not a directory", encoding="utf-8")
    console = Console(monkeypatch, lines=("quit",))
    run_plain(parse_args("--seed", "12", "--save", str(blocked / "g.json")))
    kept = default_save_path().replace(".json", "-unfinished-1.json")
    assert f"it is kept in {kept}" in console.text
    assert load(kept).actions == first.actions


def test_a_record_made_elsewhere_resumes_with_no_auto_play_one_as_asked(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from openhearts.plain.setup import _resumed_session
    from openhearts.record import save

    path = tmp_path / "record.json"
    save(Game(Rules(), seed=3), str(path))
    assert (
        _resumed_session(parse_args("--resume", str(path), "--no-auto-play-one")).auto_play_one
        is False
    )
    assert _resumed_session(parse_args("--resume", str(path))).auto_play_one is True


def test_a_signal_while_the_finished_game_is_kept_still_counts_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Between the finished record and the statistics the signals were no longer
    caught: the game was saved as finished but never counted.  (Ctrl+C here: SIGTERM
    and SIGHUP take the same way, but uncaught they would end the test run.)"""
    from openhearts.plain import saving

    real = saving.SaveSlot.save_somewhere

    def interrupted(self: saving.SaveSlot, session: object) -> object:
        kept = real(self, session)  # type: ignore[arg-type]
        if session.game.is_over:  # type: ignore[attr-defined]
            os.kill(os.getpid(), signal.SIGINT)
        return kept

    monkeypatch.setattr(saving.SaveSlot, "save_somewhere", interrupted)
    console = Console(monkeypatch, player=lambda transcript: "g")
    argv = ("--seed", "3", "--end-score", "10", "--level", "random")
    assert run_plain(parse_args(*argv, "--save", str(tmp_path / "g.json"))) == 0
    assert "Game over after" in console.text
    assert load(str(tmp_path / "g.json")).is_over
    assert load_stats().games_played == 1
