"""``hearts replay FILE``: a saved game printed trick by trick."""

from __future__ import annotations

import argparse
import dataclasses
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import FirstCardBot
from openhearts import replay
from openhearts.bots import act, make_bot
from openhearts.cards import CardSet
from openhearts.game import Game
from openhearts.phases import MoonScore, Shot
from openhearts.record import dumps, save
from openhearts.rules import Rules
from openhearts.sentences import Style, shot_line, trick_line

ROOT = Path(__file__).resolve().parents[1]


def played(rules: Rules, seed: int, actions: int | None = None) -> Game:
    game = Game(rules, seed=seed)
    bots = [make_bot("random", s) for s in range(rules.players)]
    count = 0
    while not game.is_over and (actions is None or count < actions):
        seat = game.to_act()[0]
        act(game, seat, bots[seat])
        count += 1
    return game


def run_replay(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    parser = argparse.ArgumentParser()
    replay.add_arguments(parser)
    status = replay.run(parser.parse_args(list(argv)))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize(("preset", "players"), [("standard", 4), ("source-003", 6)])
def test_finished_game_prints_every_trick(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, preset: str, players: int
) -> None:
    game = played(Rules.preset(preset, players=players, end_score=40), seed=players)
    path = tmp_path / "game.json"
    save(game, str(path))
    status, out, err = run_replay(capsys, str(path))
    assert status == 0 and err == ""
    lines = out.splitlines()
    names = list(game.names)
    style = Style(True)
    expected = [
        "  " + trick_line(style, names, game.rules, number, trick)
        for result in game.results
        for number, trick in enumerate(result.tricks, start=1)
    ]
    tricks = [line for line in lines if line.startswith("  Trick ")]
    assert tricks == expected
    assert len(tricks) == len(game.results) * game.rules.hand_size
    for result in game.results:
        assert f"Deal {result.number + 1}: {names[result.dealer]} deals, " in out
    winners = " and ".join(names[s] for s in game.winners)
    assert lines[-1].startswith(f"Game over after {len(game.results)} deal")
    assert winners in lines[-1] and f"with {game.scores[game.winners[0]]} points." in lines[-1]
    # The last table's totals are the game's.
    for seat, name in enumerate(names):
        assert any(
            line.split()[:1] == [name] and line.split()[-1] == str(game.scores[seat])
            for line in lines[-len(names) - 2 :]
        )


def test_hands_and_passes(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    game = played(Rules.preset("standard"), seed=3, actions=10)
    path = tmp_path / "g.json"
    save(game, str(path))
    _, out, _ = run_replay(capsys, str(path))
    first = game.deal_states()[0]
    assert f"    South  {Style(True).cards(CardSet(first.dealt[0]))}" in out
    passed = CardSet(first.passes[0] or 0)
    assert f"  South passes {Style(True).cards(passed)} to West." in out
    _, brief, _ = run_replay(capsys, str(path), "--no-hands")
    assert "Hands as dealt" not in brief and "passes" not in brief
    assert "Trick 1: South 2♣" in brief or "Trick 1: " in brief


def test_a_player_called_you_is_spoken_to(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The plain game's person is "You" by default: their record reads "You deal", "You
    pass", "You take", never "You deals"."""
    game = Game(Rules.preset("standard"), seed=3, names=["You", "West", "North", "East"])
    bots = [make_bot("random", s) for s in range(4)]
    while not game.is_over:
        seat = game.to_act()[0]
        act(game, seat, bots[seat])
    path = tmp_path / "you.json"
    save(game, str(path))
    _, out, _ = run_replay(capsys, str(path))
    assert "Deal 1: You deal, passing to the left." in out
    assert re.search(r"^  You pass \S+ \S+ \S+ to West\.$", out, re.MULTILINE)
    assert "You takes" not in out and "You deals" not in out and "You passes" not in out
    assert "You wins" not in out


def test_unfinished_games_say_so(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    # Waiting for passes.
    game = played(Rules.preset("standard"), seed=1, actions=2)
    save(game, str(path))
    status, out, _ = run_replay(capsys, str(path))
    assert status == 0
    assert out.splitlines()[-1] == (
        "The game is unfinished: deal 1 is in progress, waiting for North and East to pass."
    )
    assert "North has not passed yet." in out
    # In the middle of a trick.
    game = played(Rules.preset("standard"), seed=1, actions=4 + 4 * 3 + 2)
    save(game, str(path))
    _, out, _ = run_replay(capsys, str(path))
    mover = game.current_player
    assert mover is not None
    assert out.splitlines()[-1] == (
        f"The game is unfinished: deal 1 is in progress, trick 4, {game.names[mover]} to play."
    )
    assert "  Trick 4 (in progress): " in out
    assert "Game over" not in out


def test_moon_and_pending_moon_choice(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    rules = Rules.preset(
        "standard",
        players=3,
        moon="shooter_chooses",
        pass_cycle=("hold",),
        first_lead="JS",
        first_trick="allowed",
        hearts_break="never_restricted",
    )
    game = Game(rules, seed=1, names=["Ann", "Bob", "Cy"])
    game.replace_hands(
        [
            "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH JS QS KS AS",
            "2S 3S 4S 5S 6S 2C 3C 4C 5C 6C 7C 8C 9C 3D 4D 5D 6D",
            "7S 8S 9S TS TC JC QC KC AC 7D 8D 9D TD JD QD KD AD",
        ]
    )
    bot = FirstCardBot()
    while game.phase == "playing":
        act(game, game.to_act()[0], bot)
    path = tmp_path / "moon.json"
    save(game, str(path))
    _, out, _ = run_replay(capsys, str(path))
    assert out.splitlines()[-1] == (
        "The game is unfinished: deal 1 is over; the moon's scoring is still to be chosen by Ann."
    )
    act(game, 0, bot)
    save(game, str(path))
    _, out, _ = run_replay(capsys, str(path))
    assert "  Ann shot the moon (took every point card) and chose to subtract 26." in out


def test_broken_records_are_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    game = played(Rules.preset("standard"), seed=2, actions=30)
    text = dumps(game)
    path = tmp_path / "bad.json"
    path.write_text(text.replace('"card": "', '"card": "Z', 1), encoding="utf-8")
    status, out, err = run_replay(capsys, str(path))
    assert status == 2 and out == ""
    assert err.startswith(f"hearts replay: {path}: line ") and "cannot read 'Z" in err
    status, _, err = run_replay(capsys, str(tmp_path / "missing.json"))
    assert status == 2 and "cannot read" in err


def test_ascii_letters(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    game = played(Rules.preset("source-001"), seed=2, actions=40)
    path = tmp_path / "g.json"
    save(game, str(path))
    _, out, _ = run_replay(capsys, str(path), "--ascii")
    assert not set("♣♦♠♥") & set(out)
    assert "Trick 1: " in out and "2C" in out and "No heart or QS" not in out


def test_command_line(tmp_path: Path) -> None:
    game = played(Rules.preset("standard", end_score=30), seed=7)
    path = tmp_path / "g.json"
    save(game, str(path))
    result = subprocess.run(
        [sys.executable, "-m", "openhearts", "replay", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
        env={**os.environ, "PYTHONIOENCODING": "ascii"},
    )
    assert result.returncode == 0, result.stderr
    assert "Game over after" in result.stdout
    # The output cannot show suit symbols, so letters are used.
    assert "Trick 1: South 2C" in result.stdout


def test_shot_lines() -> None:
    game = played(Rules.preset("standard", end_score=10), seed=4)
    plain_result = game.results[0]
    names = ["Ann", "Bob", "Cy", "Di"]
    assert shot_line(names, game.rules, plain_result) is None
    sun = dataclasses.replace(plain_result, shooter=1, shot=Shot.SUN, points=(26, -26, 26, 26))
    assert shot_line(names, Rules.preset("source-003"), sun) == (
        "Bob shot the sun (took every trick): Bob -26, everyone else +26."
    )
    # With the J♦ counting, the sun's shooter took it too: 10 more off, as scored.
    jack = dataclasses.replace(sun, points=(26, -36, 26, 26))
    assert shot_line(names, Rules.preset("source-003", jack_of_diamonds=True), jack) == (
        "Bob shot the sun (took every trick): Bob -36, everyone else +26."
    )
    moon = dataclasses.replace(plain_result, shooter=2, shot=Shot.MOON)
    assert shot_line(names, game.rules, moon) == (
        "Cy shot the moon (took every point card): everyone else adds 26."
    )
    assert shot_line(names, Rules.preset("source-002"), moon) == (
        "Cy shot the moon (took every point card): Cy subtracts 26."
    )
    chosen = dataclasses.replace(moon, moon_choice=MoonScore.OTHERS_ADD)
    assert shot_line(names, Rules.preset("source-000"), chosen) == (
        "Cy shot the moon (took every point card) and chose that everyone else adds 26."
    )


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_a_device_or_a_pipe_is_no_record(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Read whole, /dev/zero filled the memory and a named pipe waited for ever."""
    pipe = tmp_path / "pipe.json"
    os.mkfifo(pipe)
    for path in (str(pipe), os.devnull):
        status, _, err = run_replay(capsys, path)
        assert status != 0
        assert f"cannot read {path}: not a regular file" in err


def test_a_seed_with_control_characters_is_printed_written_out(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The seed, kept as typed, reached the terminal with its escape sequence."""
    path = tmp_path / "g.json"
    save(Game(seed="x\x1b[2Jy"), str(path))
    status, out, _ = run_replay(capsys, str(path))
    assert status == 0
    assert "\x1b" not in out and "x\\x1b[2Jy" in out


def test_an_arena_log_or_summary_is_said_to_be_no_game_record(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A researcher replaying the arena's OUT.jsonl was told "line 2: not valid JSON:
    Extra data", and OUT.json "not an OpenHearts record (format None)": say what they
    are, and where a board's game is to be had."""
    from openhearts import arena

    out = tmp_path / "m"
    parser = argparse.ArgumentParser()
    arena.add_arguments(parser)
    argv = ["--no-progress", "--deals", "1", "--workers", "1", "--out", str(out)]
    assert arena.run(parser.parse_args(argv)) == 0
    capsys.readouterr()
    for ending in (".jsonl", ".json"):
        status, _, err = run_replay(capsys, str(out.with_suffix(ending)))
        assert status == 2
        assert "results of hearts arena, not a game record" in err, err
        assert "hearts arena --records" in err


def test_replay_lines_wants_a_game_and_says_so() -> None:
    """``replay_lines("game.json")`` said "'str' object has no attribute 'rules'"."""
    with pytest.raises(TypeError, match=r"^replay_lines: a Game, not 'game\.json' \(openhearts"):
        replay.replay_lines("game.json")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "argv",
    [
        ("replay", "--bogus", "game.json"),
        ("replay", "game.json", "extra"),
        ("export", "game.json", "--no-hands"),
        ("rules", "extra"),
        ("prune", "--bogus"),
    ],
)
def test_an_unknown_argument_is_said_by_its_command(
    argv: tuple[str, ...], capsys: pytest.CaptureFixture[str]
) -> None:
    """``hearts replay --bogus game.json`` answered with the usage of ``hearts`` itself
    ("usage: hearts [-h] COMMAND ..." and "hearts: error: unrecognized arguments"), not
    that of the command the argument was given to."""
    from openhearts.cli import main

    with pytest.raises(SystemExit) as stopped:
        main(list(argv))
    assert stopped.value.code == 2
    said = capsys.readouterr().err
    assert said.startswith(f"usage: hearts {argv[0]} "), said
    assert f"hearts {argv[0]}: error: unrecognized arguments: " in said


@pytest.mark.parametrize(
    "argv", [("--bogus", "replay", "game.json"), ("--bogus", "rules"), ("--bogus", "play", "--x")]
)
def test_an_unknown_argument_before_the_command_is_said_by_hearts(
    argv: tuple[str, ...], capsys: pytest.CaptureFixture[str]
) -> None:
    """``hearts --bogus replay game.json`` blamed ``hearts replay`` for an option given
    to ``hearts`` itself, before the command's name."""
    from openhearts.cli import main

    with pytest.raises(SystemExit) as stopped:
        main(list(argv))
    assert stopped.value.code == 2
    said = capsys.readouterr().err
    assert said.startswith("usage: hearts [-h] COMMAND"), said
    assert said.rstrip().endswith("hearts: error: unrecognized arguments: --bogus"), said


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (("play", "--plain", "--players", "abc"), "argument --players: a whole number, not 'abc'"),
        (("arena", "--end-score", "x"), "argument --end-score: a whole number, not 'x'"),
        (("serve", "--bot-delay", "soon"), "argument --bot-delay: a number, not 'soon'"),
        (("serve", "--create-rate", "1e9"), "argument --create-rate: a whole number, not '1e9'"),
        (("prune", "--days", "many"), "argument --days: a number, not 'many'"),
        (("train", "--rate", "fast"), "argument --rate: a number, not 'fast'"),
    ],
)
def test_a_number_that_is_no_number_is_said_in_words(
    argv: tuple[str, ...], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """These options said argparse's "invalid int value: 'abc'" (or float), where every
    other option says what it wants in words."""
    from openhearts.cli import main

    with pytest.raises(SystemExit) as stopped:
        main(list(argv))
    assert stopped.value.code == 2
    assert capsys.readouterr().err.rstrip().endswith(f"hearts {argv[0]}: error: {said}")


def test_the_hands_as_dealt_line_up_after_names_two_columns_wide() -> None:
    """The hands were padded by the letters of the names: after a name in Chinese, or
    with an emoji (two columns a letter on screen), each hand began somewhere else."""
    from openhearts.session.names import columns

    game = Game(Rules(), seed=3, names=["李小龍", "Zoë🦊", "Bob", "北京"])
    lines = replay.replay_lines(game, Style())
    first = lines.index("  Hands as dealt:") + 1
    # Where each hand begins, in columns.
    starts = set()
    for seat, line in enumerate(lines[first : first + 4]):
        hand = Style().cards(game.hand(seat))
        assert line.endswith(hand), line
        starts.add(columns(line[: -len(hand)]))
    assert len(starts) == 1, lines[first : first + 4]
