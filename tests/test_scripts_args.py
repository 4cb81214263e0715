"""Arguments of ``scripts/model_agreement.py`` and ``benchmarks/bots.py``: bad ones are
said in one line, as argparse says them, and the figures hold on small samples.  Also the
arguments of the training command the docs show."""

from __future__ import annotations

import argparse
import importlib.util
import random
import re
import shlex
import statistics
import sys
from collections.abc import Callable, Sequence
from types import ModuleType

import pytest

from script_support import ROOT, load_script


def _benchmark(name: str) -> ModuleType:
    """``benchmarks/NAME.py`` as a module (under another name than any package's)."""
    spec = importlib.util.spec_from_file_location(
        f"benchmark_{name}", ROOT / "benchmarks" / f"{name}.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _refused(
    main: Callable[[list[str]], object], argv: Sequence[str], capsys: pytest.CaptureFixture[str]
) -> str:
    """The message ``main(argv)`` stops with, after checking it is an argument error."""
    with pytest.raises(SystemExit) as stopped:
        main(list(argv))
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return err.strip().splitlines()[-1]


MODEL_AGREEMENT = {
    "no deals": (["--deals", "0"], "--deals: at least 1"),
    "unknown level": (["--level", "nosuch"], "--level: no bot level 'nosuch'"),
    "bad option": (["--level", "hard:budget=0"], "--level: bot 'hard': budget: 1 to 1,000,000"),
}


@pytest.mark.parametrize(("argv", "message"), MODEL_AGREEMENT.values(), ids=MODEL_AGREEMENT)
def test_model_agreement_refuses_bad_arguments(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    script = load_script("model_agreement")
    assert message in _refused(script.main, argv, capsys)


BOTS = {
    "no deals": (["--deals", "0"], "--deals: at least 1"),
    "unknown level": (["--level", "nosuch", "--deals", "1"], "no bot level 'nosuch'"),
    "no budget": (["--budget", "0", "--deals", "1"], "budget: 1 to 1,000,000 worlds"),
    "no workers": (["--workers", "0", "--deals", "1"], "workers: at least one"),
    "unknown option": (["--level", "easy", "--option", "x=1"], "takes no options"),
    "option for hard": (["--option", "learned=1", "--deals", "1"], "--option: not for hard"),
}


@pytest.mark.parametrize(("argv", "message"), BOTS.values(), ids=BOTS)
def test_the_bots_benchmark_refuses_bad_arguments(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    bench = _benchmark("bots")
    assert message in _refused(bench.main, argv, capsys)


def test_the_95th_percentile_is_never_below_the_median() -> None:
    bench = _benchmark("bots")
    # Of two decisions, the slower: the 95th percentile of two is no faster than their mean.
    assert bench.summary([0.001, 0.002])["p95_ms"] == 2.0
    assert bench.summary([0.003])["p95_ms"] == 3.0
    # The nearest rank: 19 of 20 decisions take no longer than the 19th.
    assert bench.summary([n / 1000 for n in range(1, 21)])["p95_ms"] == 19.0
    draw = random.Random(1)
    for size in range(1, 60):
        times = [draw.expovariate(1000) for _ in range(size)]
        figures = bench.summary(times)
        assert figures["median_ms"] <= figures["p95_ms"] <= figures["max_ms"]
        assert figures["median_ms"] == round(1000 * statistics.median(times), 2)
    assert bench.summary([])["decisions"] == 0


def test_the_training_command_of_the_docs_remakes_the_shipped_weights() -> None:
    pytest.importorskip("numpy")
    from openhearts.bots.learned import WEIGHTS, shipped
    from openhearts.train import add_arguments

    def parsed(command: str) -> argparse.Namespace:
        parser = argparse.ArgumentParser()
        add_arguments(parser)
        return parser.parse_args(shlex.split(command)[2:])

    made_with = parsed(shipped().about["command"])
    commands = [
        command
        for doc in ("README.md", "docs/bots.md")
        for command in re.findall(r"hearts train --[^`\n]*", (ROOT / doc).read_text())
    ]
    assert len(commands) >= 3
    for command in commands:
        args = parsed(command)
        # A command that writes the package's weights must write the same ones.
        if args.weights == WEIGHTS:
            for option in ("seed", "deals", "chunk", "epochs", "hidden", "rate", "batch"):
                assert getattr(args, option) == getattr(made_with, option), (command, option)


def test_keys_doc_help_writes_nothing(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``scripts/keys_doc.py --help`` rewrote docs/keys.md instead of helping."""
    script = load_script("keys_doc")
    written: list[object] = []
    monkeypatch.setattr(script.Path, "write_text", lambda *args, **kwargs: written.append(args))
    with pytest.raises(SystemExit) as stopped:
        script.main(["--help"])
    assert stopped.value.code == 0 and written == []
    assert "Write docs/keys.md from the one key map" in capsys.readouterr().out
