"""The learned model of ``hard``'s play, its use in ``expert``'s inference, and
``hearts train``, which makes it."""

from __future__ import annotations

import argparse
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from openhearts import Card, Game, Rules, train
from openhearts.bots import act, make_bot
from openhearts.bots import learned as model
from openhearts.bots.expert import ExpertBot
from openhearts.bots.inference import Choice, _alike, _alike_run, explain, weighted_deals
from openhearts.bots.learned import INPUTS, PUBLIC, PolicyNet, play_factors, public_rows
from openhearts.bots.sampler import constraints
from openhearts.game import PlayerView


def _c(text: str) -> int:
    return int(Card.parse(text))


def _hard_game(actions: int, rules: Rules | None = None) -> Game:
    game = Game(rules or Rules(), seed=0, first_deal=0)
    bots = [make_bot("hard", s) for s in range(game.rules.players)]
    while len(game.actions) < actions:
        act(game, game.to_act()[0], bots[game.to_act()[0]])
    return game


def _plays(view: PlayerView) -> list[tuple[int, int]]:
    return [(seat, int(card)) for seat, card in view.plays]


def _lowest_first() -> PolicyNet:
    """A network that scores every card by its index, lowest first, whatever it sees."""
    first = (np.zeros((INPUTS, 1), np.float32), np.zeros(1, np.float32))
    last = (np.zeros((1, 52), np.float32), -np.arange(52, dtype=np.float32))
    return PolicyNet((first, last), Rules(), {})


def test_public_rows_say_what_every_seat_saw() -> None:
    trick = [(0, _c("2C")), (1, _c("3C")), (2, _c("2D")), (3, _c("4C"))]
    rows = public_rows([*trick, (3, _c("QS")), (0, _c("AH"))], players=4, next_actor=1)
    assert rows.shape == (7, PUBLIC)
    lead = rows[4]  # before the Q♠, seen by seat 3, which won the first trick
    assert {int(i) for i in np.flatnonzero(lead[model._PLAYED : model._TRICK])} == {
        _c("2C"),
        _c("3C"),
        _c("2D"),
        _c("4C"),
    }
    assert lead[model._COUNT] == 1 and not lead[model._TRICK : model._WINNING].any()
    assert lead[model._VOIDS + 4 * 3 + 0] == 1  # seat 2, third after seat 3, lacks clubs
    assert lead[model._FIRST_TRICK] == 0 and lead[model._TRICK_NUMBER] == pytest.approx(1 / 13)
    last = rows[6]  # seat 1 to play to the Q♠ and the A♥
    assert last[model._TRICK + _c("QS")] == last[model._TRICK + _c("AH")] == 1
    assert last[model._WINNING + _c("QS")] == 1  # the A♥ does not follow spades
    assert last[model._WINNER + 2] == 1  # seat 3 is second after seat 1
    assert last[model._LED + 2] == 1 and last[model._COUNT + 2] == 1
    assert last[model._HEART_PLAYED] == last[model._QUEEN_PLAYED] == 1
    assert last[model._VOIDS + 4 * 3 + 2] == 1  # seat 0, third after seat 1, lacks spades
    assert rows[0][model._FIRST_TRICK] == 1 and rows[0][model._COUNT] == 1
    with pytest.raises(ValueError, match="four players"):
        public_rows([], players=3, next_actor=0)


def test_a_row_depends_only_on_the_plays_before_it() -> None:
    # What the trainer records at a decision is what the inference rebuilds later.
    view = _hard_game(45).view(0)
    plays = _plays(view)
    whole = public_rows(plays, 4, view.seat)
    for index in range(len(plays)):
        alone = public_rows(plays[:index], 4, plays[index][0])[-1]
        assert np.array_equal(whole[index], alone)


def test_probabilities_cover_the_legal_cards_only() -> None:
    net = _lowest_first()
    x = model.inputs(np.zeros((2, PUBLIC), np.float32), [0b111, 1 << 40])
    probs = net.probabilities(x, [0b110, 1 << 40])
    assert probs[0, 0] == 0 and probs[0, 1] > probs[0, 2] > 0
    assert probs.sum(axis=1) == pytest.approx([1, 1])
    assert probs[1, 40] == 1  # one legal card: no choice, certainty


def test_weights_survive_saving(tmp_path: Path) -> None:
    rng = np.random.default_rng(1)
    layers = tuple(
        (rng.standard_normal((a, b)).astype(np.float32), rng.standard_normal(b).astype(np.float32))
        for a, b in ((INPUTS, 5), (5, 52))
    )
    net = PolicyNet(layers, Rules(), {"epoch": 3})
    net.save(tmp_path / "w.npz")
    again = PolicyNet.load(tmp_path / "w.npz")
    assert again.rules == Rules() and again.about == {"epoch": 3}
    pairs = zip(layers, again.layers, strict=True)
    assert all(np.array_equal(a, b) for pair in pairs for a, b in zip(*pair, strict=True))


def test_the_shipped_weights_are_for_the_standard_game() -> None:
    net = model.shipped()
    assert net.rules == Rules()
    assert net.about["command"].startswith("hearts train")
    assert net.layers[0][0].shape[0] == INPUTS and net.layers[-1][0].shape[1] == 52
    assert model.WEIGHTS.stat().st_size < 3_000_000  # "a few MB at most"


def test_explain_leaves_the_choices_to_the_model() -> None:
    game = _hard_game(27)
    seat = game.to_act()[0]
    view = game.view(seat)
    true = [game.hand(s).mask for s in range(4)]
    choices: list[Choice] = []
    found = explain(view, true, choices=choices)
    plays = _plays(view)
    assert choices and found.normal == (1.0,) * 4
    for step, who, hand, legal, alike, _shared in choices:
        assert who != seat and plays[step] == (who, plays[step][1])
        assert hand >> plays[step][1] & 1 and legal & (legal - 1)
        assert alike >> plays[step][1] & 1 and alike & ~legal == 0
    # Without the list, the rules of thumb weigh every choice as before.
    assert explain(view, true).normal != (1.0,) * 4


def test_play_factors_favour_worlds_where_the_model_expects_the_play() -> None:
    view = _hard_game(27).view(0)
    step = 1
    likely: Choice = (step, 1, 0b100001, 0b100001, 0b1, False)
    unlikely: Choice = (step, 1, 0b100001, 0b100001, 0b100000, True)
    only: Choice = (step, 2, 3 << 40, 3 << 40, 1 << 40, True)
    factors = play_factors(_lowest_first(), view, [[likely], [unlikely, only], []], floor=0.25)
    (normal0, shooting0), (normal1, shooting1), (normal2, shooting2) = factors
    assert normal0[1] == pytest.approx((0.25 + 1 / (1 + np.exp(-5))) / 1.25)
    assert shooting0[1] == 1.0  # a shooter's play for every point: the rules of thumb's
    assert normal1[1] == shooting1[1] == pytest.approx((0.25 + 1 / (1 + np.exp(5))) / 1.25)
    assert normal1[2] == shooting1[2] == pytest.approx((0.25 + 1 / (1 + np.exp(-1))) / 1.25)
    assert normal0[0] == normal0[2] == normal0[3] == 1.0
    assert normal2 == shooting2 == [1.0] * 4


def test_expert_learned_weighs_worlds_by_the_network() -> None:
    game = _hard_game(27)
    view = game.view(game.to_act()[0])
    bot = ExpertBot(1, learned=True)
    model_of = bot._model(view)
    assert model_of is not None and ExpertBot(1)._model(view) is None
    knowledge = constraints(view)
    kwargs: dict[str, Any] = {"resample": False}
    plain = weighted_deals(view, knowledge, random.Random(4), 60, 60, **kwargs)
    learned = weighted_deals(view, knowledge, random.Random(4), 60, 60, model=model_of, **kwargs)
    assert plain.deals == learned.deals  # the same worlds, weighed otherwise
    assert plain.weights != learned.weights and all(w > 0 for w in learned.weights)
    assert isinstance(bot.choose_play(view), Card)


def test_expert_learned_falls_back_to_the_rules_of_thumb_under_other_rules() -> None:
    game = _hard_game(20, Rules(players=3))
    view = game.view(game.to_act()[0])
    assert ExpertBot(1, learned=True)._model(view) is None
    assert ExpertBot(5, budget=20, pool=40, learned=True).choose_play(view) == ExpertBot(
        5, budget=20, pool=40
    ).choose_play(view)


def test_expert_learned_refuses_what_it_cannot_do() -> None:
    with pytest.raises(ValueError, match="learned: needs the inference"):
        ExpertBot(1, budget=40, pool=40, learned=True)
    with pytest.raises(ValueError, match="learned_floor"):
        ExpertBot(1, learned=True, learned_floor=0)
    assert isinstance(make_bot("expert", seed=1, learned=1, learned_floor=0.5), ExpertBot)


def test_expert_learned_takes_weights_of_ones_own(tmp_path: Path) -> None:
    """Found by a tester: weights trained with hearts train --weights FILE could only be
    measured by writing them over the package's."""
    from openhearts.bots.learned import shipped

    own = tmp_path / "own.npz"
    shipped().save(own)
    bot = make_bot("expert", seed=1, learned=1, learned_weights=str(own))
    assert isinstance(bot, ExpertBot) and bot._net is not None
    assert bot._net.rules == shipped().rules and bot._net is not shipped()
    with pytest.raises(ValueError, match="cannot read"):
        ExpertBot(1, learned=True, learned_weights=str(tmp_path / "none.npz"))
    (tmp_path / "bad.npz").write_bytes(b"not weights")
    with pytest.raises(ValueError, match="holds no weights of hearts train"):
        ExpertBot(1, learned=True, learned_weights=str(tmp_path / "bad.npz"))
    with pytest.raises(ValueError, match="only with learned=1"):
        ExpertBot(1, learned_weights=str(own))


# hearts train ----------------------------------------------------------------------


def _train(tmp_path: Path, *argv: str) -> int:
    parser = argparse.ArgumentParser()
    train.add_arguments(parser)
    args = parser.parse_args(
        ["--deals", "2", "--chunk", "1", "--workers", "1", "--epochs", "2", "--hidden", "8",
         "--seed", "t", "--data", str(tmp_path / "data"), "--weights", str(tmp_path / "w.npz"),
         *argv]
    )  # fmt: skip
    return train.run(args)


def test_train_plays_fits_and_resumes(tmp_path: Path, capsys: Any) -> None:
    assert _train(tmp_path) == 0
    printed = capsys.readouterr().err
    assert "played 2/2 chunks" in printed and "epoch 2/2" in printed
    net = PolicyNet.load(tmp_path / "w.npz")
    assert net.rules == Rules() and net.about["command"].startswith("hearts train --seed t")
    assert net.about["train_choices"] > 20 and net.about["held_out_choices"] > 20
    first = [w.copy() for w, _ in net.layers]
    chunks = sorted((tmp_path / "data").iterdir())
    assert [p.name for p in chunks] == ["chunk-t-00000-1deals.npz", "chunk-t-00001-1deals.npz"]
    stamps = [p.stat().st_mtime_ns for p in chunks]
    # Run again: the chunks on disk are kept, and the same seed fits the same weights.
    assert _train(tmp_path) == 0
    assert "played" not in capsys.readouterr().err
    assert [p.stat().st_mtime_ns for p in chunks] == stamps
    again = PolicyNet.load(tmp_path / "w.npz")
    assert all(np.array_equal(a, w) for a, (w, _) in zip(first, again.layers, strict=True))


def test_train_records_hards_choices(tmp_path: Path) -> None:
    found = train.play_deals("r", 1)
    cards, hands, legal = found["cards"], found["hands"], found["legal"]
    assert len(cards) == len(hands) == len(legal) == len(found["public"]) > 20
    for card, hand, allowed in zip(cards.tolist(), hands.tolist(), legal.tolist(), strict=True):
        assert allowed >> card & 1 and hand >> card & 1 and allowed & (allowed - 1)


def test_train_says_what_is_wrong_with_its_options(tmp_path: Path, capsys: Any) -> None:
    with pytest.raises(SystemExit):
        _train(tmp_path, "--deals", "0")
    assert "--deals: a whole number from 1 to" in capsys.readouterr().err
    assert _train(tmp_path, "--rate", "2") == 2
    assert "--rate" in capsys.readouterr().err
    assert _train(tmp_path, "--seed", "../up") == 2
    assert "--seed" in capsys.readouterr().err
    assert _train(tmp_path, "--deals", "1", "--chunk", "5") == 2
    assert "at least 2 chunks" in capsys.readouterr().err
    assert not (tmp_path / "data").exists()  # refused before anything was played
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    assert _train(tmp_path, "--data", str(blocked / "data")) == 2
    message = capsys.readouterr().err
    assert message.startswith("hearts train: ") and "Traceback" not in message


def test_train_help_gives_every_default() -> None:
    """``hearts train --help`` gave no default but those of --weights and --workers: how
    many deals a bare ``hearts train`` plays was not said anywhere."""
    parser = argparse.ArgumentParser(prog="hearts train")
    train.add_arguments(parser)
    shown = " ".join(parser.format_help().split())
    for option, default in (
        ("--seed SEED", "policy"),
        ("--deals N", "3000"),
        ("--chunk N", "50"),
        ("--data DIR", "train-data"),
        ("--epochs N", "12"),
        ("--hidden N", "128"),
        ("--rate X", "0.001"),
        ("--batch N", "256"),
    ):
        assert option in shown
        after = shown.split(f"{option} ", 1)[1].split(" --", 1)[0]
        assert f"(default: {default})" in after, (option, after)


def test_a_data_folder_that_is_a_file_is_said_before_playing(tmp_path: Path, capsys: Any) -> None:
    """``--data notes.txt`` was said as "hearts train: File exists (notes.txt)" (status 1),
    and ``--data notes.txt/data`` as "Not a directory"."""
    blocked = tmp_path / "notes.txt"
    blocked.write_text("not a folder")
    for data, why in ((blocked, "it is a file"), (blocked / "data", "is not a folder")):
        assert _train(tmp_path, "--data", str(data)) == 2
        message = capsys.readouterr().err
        assert message.startswith(f"hearts train: --data: cannot keep the chunks in {data}: ")
        assert why in message and message.count("\n") == 1
    assert not (tmp_path / "w.npz").exists()


def test_a_damaged_chunk_and_unwritable_weights_are_said_plainly(
    tmp_path: Path, capsys: Any
) -> None:
    """A damaged chunk was a BadZipFile traceback; weights that cannot be written were
    said only after the whole play and the first epoch."""
    assert _train(tmp_path, "--play-only") == 0
    capsys.readouterr()
    chunk = tmp_path / "data" / "chunk-t-00001-1deals.npz"
    chunk.write_bytes(chunk.read_bytes()[:100])
    assert _train(tmp_path) == 1
    message = capsys.readouterr().err
    assert message.startswith(f"hearts train: {chunk} is damaged") and "delete it" in message
    blocked = tmp_path / "afile"
    blocked.write_text("")
    for weights, why in ((blocked / "w.npz", "is not a folder"), (tmp_path, "is a folder")):
        assert _train(tmp_path, "--weights", str(weights), "--deals", "40") == 2
        assert why in capsys.readouterr().err
    assert len(list((tmp_path / "data").iterdir())) == 2, "refused before playing"


def test_the_last_chunk_holds_what_is_left(tmp_path: Path, capsys: Any) -> None:
    assert _train(tmp_path, "--deals", "3", "--chunk", "2", "--play-only") == 0
    names = sorted(p.name for p in (tmp_path / "data").iterdir())
    assert names == ["chunk-t-00000-2deals.npz", "chunk-t-00001-1deals.npz"]
    assert not (tmp_path / "w.npz").exists()
    # The one-deal chunk holds the first deal of the chunk's games, as a full chunk would.
    with np.load(tmp_path / "data" / names[1]) as small:
        full = train.play_deals("t:1", 2)
        assert np.array_equal(small["cards"], full["cards"][: len(small["cards"])])


def test_the_split_first_layer_gives_the_same_scores() -> None:
    net = model.shipped()
    view = _hard_game(27).view(0)
    rows = public_rows(_plays(view), 4, view.seat)
    steps = np.array([0, 3, 3, len(rows) - 1])
    hands = [0b1011, 1 << 40 | 1 << 7, 0, (1 << 52) - 1]
    whole = net.scores(model.inputs(rows[steps], hands))
    assert np.allclose(net.scores_of(rows, steps, hands), whole, atol=1e-4)


def test_cards_alike_are_the_run_of_known_cards_around_the_one_played() -> None:
    rng = random.Random(3)
    for _ in range(300):
        known = rng.getrandbits(52)
        card = rng.randrange(52)
        known |= 1 << card
        legal = known & rng.getrandbits(52) | 1 << card
        expected = sum(1 << c for c in range(52) if legal >> c & 1 and _alike(card, c, known))
        assert _alike_run(card, known) & legal == expected


def test_train_refuses_more_workers_than_any_machine_runs(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``--workers 10**30`` raised OverflowError from the process pool."""
    import argparse

    parser = argparse.ArgumentParser()
    train.add_arguments(parser)
    with pytest.raises(SystemExit):
        parser.parse_args(["--workers", "1" + "0" * 30])
    assert "--workers: a whole number from 1 to 256" in capsys.readouterr().err


def test_weights_in_a_folder_not_yet_there_are_written(tmp_path: Path, capsys: Any) -> None:
    """--weights models/w.npz, with no models folder: the check before playing let it
    through (its parent can be made), and after the play and the first epoch the run
    failed with "No such file or directory", the fit lost."""
    weights = tmp_path / "models" / "new" / "w.npz"
    assert _train(tmp_path, "--weights", str(weights)) == 0, capsys.readouterr().err
    assert PolicyNet.load(weights).rules == Rules()
