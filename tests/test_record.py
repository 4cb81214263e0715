"""Game records: round trips across presets and player counts, and tampered records
refused with the line and the reason."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import FirstCardBot
from openhearts import pbn
from openhearts.bots import act, make_bot
from openhearts.game import Game, Play, name_problem
from openhearts.record import RecordError, dumps, load, loads, save
from openhearts.rules import Rules

#: (preset, players) pairs covering every preset and every player count.
TABLES = [
    ("standard", 3),
    ("standard", 4),
    ("standard", 5),
    ("standard", 6),
    ("source-000", 4),
    ("source-001", 4),
    ("source-003", 6),
    ("source-003", 5),
    ("source-004", 4),
]
#: Shuffled seating: loading a record must keep the seated names as they are.
SHUFFLED = [pytest.param("source-002", players) for players in (3, 5)]


def random_game(rules: Rules, seed: int, actions: int | None = None) -> Game:
    """A game played by random bots, to the end or for ``actions`` actions."""
    game = Game(rules, seed=seed)
    bots = [make_bot("random", f"{seed}:{s}") for s in range(rules.players)]
    count = 0
    while not game.is_over and (actions is None or count < actions):
        seat = game.to_act()[0]
        act(game, seat, bots[seat])
        count += 1
    return game


def assert_same(a: Game, b: Game) -> None:
    assert a.rules == b.rules
    assert a.names == b.names
    assert a.seed == b.seed
    assert a.actions == b.actions
    assert a.scores == b.scores
    assert a.results == b.results
    assert a.phase == b.phase
    assert a.deal.key() == b.deal.key()
    assert a.is_over == b.is_over and a.winners == b.winners


@pytest.mark.parametrize(("preset", "players"), [*TABLES, *SHUFFLED])
def test_round_trip_finished_games(preset: str, players: int) -> None:
    rules = Rules.preset(preset, players=players, end_score=40)
    game = random_game(rules, seed=players * 7 + len(preset))
    assert game.is_over
    text = dumps(game)
    again = loads(text)
    assert_same(game, again)
    # Writing the loaded game gives the very same text.
    assert dumps(again) == text
    data = json.loads(text)
    assert data["result"]["scores"] == game.scores
    assert data["result"]["winners"] == game.winners


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    table=st.sampled_from(TABLES),
    seed=st.integers(0, 10_000),
    actions=st.integers(0, 150),
)
def test_round_trip_games_in_progress(table: tuple[str, int], seed: int, actions: int) -> None:
    preset, players = table
    game = random_game(Rules.preset(preset, players=players, end_score=60), seed, actions)
    again = loads(dumps(game))
    assert_same(game, again)
    # The loaded game goes on exactly like the original.
    if not game.is_over:
        seat = game.to_act()[0]
        bot_a, bot_b = make_bot("random", 1), make_bot("random", 1)
        act(game, seat, bot_a)
        act(again, seat, bot_b)
        assert game.actions == again.actions


def moon_game(until_moon_choice: bool = False) -> Game:
    """Three players; seat 0 holds every heart, the Q♠ and the spades above it, and
    leads: it takes every trick it leads, so it shoots the moon and chooses (the game
    stops there with ``until_moon_choice``)."""
    rules = Rules.preset(
        "standard",
        players=3,
        moon="shooter_chooses",
        pass_cycle=("hold", "left"),
        first_lead="JS",
        first_trick="allowed",
        hearts_break="never_restricted",
        end_score=60,
    )
    game = Game(rules, seed=3, names=["Ann", "Bob", "Cy"])
    game.replace_hands(
        [
            "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH JS QS KS AS",
            "2S 3S 4S 5S 6S 2C 3C 4C 5C 6C 7C 8C 9C 3D 4D 5D 6D",
            "7S 8S 9S TS TC JC QC KC AC 7D 8D 9D TD JD QD KD AD",
        ]
    )
    bot = FirstCardBot()
    while not game.is_over and not (until_moon_choice and game.phase == "moon_choice"):
        seat = game.to_act()[0]
        act(game, seat, bot)
    return game


def test_round_trip_with_a_moon_choice(tmp_path: Path) -> None:
    game = moon_game()
    assert game.results[0].shot == "moon" and game.results[0].moon_choice == "subtract"
    path = tmp_path / "moon.json"
    save(game, str(path))
    text = path.read_text(encoding="utf-8")
    assert '{"moon": 0, "others_add": false}' in text
    assert_same(game, load(str(path)))


# Tampering --------------------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(name=st.text(max_size=6), seed=st.one_of(st.integers(), st.text(max_size=6), st.booleans()))
def test_a_game_that_can_be_built_can_be_saved_and_loaded_back(name: str, seed: object) -> None:
    """Game and record loading hold names and seeds to the same rules: what Game takes a
    record keeps, and a record naming what Game refuses is refused (not a game that
    saves but never loads again)."""
    try:
        game = Game(Rules(), seed=seed, names=["Ann", name, "Cy", "Di"])
    except ValueError:
        text = dumps(Game(Rules(), seed=1)).replace('"West"', json.dumps(name), 1)
        if not isinstance(seed, bool):
            with pytest.raises(RecordError, match="line 6: names: "):
                loads(text)
        return
    assert_same(loads(dumps(game)), game)


@pytest.fixture(scope="module")
def record() -> str:
    game = random_game(Rules.preset("standard", end_score=30), seed=5)
    assert game.is_over
    return dumps(game)


def line_of(text: str, needle: str, occurrence: int = 1) -> int:
    """The line number of the ``occurrence``-th line containing ``needle``."""
    hits = [n for n, line in enumerate(text.splitlines(), start=1) if needle in line]
    return hits[occurrence - 1]


def replace_line(text: str, number: int, new: str) -> str:
    lines = text.splitlines(keepends=True)
    lines[number - 1] = new
    return "".join(lines)


def rejected(text: str) -> str:
    with pytest.raises(RecordError) as info:
        loads(text)
    return str(info.value)


def play_lines(text: str) -> list[tuple[int, int, str]]:
    """(line number, seat, card) of every play event."""
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        match = re.search(r'\{"play": (\d), "card": "(\w\w)"\}', line)
        if match:
            found.append((number, int(match.group(1)), match.group(2)))
    return found


def position_before(record: str, play_index: int) -> tuple[Game, Play]:
    """The game just before its ``play_index``-th play, and that play."""
    game = loads(record)
    positions = [i for i, a in enumerate(game.actions) if isinstance(a, Play)]
    position = positions[play_index]
    target = game.actions[position]
    assert isinstance(target, Play)
    while len(game.actions) > position:
        game.undo()
    return game, target


def test_a_changed_card_in_a_play(record: str) -> None:
    number, _seat, card = play_lines(record)[20]
    game, play = position_before(record, 20)
    # A card in play that this seat does not hold at that moment.
    foreign = next(c for c in game.rules.deck if c not in game.hand(play.seat))
    line = record.splitlines(keepends=True)[number - 1]
    message = rejected(replace_line(record, number, line.replace(card, str(foreign))))
    assert message == f"line {number}: you do not hold the {foreign.pretty}"


def test_a_changed_card_in_a_hand(record: str) -> None:
    number = line_of(record, '{"deal": 1,')
    line = record.splitlines(keepends=True)[number - 1]
    first = re.search(r'"hands": \["(\w\w) ', line)
    assert first is not None
    second_hand_card = re.search(r'", "(\w\w) ', line)
    assert second_hand_card is not None
    # The first hand now holds a card of the second hand: a card dealt twice.
    tampered = line.replace(f'["{first.group(1)} ', f'["{second_hand_card.group(1)} ', 1)
    message = rejected(replace_line(record, number, tampered))
    assert message.startswith(f"line {number}: ")
    assert "repeats" in message


def test_an_unreadable_card(record: str) -> None:
    number, _seat, card = play_lines(record)[3]
    line = record.splitlines(keepends=True)[number - 1]
    message = rejected(replace_line(record, number, line.replace(card, "ZZ")))
    assert message.startswith(f"line {number}: cannot read 'ZZ' as a card")


def test_a_wrong_seat(record: str) -> None:
    number, seat, _card = play_lines(record)[10]
    line = record.splitlines(keepends=True)[number - 1]
    wrong = (seat + 1) % 4
    message = rejected(
        replace_line(record, number, line.replace(f'"play": {seat}', f'"play": {wrong}'))
    )
    assert message.startswith(f"line {number}: ")
    assert "turn" in message


def test_a_seat_that_does_not_exist(record: str) -> None:
    number, seat, _card = play_lines(record)[0]
    line = record.splitlines(keepends=True)[number - 1]
    message = rejected(replace_line(record, number, line.replace(f'"play": {seat}', '"play": 9')))
    assert message.startswith(f"line {number}: ")


def test_an_illegal_first_lead(record: str) -> None:
    number, _seat, card = play_lines(record)[0]
    assert card == "2C"
    game, play = position_before(record, 0)
    other = next(c for c in game.hand(play.seat) if c != play.card)
    line = record.splitlines(keepends=True)[number - 1]
    message = rejected(replace_line(record, number, line.replace(card, str(other))))
    assert message == f"line {number}: the first trick must be led with the 2♣"


def test_an_illegal_play_failing_to_follow_suit(record: str) -> None:
    for index, (number, _seat, card) in enumerate(play_lines(record)):
        game, play = position_before(record, index)
        trick = game.view(play.seat).trick
        if not trick:
            continue
        led = trick[0][1].suit
        off_suit = [c for c in game.hand(play.seat) if c.suit != led]
        if play.card.suit == led and off_suit:
            line = record.splitlines(keepends=True)[number - 1]
            tampered = line.replace(card, str(off_suit[0]))
            message = rejected(replace_line(record, number, tampered))
            assert message == f"line {number}: you hold {led.symbol}, and must follow suit"
            return
    pytest.fail("no play to tamper with")


def test_truncated_json(record: str) -> None:
    cut = record[: len(record) // 2]
    message = rejected(cut)
    match = re.match(r"line (\d+): not valid JSON", message)
    assert match is not None
    assert int(match.group(1)) == cut.count("\n") + 1


def test_a_missing_play_is_an_unfinished_game_with_wrong_totals(record: str) -> None:
    lines = record.splitlines(keepends=True)
    number, _seat, _card = play_lines(record)[-1]
    # Dropping the very last play leaves a game that replays but does not end.
    before = lines[number - 2].rstrip().rstrip(",") + "\n"
    tampered = "".join([*lines[: number - 2], before, *lines[number:]])
    message = rejected(tampered)
    assert "the record says the totals are" in message


def test_wrong_version_and_format(record: str) -> None:
    message = rejected(record.replace('"version": 1', '"version": 2', 1))
    assert re.match(r"line \d+: record version 2 is not supported", message)
    message = rejected(record.replace('"openhearts-record"', '"chess"', 1))
    assert re.match(r"line \d+: not an OpenHearts record", message)
    assert rejected("[1, 2]").startswith("line 1: ")


def test_wrong_version_names_its_line(record: str) -> None:
    number = line_of(record, '"version"')
    message = rejected(record.replace('"version": 1', '"version": 2', 1))
    assert message.startswith(f"line {number}: ")


def test_wrong_result_totals(record: str) -> None:
    number = line_of(record, '"result"')
    line = record.splitlines(keepends=True)[number - 1]
    tampered = replace_line(record, number, line.replace('"scores": [', '"scores": [1', 1))
    message = rejected(tampered)
    assert "the record says the totals are" in message and "replaying it gives" in message


def test_wrong_result_totals_names_its_line(record: str) -> None:
    number = line_of(record, '"result"')
    line = record.splitlines(keepends=True)[number - 1]
    tampered = replace_line(record, number, line.replace('"scores": [', '"scores": [1', 1))
    assert rejected(tampered).startswith(f"line {number}: ")


def test_bad_moon_choice_value() -> None:
    text = dumps(moon_game())
    number = line_of(text, '"moon": 0')
    tampered = text.replace('"others_add": false', '"others_add": "no"', 1)
    assert rejected(tampered) == f"line {number}: others_add must be true or false"


def test_a_byte_order_mark_is_read_and_deep_nesting_refused(record: str) -> None:
    assert loads("\ufeff" + record).actions == loads(record).actions
    with pytest.raises(RecordError, match="nested too deeply"):
        loads("[" * 100_000 + "]" * 100_000)


def test_unreadable_files(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="cannot read"):
        load(str(tmp_path / "missing.json"))
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(RecordError):
        load(str(binary))


# Tampering the tests above missed: each of these loaded before the record was typed strictly.


def first_line_with(record: str, needle: str) -> tuple[int, str]:
    number = line_of(record, needle)
    return number, record.splitlines(keepends=True)[number - 1]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ('{"deal": 0,', '{"deal": 7,'),  # the first deal is not the record's first deal
        ('{"deal": 1,', '{"deal": true,'),
        ('{"deal": 1,', '{"deal": 1.0,'),
        ('{"deal": 1,', '{"deal": 1, "play": 3,'),  # one event, two meanings
        ('{"deal": 1,', '{"deal": 1, "cut": 12,'),
    ],
)
def test_a_tampered_deal_event(record: str, old: str, new: str) -> None:
    number, line = first_line_with(record, old)
    message = rejected(replace_line(record, number, line.replace(old, new, 1)))
    assert message.startswith(f"line {number}: ")


@pytest.mark.parametrize(("old", "new"), [('{"play": 1,', '{"play": 1, "card2": "2C",')])
def test_an_event_with_an_unknown_field(record: str, old: str, new: str) -> None:
    number, line = first_line_with(record, old)
    message = rejected(replace_line(record, number, line.replace(old, new, 1)))
    assert message.startswith(f"line {number}: ") and "card2" in message


def test_tampered_deal_points(record: str) -> None:
    data = json.loads(record)
    points = data["result"]["deal_points"]
    as_floats = json.dumps([[float(p) for p in deal] for deal in points])
    number = line_of(record, '"result"')
    tampered = record.replace(json.dumps(points), as_floats, 1)
    assert tampered != record
    message = rejected(tampered)
    assert message.startswith(f"line {number}: ") and "points of the deals" in message
    dropped = rejected(record.replace('"deal_points"', '"deal_pointz"', 1))
    assert "deal_points" in dropped


@pytest.mark.parametrize("field", ["winners", "scores", "over"])
def test_result_fields_must_have_their_exact_type(record: str, field: str) -> None:
    data = json.loads(record)
    value = data["result"][field]
    # The same numbers, as floats: equal in Python, not what a record holds.
    data["result"][field] = [float(v) for v in value] if isinstance(value, list) else int(value)
    with pytest.raises(RecordError, match="result"):
        loads(json.dumps(data))


@pytest.mark.parametrize(
    ("field", "value"),
    [("first_deal", "0.7"), ("first_deal", '"0"'), ("initial_scores", "[0.5, 0, 0, 0]")],
)
def test_a_non_integer_in_the_header(record: str, field: str, value: str) -> None:
    data = json.loads(record)
    data[field] = json.loads(value)
    with pytest.raises(RecordError, match=field):
        loads(json.dumps(data))


@pytest.mark.parametrize("seat", ["1.0", "true", '"1"', "-1"])
def test_a_non_integer_seat_in_any_event(seat: str) -> None:
    text = dumps(moon_game())
    for kind in ("pass", "play", "moon"):
        found = re.search(rf'\{{"{kind}": (\d)', text)
        if found is None:
            continue
        number = line_of(text, found.group(0))
        tampered = text.replace(found.group(0), f'{{"{kind}": {seat}', 1)
        assert rejected(tampered).startswith(f"line {number}: ")


def test_a_deal_given_twice_is_refused(record: str) -> None:
    """A second hands event for one deal replaced its hands silently."""
    number = line_of(record, '{"deal": 1,')
    lines = record.splitlines(keepends=True)
    doubled = "".join([*lines[:number], lines[number - 1], *lines[number:]])
    assert rejected(doubled) == f"line {number + 1}: deal 1 is given twice"


def test_a_wrong_number_of_names_and_no_events_name_their_lines(record: str) -> None:
    """Both were blamed on another line (the first deal's) or on none."""
    names = line_of(record, '"names"')
    three = record.replace(
        '"names": ["South", "West", "North", "East"]', '"names": ["S", "W", "N"]'
    )
    assert rejected(three) == f"line {names}: names: expected 4 names, got 3"
    data = json.loads(record)
    data["events"] = []
    text = json.dumps(data, indent=1)
    number = line_of(text, '"events"')
    assert rejected(text) == f"line {number}: events: a record needs at least the first deal"
    del data["events"]
    assert rejected(json.dumps(data)).startswith("line 1: events: ")


def test_a_record_without_its_rules_is_refused() -> None:
    """The schema requires them; loading gave the standard rules silently (a game to 40
    resumed as one to 100)."""
    game = Game(Rules(end_score=40), seed=3)
    data = json.loads(dumps(game))
    del data["rules"]
    with pytest.raises(RecordError, match=r"^line 1: rules: missing; a record says the rules"):
        loads(json.dumps(data))


def test_a_number_too_long_to_read_is_no_record() -> None:
    """Python reads no number of more than 4,300 digits: json.loads raised ValueError."""
    text = dumps(Game(seed=3)).replace('"version": 1', '"version": ' + "1" * 5000, 1)
    with pytest.raises(RecordError, match="it holds a number too long to read"):
        loads(text)


def test_an_empty_or_cut_short_record_says_so() -> None:
    """They said "Expecting value" and "Unterminated string starting at"."""
    text = dumps(Game(seed=3))
    with pytest.raises(RecordError, match=r"^line 1: the file is empty, not a record$"):
        loads("  \n")
    for cut in (len(text) // 2, len(text) - 3):
        with pytest.raises(RecordError, match=r"; the record is cut short there$"):
            loads(text[:cut])
    # A mistake inside the file is not taken for a cut.
    with pytest.raises(RecordError) as refused:
        loads(text.replace('"version": 1', '"version": 1,,', 1))
    assert "cut short" not in str(refused.value)


def test_hand_edited_records_are_refused_briefly_and_at_once() -> None:
    """Found by a tester: a wrong field of a million names was repeated whole (5 MB on
    one line); the line of each event was counted from the top, so 200,000 events took
    minutes before the first was checked; a wrong rules field said "rules: rules:"."""
    import time

    text = dumps(Game(seed=3))
    data = json.loads(text)
    huge = json.dumps({**data, "names": ["a"] * 100_000})
    with pytest.raises(RecordError) as refused:
        loads(huge)
    assert str(refused.value).endswith("names: expected 4 names, got 100000")
    wrong = {**data, "events": data["events"] + [{"pass": 1, "cards": "2C 3C 4C"}] * 100_000}
    started = time.perf_counter()
    with pytest.raises(RecordError):
        loads(json.dumps(wrong, indent=1))
    # Linear now: well under a second here; the count from the top took minutes.
    assert time.perf_counter() - started < 30
    with pytest.raises(RecordError) as refused:
        loads(json.dumps({**data, "rules": None}))
    assert "rules: rules:" not in str(refused.value)
    with pytest.raises(RecordError) as refused:
        loads(json.dumps({**data, "seed": [1] * 9999}))
    assert "seed: a number or a text, not [1, 1" in str(refused.value)
    assert len(str(refused.value)) < 200


def test_a_lone_surrogate_is_refused_where_no_file_could_hold_it() -> None:
    """A name "\\ud800" in a record was taken, and the save of the resumed game failed
    with UnicodeEncodeError (the game was saved nowhere); a seed of bytes a command line
    could not decode stopped the game at once."""
    from openhearts.session.seeds import game_seed

    data = json.loads(dumps(Game(seed=3)))
    data["names"][0] = "\ud800"
    with pytest.raises(RecordError, match="lone surrogate"):
        loads(json.dumps(data))
    with pytest.raises(ValueError, match="lone surrogate"):
        Game(seed="\udcff")
    seed = game_seed("\udcff")  # sys.argv's form of the byte 0xFF
    assert seed == "\\xff" and Game(seed=seed).seed == "\\xff"


@pytest.mark.parametrize("name", ["W\u061cx", "W\u00adx", "W\ue000x", "W\U000e0041x"])
def test_a_name_with_an_invisible_character_is_refused(name: str) -> None:
    """Found by a tester: U+061C (it reverses the text after it on a terminal), a soft
    hyphen, a private-use or a tag character in a record's name reached the terminal;
    a name typed with them loses them (every face cleans names so)."""
    data = json.loads(dumps(Game(seed=3)))
    data["names"][1] = name
    with pytest.raises(RecordError, match="holds an invisible character"):
        loads(json.dumps(data))
    assert name_problem("Zoë 😀") is None


def test_a_record_is_read_from_text_or_utf8_bytes_and_nothing_else() -> None:
    """Found by a tester: bytes were refused as "a bytes-like object is required", and
    None gave an AttributeError."""
    game = Game(Rules(), seed=3)
    assert loads(dumps(game).encode()).seed == 3
    assert pbn.loads(pbn.dumps(game).encode()).seed == 3
    for reader in (loads, pbn.loads):
        with pytest.raises(RecordError, match="a record is text, not NoneType"):
            reader(None)  # type: ignore[arg-type]
        with pytest.raises(RecordError, match="byte 0 is not UTF-8 text"):
            reader(b"\xff{}")
    # pbn.dumps said "'str' object has no attribute 'rules'".
    for writer in (dumps, pbn.dumps):
        with pytest.raises(TypeError, match="dumps: a Game to write, not 'x'"):
            writer("x")  # type: ignore[arg-type]


def test_a_record_missing_a_rules_option_is_refused(record: str) -> None:
    """Found by a tester: a source-000 record without its moon scoring replayed under the
    standard one, with exit status 0."""
    data = json.loads(record)
    del data["rules"]["moon"]
    with pytest.raises(RecordError, match=re.escape("rules: moon missing; a record gives every")):
        loads(json.dumps(data))
    data["rules"] = {"players": 4}
    with pytest.raises(RecordError, match=r"rules: removed, pass_cycle, .* missing"):
        loads(json.dumps(data))


def test_a_json_object_with_no_format_says_so() -> None:
    """``{}`` was "not an OpenHearts record (format None)": Python's None, in no file."""
    with pytest.raises(RecordError) as raised:
        loads("{}")
    assert str(raised.value) == (
        'line 1: not an OpenHearts record (it has no "format": "openhearts-record")'
    )
