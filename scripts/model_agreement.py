"""How well two models of another player's play predict a player's actual cards.

Plays deals with four players of one level (``hard`` by default) and, at every choice
among two or more legal cards, asks the rules of thumb (:func:`openhearts.bots.policy.
play_policy`, the inference's model by default) and the learned model
(:mod:`openhearts.bots.learned`, ``expert:learned=1``) which card the player will play.
A guess counts when it plays alike with the card played (the same suit, with no unseen
card between them).  Reported: the share of choices each model guesses, and the
learned model's mean probability of the card played (alike cards summed).

    python scripts/model_agreement.py --deals 200 --seed agreement
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

import numpy as np

from openhearts import Game, Rules
from openhearts.bots import BotError, make_bot
from openhearts.bots.inference import _alike
from openhearts.bots.learned import inputs, public_rows, shipped
from openhearts.bots.policy import moon_threat, play_policy
from openhearts.game import PASSING, PLAYING


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", default="agreement")
    parser.add_argument("--level", default="hard", help="the players whose cards are guessed")
    args = parser.parse_args(argv)
    if args.deals < 1:
        parser.error("--deals: at least 1")
    # Built once here so that a bad level is said before the model is loaded.
    try:
        bot = make_bot(args.level, seed=args.seed)
    except BotError as error:
        parser.error(f"--level: {error}")
    close = getattr(bot, "close", None)
    if callable(close):
        close()
    net = shipped()
    rules = Rules()
    choices = thumb_hits = net_hits = 0
    chance = 0.0
    deals = game_number = 0
    while deals < args.deals:
        game = Game(rules, seed=f"{args.seed}:{game_number}")
        bots = [make_bot(args.level, seed=f"{args.seed}:{game_number}:{s}") for s in range(4)]
        deal = game.deal_number
        while not game.is_over and deals < args.deals:
            seat = game.to_act()[0]
            view = game.view(seat)
            if view.phase == PASSING:
                game.pass_cards(seat, bots[seat].choose_pass(view))
            elif view.phase == PLAYING:
                card = int(bots[seat].choose_play(view))
                legal = view.legal.mask
                if legal & (legal - 1):
                    hand = view.hand.mask
                    known = view.played.mask | hand
                    taken = [won.mask for won in view.won]
                    trick = [(w, int(c)) for w, c in view.trick]
                    leader = view.leader if view.leader is not None else seat
                    thumb = play_policy(
                        seat, hand, legal, [c for _, c in trick], leader, 4, view.played.mask,
                        moon_threat(taken, rules.point_mask), rules.jack_of_diamonds,
                    )  # fmt: skip
                    plays = [(who, int(c)) for who, c in view.plays]
                    x = inputs(public_rows(plays, 4, seat)[-1:], [hand])
                    probs = net.probabilities(x, [legal])[0]
                    alike = [c for c in range(52) if legal >> c & 1 and _alike(card, c, known)]
                    choices += 1
                    thumb_hits += _alike(thumb, card, known)
                    net_hits += _alike(int(np.argmax(probs)), card, known)
                    chance += float(probs[alike].sum())
                game.play(card, seat)
            else:
                game.choose_moon(seat, bool(bots[seat].choose_moon(view)))
            if game.deal_number != deal:
                deal = game.deal_number
                deals += 1
                print(f"\r{deals}/{args.deals} deals", end="", file=sys.stderr)
        game_number += 1
    print(file=sys.stderr)
    print(f"{args.deals} deals of four {args.level} players, {choices} choices among two or more")
    print(f"rules of thumb guess {thumb_hits / choices:.1%} of the cards played")
    print(f"the learned model's likeliest card: {net_hits / choices:.1%}")
    print(f"the learned model's mean probability of the card played: {chance / choices:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
