"""PBN-style text records: every preset round-trips to the same game; tampering is refused
with the line; ``hearts export``, ``hearts import`` and ``hearts replay`` read them."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import CONFIGS, config_id
from openhearts import pbn, record
from openhearts.cli import main
from openhearts.game import Game
from openhearts.record import RecordError, dumps, loads, save
from openhearts.rules import Rules
from test_record import assert_same, moon_game, random_game


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_every_preset_exported_and_imported_replays_to_the_same_game(
    config: tuple[str, int],
) -> None:
    preset, players = config
    game = random_game(Rules.preset(preset, players=players, end_score=50), seed=players)
    assert game.is_over and len(game.results) > 1
    text = pbn.dumps(game)
    again = pbn.loads(text)
    assert_same(game, again)
    assert pbn.dumps(again) == text
    # And through the JSON record: the very same record comes back.
    assert dumps(pbn.loads(pbn.dumps(loads(dumps(game))))) == dumps(game)


@settings(max_examples=30, deadline=None)
@given(config=st.sampled_from(CONFIGS), seed=st.integers(0, 1000), actions=st.integers(0, 120))
def test_games_in_progress_round_trip(config: tuple[str, int], seed: int, actions: int) -> None:
    preset, players = config
    game = random_game(Rules.preset(preset, players=players, end_score=60), seed, actions)
    assert_same(game, pbn.loads(pbn.dumps(game)))


def test_a_moon_choice_a_text_seed_and_starting_totals_round_trip() -> None:
    game = moon_game()
    text = pbn.dumps(game)
    assert '[MoonChoice "shooter_subtracts"]' in text
    assert_same(game, pbn.loads(text))
    seeded = Game(Rules(), seed="club night", names=['Ann "the shark"', "B\\C", "Cy", "Di"])
    seeded = Game(seeded.rules, seed="club night", names=seeded.names, scores=[3, 0, 90, 12])
    text = pbn.dumps(seeded)
    assert '[SeedText "club night"]' in text and r'[Name0 "Ann \"the shark\""]' in text
    assert_same(seeded, pbn.loads(text))


def test_line_ends_in_seeds_and_backslashes_in_names_round_trip() -> None:
    """A tag is one line: a text seed with a line end, a carriage return or a tab (the
    JSON record keeps them) is escaped, not cut in two; so is a backslash in a name."""
    names = ["back\\n", "South", "West", "East"]
    game = Game(Rules(), seed="a\nb\rc\td", names=names)
    text = pbn.dumps(game)
    assert r'[SeedText "a\nb\rc\td"]' in text and r'[Name0 "back\\n"]' in text
    again = pbn.loads(text)
    assert list(again.names) == names and again.seed == "a\nb\rc\td"


@pytest.mark.parametrize(
    "name", ["\x1b[2J\x1b[31mEvil\x1b[0m", "line\\nbreak", "tab\\there", "", "  "]
)
def test_a_blank_name_or_one_with_control_characters_is_refused_at_its_line(name: str) -> None:
    """As the JSON record refuses them (a terminal would obey an escape sequence when
    the game is replayed), and with the line of the name's tag."""
    text = pbn.dumps(Game(Rules(), seed=1)).replace('[Name2 "North"]', f'[Name2 "{name}"]')
    number = line_number(text, "[Name2 ")
    message = refused(text)
    assert message.startswith(f"line {number}: Name2: ")
    assert "blank or holds a control character" in message


@pytest.fixture(scope="module")
def text() -> str:
    return pbn.dumps(random_game(Rules.preset("standard", end_score=30), seed=5))


def refused(text: str) -> str:
    with pytest.raises(RecordError) as info:
        pbn.loads(text)
    return str(info.value)


def line_number(text: str, needle: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if needle in line)


def test_a_card_played_out_of_turn_or_not_held_is_refused(text: str) -> None:
    lines = text.splitlines(keepends=True)
    number = line_number(text, '[Play "') + 2
    cards = lines[number - 1].split()
    lines[number - 1] = " ".join([cards[1], cards[0], *cards[2:]]) + "\n"
    assert refused("".join(lines)).startswith(f"line {number}: ")


@pytest.mark.parametrize(
    ("old", "new", "reason"),
    [
        ('[Points "', '[Points "1', "replaying gives"),
        ('[Totals "', '[Totals "1', "replaying gives"),
        ('[Board "1"]', '[Board "2"]', "expected"),
        ('[Dealer "1"]', '[Dealer "2"]', "dealer"),
        ('[Pass "right"]', '[Pass "left"]', "passes right"),
        ('[Moon "others_add"]', '[Moon "sideways"]', "moon"),
        ('[Event "OpenHearts game"]', '[Vulnerable "None"]', "not a tag"),
        ('[Deal "0:', '[Deal "1:', "Deal"),
        ('[Seed "5"]', '[Seed "five"]', "Seed: a whole number"),
        ('[FirstDeal "0"]', '[FirstDeal "x"]', "FirstDeal: a whole number"),
        ('[InitialScores "0 0 0 0"]', '[InitialScores "1.5 0 0 0"]', "InitialScores"),
        ('[Name1 "West"]', '[Name1 "We\\tst"]', "Name1: 'We\\tst' is blank or holds"),
        # Found by a tester: Python's own words ("invalid literal for int() with base
        # 10"), a dropped backslash, two seeds of which one won, a missing rules tag
        # read as the standard option.
        ('[Board "1"]', '[Board "x"]', "Board: a whole number, not 'x'"),
        ('[Dealer "1"]', '[Dealer "x"]', "Dealer: a whole number, not 'x'"),
        ('[Play "', '[Play "x', "Play: a whole number"),
        ('[Board "0"]', '[Board "' + "9" * 5000 + '"]', "Board: a number of 5000 digits"),
        ('[Name1 "West"]', '[Name1 "We\\qst"]', "[Name1]: \\q is no escape"),
        ('[Seed "5"]', '[Seed "5"]\n[SeedText "5"]', "give one seed, not both"),
        ('[HeartsBreak "', '[Comment "', "not a tag"),
    ],
)
def test_tampered_tags_are_refused_with_their_line(
    text: str, old: str, new: str, reason: str
) -> None:
    assert old in text
    number = line_number(text, old)
    message = refused(text.replace(old, new, 1))
    assert message.startswith(f"line {number}: ") and reason in message


def test_scores_before_their_deal_has_ended_are_refused(text: str) -> None:
    # The second deal's [Points] moved up to before its play.
    lines = text.splitlines(keepends=True)
    board = line_number(text, '[Board "1"]')
    points = next(n for n in range(board, len(lines)) if lines[n].startswith("[Points"))
    moved = [*lines[:board], lines[points], *lines[board:points], *lines[points + 1 :]]
    assert refused("".join(moved)).startswith(f"line {board + 1}: [Points] before deal 1")


def test_a_text_record_without_a_deal_is_refused() -> None:
    header = pbn.dumps(Game(seed=1)).split("[Board")[0]
    assert refused(header).endswith(": a text record needs at least the first [Board]")
    # Found by a tester: a missing rules tag was read as the standard option.
    assert refused('[Event "OpenHearts game"]\n') == (
        "line 1: [Players] is missing: a text record gives every rules option (14 missing)"
    )
    assert refused("").startswith("line 1: ")
    assert refused('[Event "x\n').startswith("line 1: ")


@pytest.mark.parametrize("seed", ["a\x0cb", "a\u2028b", "a\x85b", "a\x1cb", "a\x0bb"])
def test_a_seed_with_characters_splitlines_splits_at_round_trips(seed: str) -> None:
    """Only line ends end a line: a form feed or U+2028 in a text seed (left unescaped)
    cut its tag in two and the record could not be read back."""
    game = Game(Rules(), seed=seed)
    assert pbn.loads(pbn.dumps(game)).seed == seed


def test_a_second_deal_tag_for_a_board_is_refused(text: str) -> None:
    """A second [Deal] for one board replaced the hands silently."""
    number = line_number(text, '[Deal "0:')
    lines = text.splitlines()
    doubled = [*lines[:number], lines[number - 1], *lines[number:]]
    assert refused("\n".join(doubled)) == (f"line {number + 1}: [Deal] is given twice for board 0")


def test_names_are_every_seats_or_none(text: str) -> None:
    """A missing [Name1] was blamed on the [Board] line as "expected 4 names, got [...]";
    a [Name9] in a game of four was ignored."""
    number = line_number(text, "[Name0 ")
    without = text.replace('[Name1 "West"]\n', "")
    assert refused(without) == (
        f"line {number}: [Name1] is missing: a record names every seat or none"
    )
    extra = text.replace('[Name1 "West"]', '[Name1 "West"]\n[Name9 "Ghost"]')
    assert refused(extra) == f"line {number + 2}: [Name9]: this game has 4 seats, Name0 to Name3"
    nameless = "\n".join(line for line in text.splitlines() if not line.startswith("[Name"))
    assert pbn.loads(nameless).names == ("South", "West", "North", "East")


def test_hearts_export_import_and_replay(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = random_game(Rules.preset("source-003", players=5, end_score=40), seed=8)
    saved = tmp_path / "game.json"
    save(game, str(saved))
    text_file, back = tmp_path / "game.pbn", tmp_path / "back.json"
    assert main(["export", str(saved), "--out", str(text_file)]) == 0
    assert main(["import", str(text_file), "-o", str(back)]) == 0
    assert back.read_text(encoding="utf-8") == saved.read_text(encoding="utf-8")
    assert main(["export", str(saved)]) == 0
    assert capsys.readouterr().out == text_file.read_text(encoding="utf-8")
    assert main(["replay", str(text_file)]) == 0
    from_text = capsys.readouterr().out
    assert main(["replay", str(saved)]) == 0
    assert capsys.readouterr().out == from_text
    # Found by a tester: an exported file was the user's alone (0600, as a saved game),
    # and --out into a folder that is not there made it.
    mask = os.umask(0o022)
    try:
        assert main(["export", str(saved), "--out", str(tmp_path / "shared.pbn")]) == 0
    finally:
        os.umask(mask)
    assert (tmp_path / "shared.pbn").stat().st_mode & 0o777 == 0o644
    assert main(["export", str(saved), "--out", str(tmp_path / "nowhere" / "x.pbn")]) == 2
    assert "no folder" in capsys.readouterr().err
    assert not (tmp_path / "nowhere").exists()
    text_file.write_text(text_file.read_text(encoding="utf-8").replace('[Board "1"]', "[Board 1]"))
    assert main(["import", str(text_file)]) == 2
    error = capsys.readouterr().err
    assert "a tag is written" in error and "JSON record" not in error
    # Each command given the other's form says which one reads it.
    # Each command given the other's form says which one reads it, and only that (the
    # library's complaint named its reader in Python, or the tags a JSON file lacks).
    assert main(["export", str(text_file)]) == 2
    said = capsys.readouterr().err
    assert said.endswith(": it is a text record: hearts import reads it, and hearts replay\n")
    assert main(["import", str(saved)]) == 2
    said = capsys.readouterr().err
    assert said.endswith(": it is a JSON record: hearts export reads it, and hearts replay\n")


def test_each_reader_in_the_library_names_the_other_for_the_other_form() -> None:
    """``pbn.loads`` of a JSON record said "[Players] is missing: a text record gives
    every rules option", and ``record.loads`` of a text record "not valid JSON"."""
    game = Game(Rules(), seed=4)
    with pytest.raises(RecordError, match=r"^line 1: this is a JSON game record, .*record\.loads"):
        pbn.loads("\ufeff " + record.dumps(game))
    with pytest.raises(RecordError, match=r"^line 1: this is a PBN-style .*pbn\.loads"):
        record.loads(pbn.dumps(game))
    with pytest.raises(RecordError, match="not valid JSON"):
        record.loads("[1, 2")


def test_export_writes_to_standard_output_on_a_dash_and_never_over_its_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--out -`` wrote a file called "-"; ``export game.json -o game.json`` replaced
    the record with its text form."""
    monkeypatch.chdir(tmp_path)
    saved = tmp_path / "game.json"
    save(random_game(Rules(), seed=3), str(saved))
    original = saved.read_text(encoding="utf-8")
    assert main(["export", str(saved), "-o", "-"]) == 0
    assert capsys.readouterr().out.startswith("%") and not (tmp_path / "-").exists()
    assert main(["export", "game.json", "-o", str(saved)]) == 2
    assert "is the record being read" in capsys.readouterr().err
    assert saved.read_text(encoding="utf-8") == original


def test_a_text_record_with_a_byte_order_mark_a_word_for_a_number_and_resumed() -> None:
    from openhearts.session.saving import loads_session

    game = Game(seed=1)
    text = "\ufeff" + pbn.dumps(game)
    assert pbn.loads(text).seed == 1
    resumed, info = loads_session(text)  # `hearts play --resume game.pbn`
    assert resumed.seed == 1 and info is None
    with pytest.raises(RecordError, match="Players: a whole number, not 'four'"):
        pbn.loads(pbn.dumps(game).replace('[Players "4"]', '[Players "four"]'))


def test_odd_text_records_are_refused_in_words(tmp_path: Path) -> None:
    """Found by a tester: a card named twice in a [Deal] hand was dropped silently (a
    JSON record's is refused); a 5,000-digit [Seed] was "not a whole number", repeated
    whole; a JSON array was read as a text record and refused in words about tags."""
    from openhearts.convert import load_any

    text = pbn.dumps(Game(seed=1))
    deal = re.search(r'\[Deal "0:([^.]*)\.', text)
    assert deal is not None
    doubled = text.replace(
        deal.group(0),
        deal.group(0).replace(deal.group(1), deal.group(1)[0] * 2 + deal.group(1)[1:]),
        1,
    )
    with pytest.raises(RecordError, match="named twice in a hand"):
        pbn.loads(doubled)
    with pytest.raises(RecordError, match="Seed: a number of 5000 digits is too long to read"):
        pbn.loads(re.sub(r'\[Seed "[^"]*"\]', '[Seed "' + "9" * 5000 + '"]', text))
    array = tmp_path / "array.json"
    array.write_text("[]", encoding="utf-8")
    with pytest.raises(RecordError, match="a record is a JSON object"):
        load_any(str(array))
    latin = tmp_path / "latin.json"
    latin.write_bytes(dumps(Game(seed=1, names=["Zoë", "W", "N", "E"])).encode("latin-1"))
    with pytest.raises(RecordError, match="is not UTF-8 text"):
        load_any(str(latin))


def test_export_to_an_ascii_output_or_over_a_saved_game(
    tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    """Found by a tester: printing to an ASCII-only output met "Zoë" with a traceback;
    -o replaced an unfinished saved game without a word, and waited for ever on a pipe."""
    import os
    import subprocess
    import sys

    from openhearts.convert import load_any

    saved = tmp_path / "zoe.json"
    save(Game(seed=1, names=["Zoë", "W", "N", "E"]), str(saved))
    done = subprocess.run(
        [sys.executable, "-m", "openhearts", "export", str(saved)],
        capture_output=True,
        env={**os.environ, "PYTHONIOENCODING": "ascii"},
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "Zoë".encode() in done.stdout  # a record is UTF-8
    # A file in the way is refused, or replaced with --force (found by a tester: it was
    # moved aside as a saved game, "resume it with hearts play").
    unfinished = tmp_path / "unfinished.json"
    save(Game(seed=2), str(unfinished))
    before = unfinished.read_bytes()
    assert main(["export", str(saved), "-o", str(unfinished)]) == 2
    assert "exists: choose another file, or give --force" in capsysbinary.readouterr().err.decode()
    assert unfinished.read_bytes() == before
    assert main(["export", str(saved), "-o", str(unfinished), "--force"]) == 0
    assert unfinished.read_text(encoding="utf-8") == pbn.dumps(load_any(str(saved)))
    assert sorted(p.name for p in tmp_path.iterdir() if "unfinished" in p.name) == [
        "unfinished.json"
    ]
    if hasattr(os, "mkfifo"):
        pipe = tmp_path / "pipe"
        os.mkfifo(pipe)
        assert main(["export", str(saved), "-o", str(pipe)]) == 2
        assert b"not a regular file" in capsysbinary.readouterr().err


def test_control_characters_in_a_tag_are_escaped_and_read_back() -> None:
    """Found by a tester: a text seed's escape sequence reached the terminal that
    ``hearts export`` printed to (only quotes, backslashes and line ends were escaped)."""
    game = Game(seed="a\x1b[31mb\x07")
    text = pbn.dumps(game)
    assert "\x1b" not in text and "\x07" not in text and "\\u001b" in text
    assert pbn.loads(text).seed == "a\x1b[31mb\x07"
