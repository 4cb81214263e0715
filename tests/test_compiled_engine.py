"""The compiled engine against its source: ``openhearts.deal`` and ``openhearts.game``
built by mypyc must behave exactly as the same modules run by the interpreter.

The interpreted run is a child process with ``OPENHEARTS_KERNEL=python``, which loads
both modules from their ``.py`` files.  Both runs play the same random games of every
preset and player count through the checked ``Game`` API, mixing in refused actions
(their messages are compared too), undo and moon choices, and write down everything the
API shows after each step; the two transcripts must be identical.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

import openhearts
from conftest import CONFIGS
from openhearts import _engine

ROOT = Path(__file__).resolve().parents[1]

#: Plays games and prints a transcript of what the API shows; run in both engines.
TRANSCRIPT = textwrap.dedent(
    """
    import json, random, sys
    import openhearts
    from openhearts import Game, IllegalActionError, MoonChoice, Pass, Play, Rules
    from openhearts.cards import cards_of

    def plain(value):
        # Compiled, a card passed as a Card is kept as the int it is (the annotations say
        # int); the source keeps the object it was given.  Equal values either way.
        if isinstance(value, int) and not isinstance(value, bool):
            return int(value)
        if isinstance(value, (tuple, list)):
            return type(value)(plain(item) for item in value)
        return value

    def transcript(configs, games_each):
        lines = []
        write = lines.append
        for preset, players in configs:
            for number in range(games_each):
                rng = random.Random(f"{preset}:{players}:{number}")
                game = Game(Rules.preset(preset, players, end_score=60), seed=number)
                steps = 0
                while not game.is_over and steps < 400:
                    steps += 1
                    roll = rng.random()
                    if roll < 0.04 and game.action_count:
                        write(repr(game.undo()))
                    elif roll < 0.10:
                        # Mostly refused: the message, and the game left unchanged.
                        before = game.action_count, game.phase, game.deal.key()
                        try:
                            odd = rng.choice([3.0, None, [1], "x", True, -1])
                            if rng.random() < 0.2:
                                # Wrong types too: refused with a reason, never a TypeError.
                                which = rng.choice(["pass_cards", "play", "view", "apply",
                                                    "why_illegal", "moon_totals"])
                                if which == "pass_cards":
                                    game.pass_cards(odd, [0, 1, 2])
                                elif which == "apply":
                                    game.apply(rng.choice([Pass(odd, [0, 1, 2]), Play(odd, odd),
                                                           MoonChoice(0, odd)]))
                                elif which == "why_illegal":
                                    write(game.why_illegal(odd))
                                else:
                                    getattr(game, which)(odd)
                            elif game.phase == "passing":
                                seat = rng.choice(game.to_act())
                                game.pass_cards(seat, rng.sample(range(52), rng.choice([2, 3])))
                            elif game.phase == "moon_choice":
                                game.choose_moon(rng.choice([odd, 0, 1, 2]), odd)
                            else:
                                game.play(rng.choice([rng.randrange(60), "ZZ", -1, "QS", odd]))
                        except IllegalActionError as error:
                            write(f"refused: {error}")
                        except TypeError as error:
                            write(f"TypeError: {error}")
                            if (game.action_count, game.phase, game.deal.key()) != before:
                                write("a refused action changed the game")
                    elif game.phase == "passing":
                        seat = rng.choice(game.to_act())
                        hand = cards_of(int(game.hand(seat)))
                        game.pass_cards(seat, rng.sample(hand, game.rules.cards_passed))
                    elif game.phase == "moon_choice":
                        game.choose_moon(game.current_player, rng.random() < 0.5)
                    else:
                        legal = cards_of(game.legal_mask())
                        card = rng.choice(legal)
                        game.play(openhearts.Card(card) if rng.random() < 0.5 else card)
                    seat = game.current_player
                    write(repr((game.phase, seat, plain(game.deal.key()), game.scores,
                                game.points_settled() if game.phase == "playing" else None,
                                str(game.legal_plays()), game.auto_play_card())))
                    if seat is not None:
                        write(repr(game.view(seat)))
                write(repr((game.results, game.actions[-5:], game.winners)))
        return lines

    configs = [tuple(config) for config in json.loads(sys.argv[1])]
    print(json.dumps({"compiled": openhearts.ENGINE_COMPILED,
                      "lines": transcript(configs, int(sys.argv[2]))}))
    """
)


def run_transcript(reference: bool, games_each: int) -> dict[str, object]:
    environment = {k: v for k, v in os.environ.items() if k != "OPENHEARTS_KERNEL"}
    if reference:
        environment["OPENHEARTS_KERNEL"] = "python"
    result = subprocess.run(
        [sys.executable, "-c", TRANSCRIPT, json.dumps(CONFIGS), str(games_each)],
        capture_output=True,
        text=True,
        env=environment,
        timeout=600,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    answer: dict[str, object] = json.loads(result.stdout)
    return answer


compiled_only = pytest.mark.skipif(
    not openhearts.ENGINE_COMPILED, reason="the engine is not compiled in this install"
)


@compiled_only
def test_the_compiled_engine_shows_exactly_what_the_source_shows() -> None:
    compiled = run_transcript(reference=False, games_each=2)
    reference = run_transcript(reference=True, games_each=2)
    assert compiled["compiled"] is True
    assert reference["compiled"] is False
    compiled_lines = compiled["lines"]
    reference_lines = reference["lines"]
    assert isinstance(compiled_lines, list) and isinstance(reference_lines, list)
    assert len(compiled_lines) > 5_000
    assert any(str(line).startswith("refused: ") for line in compiled_lines)
    assert "a refused action changed the game" not in compiled_lines
    assert not any(str(line).startswith("TypeError") for line in compiled_lines)
    for number, (ours, theirs) in enumerate(zip(compiled_lines, reference_lines, strict=True)):
        assert ours == theirs, f"line {number} differs"


@pytest.mark.slow
@compiled_only
def test_the_compiled_engine_matches_the_source_on_many_games() -> None:
    assert run_transcript(False, 12)["lines"] == run_transcript(True, 12)["lines"]


def test_ci_builds_the_compiled_engine() -> None:
    """CI must test the compiled engine (the differential tests above skip without it)."""
    assert openhearts.ENGINE_COMPILED or not os.environ.get("CI")


def test_the_reference_switch_loads_the_engine_from_source() -> None:
    code = "import openhearts.deal as d, openhearts.game as g; print(d.__file__, g.__file__)"
    environment = {**os.environ, "OPENHEARTS_KERNEL": "python"}
    result = subprocess.run(
        [sys.executable, "-W", "error", "-c", code],
        capture_output=True,
        text=True,
        env=environment,
        check=True,
    )
    assert [Path(name).name for name in result.stdout.split()] == ["deal.py", "game.py"]


def test_an_engine_run_from_source_unasked_says_so_once() -> None:
    # As where the build could not compile: the source is found before the compiled modules.
    code = textwrap.dedent(
        """
        import importlib.util, sys, warnings
        from pathlib import Path
        package = Path(importlib.util.find_spec("openhearts").origin).parent

        class Source:
            def find_spec(self, name, path=None, target=None):
                if name in ("openhearts.deal", "openhearts.game"):
                    file = package / (name.rpartition(".")[2] + ".py")
                    return importlib.util.spec_from_file_location(name, file)
                return None

        sys.meta_path.insert(0, Source())
        warnings.simplefilter("always")
        with warnings.catch_warnings(record=True) as caught:
            import openhearts
            openhearts.Game(seed=1)
        print(openhearts.ENGINE_COMPILED, len(caught))
        print(caught[0].message)
        """
    )
    environment = {k: v for k, v in os.environ.items() if k != "OPENHEARTS_KERNEL"}
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=environment, check=True
    )
    counts, message = result.stdout.splitlines()
    assert counts.split() == ["False", "1"]
    assert "compiled engine is missing" in message


def pytest_on_the_pure_python_engine(*arguments: str) -> str:
    """Run pytest with ``arguments`` in a child process on the pure-Python engine; its
    output, once it has passed."""
    environment = {**os.environ, "OPENHEARTS_KERNEL": "python"}
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
         *arguments],
        capture_output=True,
        text=True,
        env=environment,
        cwd=ROOT,
        timeout=600,
        check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    return result.stdout


@compiled_only
def test_the_doctests_of_the_compiled_modules_pass_on_their_source() -> None:
    """Compiled modules keep no docstrings, so the suite runs their doctests from source."""
    sources = [
        str(Path("src", *name.split(".")).with_suffix(".py")) for name in _engine.COMPILED_MODULES
    ]
    assert "3 passed" in pytest_on_the_pure_python_engine("--doctest-modules", *sources)


#: The engine's rules tests, run again on the pure-Python engine (the fallback) below.
ENGINE_TESTS = ("test_game.py", "test_corners.py", "test_game_lean.py", "test_settled.py")


@compiled_only
def test_the_engine_tests_pass_on_the_pure_python_engine() -> None:
    """The rest of the suite runs on the compiled engine; the fallback must keep every rule."""
    output = pytest_on_the_pure_python_engine(*(str(Path("tests", n)) for n in ENGINE_TESTS))
    assert " passed" in output and " failed" not in output


def import_with_deal_py_touched(root: Path, checkout: bool) -> tuple[str, str, str, list[str]]:
    """Copy the package to ``root/src`` (beside a ``pyproject.toml`` when ``checkout``),
    make its deal.py newer than the compiled module, import it there: whether the engine
    is compiled, where deal came from, how many warnings, and their texts."""
    package = Path(openhearts.__file__).parent
    copy = root / "src" / "openhearts"
    shutil.copytree(package, copy, ignore=shutil.ignore_patterns("__pycache__"))
    if checkout:
        (root / "pyproject.toml").write_text("[project]\nname = 'openhearts'\n")
    later = time.time() + 60
    os.utime(copy / "deal.py", (later, later))
    environment = {k: v for k, v in os.environ.items() if k != "OPENHEARTS_KERNEL"}
    environment["PYTHONPATH"] = str(root / "src")
    code = (
        "import warnings\n"
        "warnings.simplefilter('always')\n"
        "with warnings.catch_warnings(record=True) as caught:\n"
        "    import openhearts, openhearts.deal\n"
        "print(openhearts.ENGINE_COMPILED, openhearts.deal.__file__, len(caught))\n"
        "for warning in caught:\n"
        "    print(warning.message)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=environment, check=True
    )
    first, *messages = result.stdout.splitlines()
    flag, where, count = first.split()
    return flag, where, count, messages


@compiled_only
def test_a_compiled_module_older_than_its_source_is_passed_over(tmp_path: Path) -> None:
    """In a checkout, an edit to deal.py after the build (a checkout of another commit,
    say) runs, instead of the stale compiled code, with a warning that says how to
    compile again."""
    flag, where, count, messages = import_with_deal_py_touched(tmp_path, checkout=True)
    assert (flag, Path(where), count) == ("False", tmp_path / "src/openhearts/deal.py", "1")
    assert "deal.py changed since the engine was compiled" in messages[0]
    assert "pip install -e ." in messages[0]


@compiled_only
def test_an_installed_package_never_takes_its_files_dates_for_edits(tmp_path: Path) -> None:
    """Installed, the files date from the installation in any order: no checkout, no
    staleness check, the compiled engine runs."""
    flag, where, count, _messages = import_with_deal_py_touched(tmp_path, checkout=False)
    assert (flag, where.endswith(".py"), count) == ("True", False, "0")
