"""The lean core: the engine, records, bots, the arena and the plain game need only Python;
the faces name the extra to install when theirs is missing; the version lives in one place."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import tomllib
import venv
import zipfile
from pathlib import Path

import pytest

import openhearts

ROOT = Path(__file__).resolve().parents[1]

#: Run first in a child interpreter: any import of a module that is neither in the
#: standard library nor ours fails, as it would where no dependency is installed.
BLOCK_THIRD_PARTY = textwrap.dedent(
    """
    import sys

    class NoThirdParty:
        def find_spec(self, name, path=None, target=None):
            top = name.partition(".")[0]
            if BLOCKED is not None and top not in BLOCKED:
                return None
            if top in sys.stdlib_module_names or top == "openhearts":
                return None
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)

    sys.meta_path.insert(0, NoThirdParty())
    """
)


def run_without_dependencies(
    code: str, tmp_path: Path, stdin: str = "", only: tuple[str, ...] | None = None
) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a child interpreter where no third-party package can be imported
    (with ``only``: just those packages cannot)."""
    environment = {**os.environ, "OPENHEARTS_HOME": str(tmp_path), "PYTHONPATH": str(ROOT / "src")}
    block = f"BLOCKED = {None if only is None else set(only)!r}\n" + BLOCK_THIRD_PARTY
    return subprocess.run(
        [sys.executable, "-c", block + textwrap.dedent(code)],
        capture_output=True,
        text=True,
        input=stdin,
        env=environment,
        timeout=120,
        check=False,
    )


def pyproject() -> dict[str, object]:
    with (ROOT / "pyproject.toml").open("rb") as handle:
        return tomllib.load(handle)


def test_the_core_declares_no_dependency_and_every_face_has_an_extra() -> None:
    project = pyproject()["project"]
    assert isinstance(project, dict)
    assert project["dependencies"] == []
    extras = project["optional-dependencies"]
    assert {"tui", "web", "postgres", "rl", "all", "test"} <= set(extras)
    assert "openhearts[all]" in extras["test"]


def test_the_version_is_kept_in_one_place() -> None:
    project = pyproject()["project"]
    assert isinstance(project, dict)
    assert "version" not in project and project["dynamic"] == ["version"]
    dynamic = pyproject()["tool"]["setuptools"]["dynamic"]  # type: ignore[index]
    assert dynamic["version"] == {"attr": "openhearts.__version__"}
    assert f"## {openhearts.__version__}" in (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")


def test_the_licence_file_matches_the_declared_licence() -> None:
    assert pyproject()["project"]["license"] == {"text": "MIT"}  # type: ignore[index]
    assert (ROOT / "LICENSE").read_text(encoding="utf-8").startswith("MIT License")


def test_engine_records_bots_and_arena_run_with_the_standard_library_alone(
    tmp_path: Path,
) -> None:
    result = run_without_dependencies(
        f"""
        import argparse
        import openhearts
        from openhearts import record
        from openhearts.arena import add_arguments, run
        from openhearts.bots import act, make_bot

        openhearts.Game(openhearts.Rules(), seed=1)
        game = openhearts.Game(seed=3)
        bots = [make_bot(level, seed) for seed, level in enumerate(["hard", "easy", "random"] * 2)]
        for _ in range(20):
            seat = game.to_act()[0]
            act(game, seat, bots[seat])
        record.save(game, {str(tmp_path / "game.json")!r})
        assert record.load({str(tmp_path / "game.json")!r}).actions == game.actions
        parser = argparse.ArgumentParser()
        add_arguments(parser)
        assert run(parser.parse_args(["--deals", "1", "--workers", "1"])) == 0
        import openhearts.cli, openhearts.plain, openhearts.replay, openhearts.paths
        print("core ok")
        """,
        tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert "core ok" in result.stdout


def test_the_learned_expert_without_numpy_says_what_to_install(tmp_path: Path) -> None:
    result = run_without_dependencies(
        """
        from openhearts.arena import main
        raise SystemExit(main(["--bot", "expert:learned=1", "--bot", "hard", "--deals", "1"]))
        """,
        tmp_path,
        only=("numpy",),
    )
    assert result.returncode == 2, result.stderr
    assert "learned: needs numpy" in result.stderr and "openhearts[rl]" in result.stderr
    assert "Traceback" not in result.stderr


def test_library_modules_that_need_an_extra_name_it_when_imported(tmp_path: Path) -> None:
    """Found by a tester: ``import openhearts.env`` without the extra was a bare "No
    module named 'gymnasium'", where every command names what to install."""
    result = run_without_dependencies(
        """
        for name in ("openhearts.env", "openhearts.openspiel_game", "openhearts.observation"):
            try:
                __import__(name)
            except ModuleNotFoundError as error:
                print(name, "|", error)
        """,
        tmp_path,
    )
    lines = result.stdout.splitlines()
    assert len(lines) == 3, (result.stdout, result.stderr)
    for line in lines:
        assert "not installed: pip install 'openhearts[" in line, line


def test_hearts_and_its_help_need_no_extra(tmp_path: Path) -> None:
    """``hearts`` and ``hearts --help`` list the commands on a bare install; only a
    command whose extra is missing says so."""
    for arguments in ([], ["--help"]):
        result = run_without_dependencies(
            f"from openhearts.cli import main; raise SystemExit(main({arguments!r}))", tmp_path
        )
        assert result.returncode == 0, result.stderr
        assert "serve" in result.stdout and "train" in result.stdout, result.stdout
        assert result.stderr == ""


def test_the_web_server_without_its_extra_names_it_in_one_line(tmp_path: Path) -> None:
    result = run_without_dependencies(
        "from openhearts.cli import main; raise SystemExit(main(['serve']))", tmp_path
    )
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "hearts serve: the web game's packages are not installed: pip install 'openhearts[web]' "
        "(starlette is missing)"
    ]


def test_the_web_server_on_postgresql_without_the_driver_names_the_extra(tmp_path: Path) -> None:
    result = run_without_dependencies(
        "from openhearts.cli import main; "
        "raise SystemExit(main(['serve', '--database', 'postgresql://u@127.0.0.1:1/db']))",
        tmp_path,
        only=("psycopg",),
    )
    assert result.stderr.strip().splitlines()[-1] == (
        "hearts serve: the PostgreSQL driver is not installed: "
        "pip install 'openhearts[postgres]' (psycopg is missing)"
    )
    assert result.returncode == 1


def test_the_terminal_game_without_its_extra_says_so_and_plays_in_plain_lines(
    tmp_path: Path,
) -> None:
    result = run_without_dependencies(
        """
        import types, sys
        import openhearts.play
        from openhearts.cli import main

        class Terminal:
            def isatty(self):
                return True

        # As if run in a terminal, where ``hearts play`` opens the terminal game.
        openhearts.play.sys = types.SimpleNamespace(stdin=Terminal(), stdout=Terminal())
        raise SystemExit(main(["play", "--seed", "1"]))
        """,
        tmp_path,
        stdin="quit\n",
    )
    assert result.returncode == 0, result.stderr
    first, second = result.stdout.splitlines()[:2]
    assert first.startswith("hearts play: the terminal game's packages are not installed: ")
    assert "pip install 'openhearts[tui]'" in first
    assert second == "Playing in plain lines instead."
    assert "The game is saved in" in result.stdout
    assert "Traceback" not in result.stderr


@pytest.mark.slow
def test_pip_install_without_extras_installs_nothing_else(tmp_path: Path) -> None:
    """The check of the issue, done for real: a fresh virtual environment, ``pip install .``."""
    wheels = tmp_path / "wheels"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(wheels), str(ROOT)],
        check=True,
        timeout=300,
    )
    (wheel,) = wheels.glob("openhearts-*.whl")
    # The learned model's weights ship inside the package.
    assert "openhearts/bots/hard_policy.npz" in zipfile.ZipFile(wheel).namelist()
    environment = tmp_path / "venv"
    venv.create(environment, with_pip=True)
    python = environment / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    # No index: any dependency would make the install fail instead of being fetched.
    subprocess.run(
        [str(python), "-m", "pip", "install", "-q", "--no-index", str(wheel)],
        check=True,
        timeout=300,
    )
    listed = subprocess.run(
        [str(python), "-m", "pip", "list", "--format=freeze"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    names = {line.split("==")[0].lower() for line in listed}
    assert names - {"pip", "setuptools", "wheel"} == {"openhearts"}
    subprocess.run(
        [str(python), "-c", "import openhearts; openhearts.Game(openhearts.Rules(), seed=1)"],
        check=True,
        timeout=60,
    )
