"""``hearts train``: make the learned model of ``hard``'s play from a seed.

Two steps, both shown as they go and both safe to interrupt:

1. **Play.**  Four ``hard`` players play deals of the standard game; every card a
   player chose among two or more legal cards is recorded with what it saw
   (:func:`openhearts.bots.learned.public_rows` and its hand).  The deals come in chunks
   of ``--chunk`` deals, each written to ``DATA/chunk-SEED-NNNNN-Mdeals.npz`` as it
   finishes, so an interrupted run loses only the chunks under way and the same command
   resumes.
2. **Fit.**  The network (:class:`openhearts.bots.learned.PolicyNet`) learns to give
   the chosen card a high probability among the legal ones (cross-entropy, Adam, numpy
   only).  The last tenth of the chunks is held out to report how often the network's
   likeliest card is the one ``hard`` played; the weights are written after every
   epoch that improves on the held-out loss.

The same ``--seed``, ``--deals``, ``--chunk`` and fitting options give the same weights
on the same machine.  docs/bots.md gives the command that made the shipped weights,
with its time and data sizes.
"""

from __future__ import annotations

import argparse
import itertools
import os
import re
import sys
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from .bots import make_bot
from .bots.learned import INPUTS, WEIGHTS, Array, PolicyNet, card_bits, inputs, public_rows
from .game import PASSING, PLAYING, Game
from .options import number, whole_number
from .rules import Rules
from .workers import MAX_WORKERS, map_unordered

_positive_count = whole_number(1, 10**9)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--seed", default="policy", help="seed of the deals and the fit (default: %(default)s)"
    )
    parser.add_argument(
        "--deals",
        metavar="N",
        type=_positive_count,
        default=3000,
        help="deals to play (default: %(default)s)",
    )
    parser.add_argument(
        "--chunk",
        metavar="N",
        type=_positive_count,
        default=50,
        help="deals per data file (default: %(default)s)",
    )
    parser.add_argument(
        "--data",
        metavar="DIR",
        type=Path,
        default=Path("train-data"),
        help="folder of the recorded choices, one file per chunk; a rerun resumes from it "
        "(default: %(default)s)",
    )
    parser.add_argument(
        "--weights",
        metavar="FILE",
        type=Path,
        default=WEIGHTS,
        help="where to write the weights (default: the package's own file, which "
        "expert:learned=1 loads: a run without --weights replaces the shipped model; "
        "measure other weights with expert:learned=1,learned_weights=FILE)",
    )
    parser.add_argument(
        "--workers",
        metavar="N",
        type=whole_number(1, MAX_WORKERS),
        default=os.cpu_count() or 1,
        help="processes playing chunks at once (default: one per core)",
    )
    parser.add_argument(
        "--epochs",
        metavar="N",
        type=_positive_count,
        default=12,
        help="passes over the data; the epoch with the lowest held-out loss is kept "
        "(default: %(default)s)",
    )
    parser.add_argument(
        "--hidden",
        metavar="N",
        type=whole_number(1, 4096),
        default=128,
        help="units per hidden layer (default: %(default)s)",
    )
    parser.add_argument(
        "--rate",
        metavar="X",
        type=number,
        default=1e-3,
        help="Adam's step size (default: %(default)s)",
    )
    parser.add_argument(
        "--batch",
        metavar="N",
        type=_positive_count,
        default=256,
        help="choices per step (default: %(default)s)",
    )
    parser.add_argument("--play-only", action="store_true", help="only play and record, do not fit")


def run(args: argparse.Namespace) -> int:
    if not 0 < args.rate < 1:
        print("hearts train: --rate: a step size above 0 and under 1", file=sys.stderr)
        return 2
    if not re.fullmatch(r"[\w.-]+", args.seed):
        print("hearts train: --seed: letters, digits, '_', '.' and '-' only", file=sys.stderr)
        return 2
    if args.deals <= args.chunk and not args.play_only:
        print(
            "hearts train: fitting needs at least 2 chunks, one held out: "
            "raise --deals or lower --chunk",
            file=sys.stderr,
        )
        return 2
    problem = _not_a_folder(args.data)
    if problem is not None:
        print(
            f"hearts train: --data: cannot keep the chunks in {args.data}: {problem}",
            file=sys.stderr,
        )
        return 2
    if not args.play_only:
        problem = _unwritable(args.weights)
        if problem is not None:
            # Said now, not after the hour of play and the first epoch.
            print(
                f"hearts train: --weights: cannot write {args.weights}: {problem}", file=sys.stderr
            )
            return 2
    try:
        return _train(args)
    except ChunkError as error:
        print(f"hearts train: {error}", file=sys.stderr)
        return 1
    except OSError as error:
        where = f" ({error.filename})" if error.filename else ""
        print(f"hearts train: {error.strerror or error}{where}", file=sys.stderr)
        return 1


class ChunkError(ValueError):
    """A chunk of recorded play on disk cannot be read."""


def _not_a_folder(path: Path) -> str | None:
    """Why ``path`` cannot be (or become) a folder, or None."""
    if path.exists():
        return None if path.is_dir() else "it is a file, not a folder"
    folder = path.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    return None if folder.is_dir() else f"{folder} is not a folder"


def _unwritable(path: Path) -> str | None:
    """Why ``path`` cannot be written (without changing it), or None."""
    if path.is_dir():
        return "it is a folder"
    folder = path.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    if not folder.is_dir():
        return f"{folder} is not a folder"
    target = path if path.exists() else folder
    if not os.access(target, os.W_OK):
        return "permission denied"
    return None


def _train(args: argparse.Namespace) -> int:
    sizes = [min(args.chunk, args.deals - start) for start in range(0, args.deals, args.chunk)]
    args.data.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    for done, total, samples in play_chunks(args.seed, sizes, args.data, args.workers):
        print(
            f"played {done}/{total} chunks of up to {args.chunk} deals "
            f"({samples} choices recorded, {time.monotonic() - started:.0f} s)",
            file=sys.stderr,
        )
    if args.play_only:
        return 0
    files = [args.data / _chunk_name(args.seed, i, size) for i, size in enumerate(sizes)]
    # Its folder may be one still to make (the check before playing allows that).
    args.weights.parent.mkdir(parents=True, exist_ok=True)
    net = fit(files, args.seed, args.epochs, args.hidden, args.rate, args.batch, args.weights)
    net.about["command"] = _command(args)
    net.about["play_seconds_and_fit_seconds_total"] = round(time.monotonic() - started)
    net.save(args.weights)
    print(f"weights written to {args.weights}", file=sys.stderr)
    return 0


def _command(args: argparse.Namespace) -> str:
    return (
        f"hearts train --seed {args.seed} --deals {args.deals} --chunk {args.chunk} "
        f"--epochs {args.epochs} --hidden {args.hidden} --rate {args.rate} --batch {args.batch}"
    )


def _chunk_name(seed: str, index: int, deals: int) -> str:
    # The size is in the name: a chunk of another size holds other deals.
    return f"chunk-{seed}-{index:05d}-{deals}deals.npz"


def play_chunks(
    seed: str, sizes: list[int], data: Path, workers: int
) -> Iterator[tuple[int, int, int]]:
    """Play the chunks (of ``sizes[i]`` deals each) not yet on disk; yield (chunks done,
    chunks, choices recorded in the last one)."""
    todo = [i for i, size in enumerate(sizes) if not (data / _chunk_name(seed, i, size)).exists()]
    done = len(sizes) - len(todo)
    pieces = [(seed, index, sizes[index], data) for index in todo]
    stopping = "Stopping once the chunks being played are written"
    for _piece, samples in map_unordered(_write_piece, pieces, workers, stopping):
        done += 1
        yield done, len(sizes), samples


def _write_piece(piece: tuple[str, int, int, Path]) -> int:
    return _write_chunk(*piece)


def _write_chunk(seed: str, index: int, deals: int, data: Path) -> int:
    found = play_deals(f"{seed}:{index}", deals)
    path = data / _chunk_name(seed, index, deals)
    partial = path.with_suffix(".part")
    with partial.open("wb") as handle:
        np.savez_compressed(handle, **found)
    partial.replace(path)  # a chunk on disk is always whole
    return len(found["cards"])


def play_deals(seed: str, deals: int) -> dict[str, Any]:
    """Play ``deals`` deals of the standard game with four ``hard`` players and record
    each choice among two or more legal cards: public rows (float16), hands and legal
    cards (as masks) and the card played."""
    rows: list[Array] = []
    hands: list[int] = []
    legal: list[int] = []
    cards: list[int] = []
    played = 0
    game_number = 0
    while played < deals:
        game = Game(Rules(), seed=f"{seed}:{game_number}")
        bots = [make_bot("hard", seed=f"{seed}:{game_number}:{s}") for s in range(4)]
        deal = game.deal_number
        while not game.is_over and played < deals:
            seat = game.to_act()[0]
            view = game.view(seat)
            if view.phase == PLAYING and len(view.legal) > 1:
                plays = [(who, int(card)) for who, card in view.plays]
                rows.append(public_rows(plays, 4, seat)[-1])
                hands.append(view.hand.mask)
                legal.append(view.legal.mask)
                card = int(bots[seat].choose_play(view))
                cards.append(card)
                game.play(card, seat)
            elif view.phase == PASSING:
                game.pass_cards(seat, bots[seat].choose_pass(view))
            elif view.phase == PLAYING:
                game.play(int(next(iter(view.legal))), seat)
            else:
                game.choose_moon(seat, bool(bots[seat].choose_moon(view)))
            if game.deal_number != deal:
                deal = game.deal_number
                played += 1
        game_number += 1
    return {
        "public": np.asarray(rows, dtype=np.float16).reshape(-1, INPUTS - 52),
        "hands": np.asarray(hands, dtype=np.uint64),
        "legal": np.asarray(legal, dtype=np.uint64),
        "cards": np.asarray(cards, dtype=np.uint8),
    }


def _load(files: list[Path]) -> tuple[Array, npt.NDArray[np.uint64], npt.NDArray[np.int64]]:
    publics: list[Array] = []
    hands: list[int] = []
    legal: list[npt.NDArray[np.uint64]] = []
    cards: list[npt.NDArray[np.int64]] = []
    for path in files:
        try:
            with np.load(path) as data:
                publics.append(data["public"].astype(np.float32))
                hands.extend(int(h) for h in data["hands"])
                legal.append(data["legal"])
                cards.append(data["cards"].astype(np.int64))
        except (ValueError, KeyError, EOFError, zipfile.BadZipFile) as error:
            # A chunk is written whole or not at all, so this one was damaged since.
            raise ChunkError(
                f"{path} is damaged ({error}): delete it and run the same command again "
                "to play it anew"
            ) from None
    x = inputs(np.concatenate(publics), hands)
    return x, np.concatenate(legal), np.concatenate(cards)


def fit(
    files: list[Path],
    seed: str,
    epochs: int,
    hidden: int,
    rate: float,
    batch: int,
    weights: Path,
) -> PolicyNet:
    """Fit the network on the chunks ``files`` (the last tenth held out) and return it;
    the best epoch so far is also written to ``weights`` as it is found."""
    held = max(1, len(files) // 10)
    x, legal, cards = _load(files[:-held])
    vx, vlegal, vcards = _load(files[-held:])
    rng = np.random.default_rng(list(seed.encode()))
    sizes = [INPUTS, hidden, hidden, 52]
    layers = [
        (
            (rng.standard_normal((a, b)) * np.sqrt(2 / a)).astype(np.float32),
            np.zeros(b, dtype=np.float32),
        )
        for a, b in itertools.pairwise(sizes)
    ]
    moments = [[np.zeros_like(p) for p in layer] for layer in layers]
    squares = [[np.zeros_like(p) for p in layer] for layer in layers]
    mask = card_bits(legal).astype(bool)
    vmask = card_bits(vlegal).astype(bool)
    best = np.inf
    step = 0
    about: dict[str, Any] = {"train_choices": len(cards), "held_out_choices": len(vcards)}
    net = PolicyNet(tuple(layers), Rules(), about)
    for epoch in range(1, epochs + 1):
        order = rng.permutation(len(cards))
        total = 0.0
        for start in range(0, len(order), batch):
            chosen = order[start : start + batch]
            step += 1
            total += _step(layers, moments, squares, x[chosen], mask[chosen], cards[chosen],
                           rate, step) * len(chosen)  # fmt: skip
        loss, accuracy = _evaluate(layers, vx, vmask, vcards)
        print(
            f"epoch {epoch}/{epochs}: training loss {total / len(cards):.4f}, held-out loss "
            f"{loss:.4f}, held-out choices guessed {accuracy:.1%}",
            file=sys.stderr,
        )
        if loss < best:
            best = loss
            about |= {"epoch": epoch, "held_out_loss": round(loss, 4),
                      "held_out_accuracy": round(accuracy, 4)}  # fmt: skip
            net = PolicyNet(tuple((w.copy(), b.copy()) for w, b in layers), Rules(), dict(about))
            net.save(weights)
    return net


def _forward(
    layers: list[tuple[Array, Array]], x: Array, mask: npt.NDArray[np.bool_]
) -> tuple[list[Array], Array]:
    """Each layer's input, and the probabilities over the legal cards."""
    seen = [x]
    for weight, bias in layers[:-1]:
        x = np.maximum(x @ weight + bias, 0)
        seen.append(x)
    weight, bias = layers[-1]
    scores = np.where(mask, x @ weight + bias, -np.inf)
    scores -= scores.max(axis=1, keepdims=True)
    odds = np.exp(scores)
    return seen, odds / odds.sum(axis=1, keepdims=True)


def _step(
    layers: list[tuple[Array, Array]],
    moments: list[list[Array]],
    squares: list[list[Array]],
    x: Array,
    mask: npt.NDArray[np.bool_],
    cards: npt.NDArray[np.int64],
    rate: float,
    step: int,
) -> float:
    """One Adam step on a batch; the batch's mean loss before it."""
    seen, probs = _forward(layers, x, mask)
    rows = np.arange(len(cards))
    loss = float(-np.log(probs[rows, cards] + 1e-12).mean())
    grad = probs.copy()
    grad[rows, cards] -= 1
    grad /= len(cards)
    for index in range(len(layers) - 1, -1, -1):
        weight = layers[index][0]
        below = seen[index]
        grads = (below.T @ grad, grad.sum(axis=0))
        if index:
            grad = (grad @ weight.T) * (below > 0)
        for part, (param, g) in enumerate(zip(layers[index], grads, strict=True)):
            m = moments[index][part]
            v = squares[index][part]
            m *= 0.9
            m += 0.1 * g
            v *= 0.999
            v += 0.001 * g * g
            m_hat = m / (1 - 0.9**step)
            v_hat = v / (1 - 0.999**step)
            param -= (rate * m_hat / (np.sqrt(v_hat) + 1e-8)).astype(np.float32)
    return loss


def _evaluate(
    layers: list[tuple[Array, Array]],
    x: Array,
    mask: npt.NDArray[np.bool_],
    cards: npt.NDArray[np.int64],
) -> tuple[float, float]:
    """Mean loss and the share of choices where the likeliest card is the one played."""
    losses, hits = [], 0
    for start in range(0, len(cards), 4096):
        part = slice(start, start + 4096)
        _, probs = _forward(layers, x[part], mask[part])
        rows = np.arange(len(probs))
        losses.append(-np.log(probs[rows, cards[part]] + 1e-12))
        hits += int((probs.argmax(axis=1) == cards[part]).sum())
    return float(np.concatenate(losses).mean()), hits / max(1, len(cards))


def main() -> int:
    parser = argparse.ArgumentParser(prog="hearts train", description=__doc__.split("\n")[0])
    add_arguments(parser)
    return run(parser.parse_args())


if __name__ == "__main__":
    sys.exit(main())
