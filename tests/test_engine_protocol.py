"""Bots in other languages through the engine protocol: the JavaScript example plays a
whole arena match; slow, crashing, lying and garbled programs are reported and replaced
by a fallback bot while the game goes on."""

from __future__ import annotations

import argparse
import json
import logging
import os
import queue
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from openhearts import Game, MoonChoice, Play, Rules
from openhearts.arena import add_arguments, run
from openhearts.bots import BotError, RandomBot, act, make_bot
from openhearts.bots.engine import EngineBot, EngineFault, EngineStopped, _Program, view_message
from openhearts.session import Session
from openhearts.session.events import BotReplaced

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "engines" / "ducker.js"

#: A test program: plays its first legal card, and misbehaves on the third trick
#: in the way its first argument names.
PROGRAM = """
import json, os, sys, time

mode = sys.argv[1]
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        reply = {"type": "nope"} if mode == "handshake" else {"type": "ready", "name": mode}
        print(json.dumps(reply), flush=True)
    elif message["type"] == "quit":
        break
    elif message["type"] == "act":
        if len(sys.argv) > 2:  # a log of the decisions asked for
            with open(sys.argv[2], "a") as log:
                print(message["decision"], file=log)
        print(json.dumps({"type": "info", "text": "thinking"}), flush=True)
        if mode == "longest":  # an info line as long as a line may be
            padding = "x" * (1_048_576 - len('{"type":"info","text":""}'))
            print('{"type":"info","text":"' + padding + '"}', flush=True)
        decision = message["decision"]
        if decision == "pass":
            reply = {"cards": message["hand"][: message["rules"]["cards_passed"]]}
            if mode == "shortpass":
                reply = {"cards": message["hand"][:1]}
        elif decision == "moon":
            reply = {"others_add": True}
        else:
            reply = {"card": message["legal"][0]}
            held_but_not_legal = [c for c in message["hand"] if c not in message["legal"]]
            if mode == "illegal" and len(message["tricks"]) >= 2 and held_but_not_legal:
                reply = {"card": held_but_not_legal[0]}
            if len(message["tricks"]) == 2:
                if mode == "slow":
                    time.sleep(30)
                if mode == "mute":  # closes its output, and runs on
                    os.close(1)
                    time.sleep(30)
                if mode == "crash":
                    print("out of memory, or so", file=sys.stderr, flush=True)
                    sys.exit(3)
                if mode == "liar":
                    reply = {"card": message["tricks"][0]["cards"][0]}
                if mode == "garbled":
                    print("I play the queen!", flush=True)
                    continue
                if mode == "chatty":  # thinks aloud without end
                    while True:
                        sys.stdout.write('{"type": "info", "text": "hmm"}\\n' * 1000)
                if mode == "endless":  # a line without end
                    while True:
                        sys.stdout.write("x" * 100000)
        print(json.dumps(reply), flush=True)
"""


def program(tmp_path: Path, mode: str, *log: Path) -> str:
    path = tmp_path / "engine.py"
    path.write_text(PROGRAM, encoding="utf-8")
    return shlex.join([sys.executable, str(path), mode, *map(str, log)])


def play_game(bot: EngineBot, seed: int = 3) -> Game:
    game = Game(Rules.preset("standard", end_score=40), seed=seed)
    bots = [bot, *(make_bot("random", seat) for seat in range(1, 4))]
    try:
        while not game.is_over:
            seat = game.to_act()[0]
            act(game, seat, bots[seat])
    finally:
        bot.close()
    return game


#: A program that logs every message it is sent, and plays its first legal card.
LOGGER = """
import json, sys

for line in sys.stdin:
    message = json.loads(line)
    with open(sys.argv[1], "a") as log:
        print(line.strip(), file=log)
    if message["type"] == "hello":
        print(json.dumps({"type": "ready"}), flush=True)
    elif message["type"] == "quit":
        break
    elif message["type"] == "act":
        if message["decision"] == "pass":
            reply = {"cards": message["hand"][: message["rules"]["cards_passed"]]}
        elif message["decision"] == "moon":
            reply = {"others_add": True}
        else:
            reply = {"card": message["legal"][0]}
        print(json.dumps(reply), flush=True)
"""


def test_a_program_failing_in_the_pass_is_reported_at_the_pass(tmp_path: Path) -> None:
    bot = EngineBot(program(tmp_path, "shortpass"), seed=1, fallback="random")
    game = Game(Rules(), seed=3)
    try:
        act(game, 0, bot)
    finally:
        bot.close()
    (fault,) = bot.faults
    assert fault.startswith("deal 0, the pass, seat 0: "), fault


def test_the_seed_sent_to_a_program_does_not_give_away_the_deal(tmp_path: Path) -> None:
    """The host's bot seeds are made from the game's seed ("seed:board:rotation:seat" in
    the arena), from which every hand can be dealt: a program gets a digest instead,
    the same for the same bot seed."""
    script = tmp_path / "logger.py"
    script.write_text(LOGGER, encoding="utf-8")

    def seed_sent(bot_seed: str, log: Path) -> str:
        bot = EngineBot(shlex.join([sys.executable, str(script), str(log)]), seed=bot_seed)
        game = Game(Rules(), seed="S:0")
        try:
            act(game, 0, bot)
        finally:
            bot.close()
        messages = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
        (new_game,) = [m for m in messages if m["type"] == "new_game"]
        return str(new_game["seed"])

    sent = seed_sent("S:0:1:0", tmp_path / "a.log")
    assert "S:0" not in sent and len(sent) == 16
    assert seed_sent("S:0:1:0", tmp_path / "b.log") == sent
    assert seed_sent("S:0:1:1", tmp_path / "c.log") != sent


@pytest.mark.skipif(not hasattr(os, "getpgid"), reason="process groups are POSIX only")
def test_a_program_is_out_of_the_terminal_process_group(tmp_path: Path) -> None:
    """A Ctrl-C at the terminal reaches its whole process group: the game waits for the
    program's move and then stops, so the program itself must not get it."""
    bot = EngineBot(program(tmp_path, "fine"), seed=1)
    try:
        act(Game(Rules(), seed=3), 0, bot)
        process = bot._program.process if bot._program else None
        assert process is not None
        assert os.getpgid(process.pid) != os.getpgid(0)
    finally:
        bot.close()


def _running(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie, ended but not yet reaped, does not)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text(encoding="utf-8")
    except OSError:
        return False
    return "\nState:\tZ" not in status


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc (Linux)")
def test_a_program_run_by_a_script_is_stopped_with_it(tmp_path: Path) -> None:
    """Found by a tester: ``cmd:./run.sh`` whose script runs the bot (without exec)
    left the bot running after the game, only the script being killed."""
    pid_file = tmp_path / "pid"
    bot_program = tmp_path / "bot.py"
    bot_program.write_text(
        "import os, sys, time\n"
        f"open({str(pid_file)!r}, 'w').write(str(os.getpid()))\n"
        "sys.stdin.readline()\n"
        "time.sleep(60)\n",
        encoding="utf-8",
    )
    script = tmp_path / "run.sh"
    script.write_text(f"#!/bin/sh\n{shlex.join([sys.executable, str(bot_program)])}\n")
    bot = EngineBot(f"sh {shlex.quote(str(script))}", seed=1, start_limit=2)
    with pytest.raises(EngineFault, match="gave no answer"):
        bot.check()
    pid = int(pid_file.read_text(encoding="utf-8"))
    try:
        # The host itself waited as long as the bot lived, reading its output.
        closing = threading.Thread(target=bot.close, daemon=True)
        closing.start()
        closing.join(timeout=30)
        assert not closing.is_alive(), "closing waited for the bot the script ran"
        for _ in range(100):  # a killed process is gone within moments
            if not _running(pid):
                break
            time.sleep(0.05)
        assert not _running(pid), "the bot the script ran is still running"
    finally:
        if _running(pid):
            os.kill(pid, signal.SIGKILL)


#: Worker processes each seating a program that writes its process number into the
#: folder ``argv[1]`` and then hangs, never answering ``hello``.
HUNG_IN_WORKERS = """
import os, shlex, sys
from pathlib import Path
from openhearts.bots.engine import EngineBot
from openhearts.workers import Stopped, map_unordered

MARKS = Path(sys.argv[1])
HANG = "import os, sys, time; open(sys.argv[1], 'w').write(str(os.getpid())); time.sleep(300)"

def work(item):
    command = shlex.join([sys.executable, "-c", HANG, str(MARKS / str(item))])
    EngineBot(command, start_limit=300).check()

if __name__ == "__main__":
    try:
        list(map_unordered(work, range(2), 2))
    except Stopped as stop:
        sys.exit(stop.exit_status)
"""


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc (Linux)")
def test_programs_end_with_the_workers_a_second_ctrl_c_ends(tmp_path: Path) -> None:
    """Found by a tester: a second Ctrl+C in ``hearts arena --workers 2`` ended the
    worker processes, and the programs they had started (in sessions of their own, out
    of reach of the terminal's Ctrl+C) ran on alone, a hung one for ever."""
    script = tmp_path / "work.py"
    script.write_text(HUNG_IN_WORKERS, encoding="utf-8")
    marks = tmp_path / "marks"
    marks.mkdir()
    process = subprocess.Popen(
        [sys.executable, str(script), str(marks)], stderr=subprocess.PIPE, text=True
    )
    pids: list[int] = []
    try:
        deadline = time.monotonic() + 30
        while len([m for m in marks.iterdir() if m.read_text()]) < 2:
            assert time.monotonic() < deadline, "the programs never started"
            time.sleep(0.05)
        pids = [int(mark.read_text()) for mark in marks.iterdir()]
        for _ in range(2):
            process.send_signal(signal.SIGINT)
            time.sleep(0.3)
        process.communicate(timeout=20)
        for _ in range(100):  # a killed process is gone within moments
            if not any(map(_running, pids)):
                break
            time.sleep(0.05)
        assert not any(map(_running, pids)), "a program outlived its worker"
    finally:
        if process.poll() is None:
            process.kill()
        for pid in filter(_running, pids):
            os.kill(pid, signal.SIGKILL)


#: A program that writes info lines without end, reading nothing.
CHATTER = 'import sys\nwhile True:\n    sys.stdout.write(\'{"type": "info"}\\n\' * 100)\n'


def test_closing_a_program_that_still_writes_raises_nothing_in_the_host() -> None:
    """Found by a tester: "Exception in thread (_pump): ValueError: I/O operation on
    closed file" was printed over the game when a program was stopped while writing."""
    raised: list[BaseException | None] = []
    previous = threading.excepthook
    threading.excepthook = lambda hook: raised.append(hook.exc_value)
    try:
        program = _Program(shlex.join([sys.executable, "-c", CHATTER]))
        program.lines.get(timeout=10)  # it writes
        assert program.process.stdout is not None
        program.process.stdout.close()  # as stopping it does, under the reader
        program.stop()
        for thread in threading.enumerate():
            if thread.name.endswith(("(_pump)", "(_pump_errors)")):
                thread.join(timeout=10)
    finally:
        threading.excepthook = previous
    assert raised == []


def test_a_program_that_writes_without_end_is_given_its_time_limit() -> None:
    """Found by a tester: the host read one info line after another for as long as
    they came, so a program thinking aloud in a loop was never timed out."""

    class Endless(queue.Queue[str | EngineFault | None]):
        def get(self, block: bool = True, timeout: float | None = None) -> str:
            time.sleep(0.001)
            return '{"type": "info", "text": "hmm"}\n'

    program = _Program(shlex.join([sys.executable, "-c", "import time; time.sleep(60)"]))
    program.lines = Endless()
    caught: list[BaseException] = []

    def receive() -> None:
        try:
            program.receive(0.2)
        except EngineFault as error:
            caught.append(error)

    try:
        reading = threading.Thread(target=receive, daemon=True)
        reading.start()
        reading.join(timeout=30)
        assert not reading.is_alive(), "the host kept reading"
        assert "gave no answer within 0.2 s" in str(caught[0])
    finally:
        program.stop()


@pytest.mark.parametrize("mode", ["fine", "longest"])
def test_a_well_behaved_program_plays_a_whole_game(tmp_path: Path, mode: str) -> None:
    bot = EngineBot(program(tmp_path, mode), seed=1)
    game = play_game(bot)
    assert game.is_over and bot.faults == [] and bot.engine_name == mode


@pytest.mark.timeout(60)
@pytest.mark.parametrize(
    ("mode", "reported"),
    [
        ("slow", "gave no answer within 0.5 s"),
        ("crash", "stopped (exit code 3): out of memory, or so"),
        ("mute", "closed its standard output without ending"),
        ("liar", "which it does not hold"),
        ("illegal", "which it may not play now"),
        ("garbled", "'I play the queen!', which is not JSON"),
        # Found by a tester: the host waited for ever, reading one info line after
        # another, and kept them all in memory.
        ("chatty", "gave no answer within 0.5 s"),
        ("endless", "wrote a line longer than 1,048,576 characters"),
        ("handshake", 'not "ready"'),
    ],
)
def test_a_faulty_program_is_reported_and_replaced(
    tmp_path: Path, mode: str, reported: str
) -> None:
    bot = EngineBot(program(tmp_path, mode), seed=1, time_limit=0.5, fallback="random")
    game = play_game(bot)
    assert game.is_over, "the game went on"
    assert len(bot.faults) == 1 and reported in bot.faults[0], bot.faults
    assert "random plays on for it" in bot.faults[0]
    assert bot._program is None, "the program was stopped"


def test_a_program_that_cannot_start_is_replaced() -> None:
    bot = EngineBot("/no/such/program --flag", seed=1)
    assert play_game(bot).is_over
    assert "could not start" in bot.faults[0]


def test_a_person_at_the_table_is_told_when_a_program_fails() -> None:
    """In a game with a person (every face's session), a program that cannot start is
    said once, and a random player takes its seat."""
    session = Session.new(
        Rules.preset("standard"), 3, ("You", "West", "North", "East"), level="cmd:/no/such/bot"
    )
    session.pass_cards(session.human, session.view().hand.cards()[:3])
    replaced = []
    while session.bot_to_act() is not None:
        replaced += [e for e in session.step() if isinstance(e, BotReplaced)]
    assert sorted(e.seat for e in replaced) == [1, 2, 3]
    # Found by a tester: the program was not named ("the program could not start").
    assert all(e.reason.startswith("the program '/no/such/bot' could not start") for e in replaced)
    assert all(isinstance(session.seats.bots[s], RandomBot) for s in (1, 2, 3))


def test_cmd_bots_by_name() -> None:
    bot = make_bot("cmd:./mybot --flag", seed=2)
    assert isinstance(bot, EngineBot) and bot.command == "./mybot --flag"
    with pytest.raises(BotError, match="give the program"):
        make_bot("cmd: ", seed=2)


def arena(tmp_path: Path, *bots: str) -> tuple[int, dict[str, object]]:
    """``hearts arena`` with these bots (and any ``--option value`` pairs among them)."""
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    out = tmp_path / "match"
    args = ["--deals", "2", "--workers", "1", "--no-progress", "--out", str(out)]
    given = iter(bots)
    for spec in given:
        args += [spec, next(given)] if spec.startswith("--") else ["--bot", spec]
    status = run(parser.parse_args(args))
    results = out.with_suffix(".json")
    return status, json.loads(results.read_text(encoding="utf-8")) if results.exists() else {}


def test_the_arena_reports_a_lying_program_and_finishes_the_match(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    liar = f"cmd:{program(tmp_path, 'liar')}"
    status, results = arena(tmp_path, liar, "random")
    assert results["boards"] == 2
    faults = results["faults"]
    assert isinstance(faults, list) and len(faults) == 2 * 4  # every board, every rotation
    assert all(f["bot"] == liar and "does not hold" in f["fault"] for f in faults)
    said = capsys.readouterr()
    assert "a bot program failed and a fallback bot took its seat" in said.err
    # Found by a tester: the table read as the program's results, and the run ended with
    # status 0, though its fallback had made most decisions (from the third trick on).
    table = {row["bot"]: row for row in results["table"]}  # type: ignore[attr-defined]
    assert 0.5 < table[liar]["fallback_share"] < 1 and table["random"]["fallback_share"] == 0
    assert f"of `{liar}`'s decisions were made by its fallback bot" in said.out
    assert "failed in every game it played" in said.err
    assert status == 1


@pytest.mark.skipif(shutil.which("node") is None, reason="node (JavaScript) is not installed")
def test_the_javascript_example_plays_a_whole_arena_match(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = f"cmd:node {EXAMPLE}"
    status, results = arena(tmp_path, spec, "random")
    assert status == 0, capsys.readouterr().err
    assert results["faults"] == []
    table = {row["bot"]: row for row in results["table"]}  # type: ignore[attr-defined]
    assert table[spec]["deals"] == 2 * 4
    assert table[spec]["mean_points"] < table["random"]["mean_points"]


def test_the_documented_act_message_has_every_field_the_host_sends() -> None:
    docs = (ROOT / "docs" / "engine-protocol.md").read_text(encoding="utf-8")
    start = docs.index('\n{"type":"act"') + 1  # the example on a line of its own
    documented = json.loads(docs[start : docs.index("\n", start)])
    sent = view_message(Game(seed=1).view(0))
    assert set(documented) == set(sent)


def test_the_web_server_seats_a_program_as_a_bot_level(tmp_path: Path) -> None:
    from openhearts.bots import BOTS, LEVELS
    from openhearts.web.server import add_bot_levels
    from openhearts.web.storage import Storage
    from web_support import Player, fast_settings, running

    with pytest.raises(ValueError, match="NAME=SPEC"):
        add_bot_levels(["no-spec"])
    asked = tmp_path / "asked.txt"
    add_bot_levels([f"program=cmd:{program(tmp_path, 'fine', asked)}"])
    try:
        assert "program" in LEVELS
        storage = Storage(f"sqlite:///{tmp_path / 'web.db'}")
        with running(storage, fast_settings(default_level="program")) as server:
            assert "program" in server.get("/api/config").json()["levels"]
            created = server.post("/api/play-now", {"name": "Ann", "options": {"end_score": 30}})
            assert created.status_code == 201, created.text
            data = created.json()
            player = Player(server.ws_url(data["table_id"]), token=data["token"], seed=5).open()
            player.play()
            player.close()
            assert player.errors == []
            seats = server.get(f"/api/tables/{data['table_id']}").json()["seats"]
            assert [seat.get("level") for seat in seats[1:]] == ["program"] * 3
        decisions = asked.read_text(encoding="utf-8").split()
        assert decisions.count("play") >= 3 * 13 and "pass" in decisions
    finally:
        del LEVELS["program"], BOTS["program"]


@pytest.mark.parametrize(
    ("answer", "reported"),
    [
        ([1, 2], "instead of a JSON object"),
        ({"cards": "4C 5C QC"}, "a pass answer is"),
        ({"cards": ["4C", "5C"]}, "passed 2 cards, not 3"),
        ({"cards": ["4C"]}, "passed 1 card, not 3"),
        ({"cards": ["4C", "4C", "5C"]}, "passed 4♣ more than once"),
        ({"cards": ["4C", "4C"]}, "passed 4♣ more than once"),
        ({"cards": ["4C", "5C", "XX"]}, "not one"),
        ({"card": "4C"}, "a pass answer is"),
    ],
)
def test_wrong_pass_answers_say_what_is_wrong(answer: object, reported: str) -> None:
    from openhearts.bots.engine import EngineFault, read_answer

    with pytest.raises(EngineFault, match=reported):
        read_answer(Game(seed=1).view(0), answer)


def test_wrong_play_answers_say_what_is_wrong() -> None:
    from openhearts.bots.engine import EngineFault, read_answer

    game = Game(Rules.preset("standard", pass_cycle=("hold",)), seed=1)
    view = game.view(game.current_player or 0)
    for answer in ({"card": 12}, {"cards": ["2C"]}):
        with pytest.raises(EngineFault, match="a play answer is"):
            read_answer(view, answer)
    action = read_answer(view, {"card": "2c", "comment": "ignored"})
    assert isinstance(action, Play) and action.card == game.legal_plays().cards()[0]


def test_moon_answers_are_true_or_false() -> None:
    from openhearts.bots.engine import EngineFault, read_answer
    from test_record import moon_game

    game = moon_game(until_moon_choice=True)
    view = game.view(game.to_act()[0])
    assert view_message(view)["decision"] == "moon"
    for answer in ({"others_add": "yes"}, {"others_add": 1}, {"card": "2C"}):
        with pytest.raises(EngineFault, match="a moon answer is"):
            read_answer(view, answer)
    action = read_answer(view, {"others_add": False})
    assert action == MoonChoice(view.seat, False)


def test_the_arena_gives_programs_more_time_or_no_fallback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Found by a tester: a program that thinks longer than 10 s could not be measured,
    and one that failed was always replaced (its boards counted as its own)."""
    liar = f"cmd:{program(tmp_path, 'liar')}"
    status, _ = arena(tmp_path, liar, "random", "--program-fallback", "none")
    err = capsys.readouterr().err
    assert status == 1
    assert "does not hold" in err and "no fallback bot plays on for it" in err
    assert "EngineFault" not in err  # the fault is a sentence; its class says nothing more
    assert "Traceback" not in err
    status, results = arena(tmp_path / "t", "--program-time-limit", "30", liar, "random")
    assert results["match"]["programs"] == {"start_limit": 30.0, "time_limit": 30.0}  # type: ignore[index]
    assert "--program-time-limit 30" in str(results["command"])
    for wrong, said in (
        (["--program-fallback", "nobody"], "--program-fallback: one of random, easy"),
        (["--program-time-limit", "0"], "more than 0 and at most a day"),
    ):
        parser = argparse.ArgumentParser()
        add_arguments(parser)
        try:
            status = run(parser.parse_args([*wrong, "--bot", "easy", "--no-progress"]))
        except SystemExit as stop:  # argparse's own refusal
            status = int(stop.code or 0)
        assert status == 2 and said in capsys.readouterr().err


def test_a_program_stopped_by_the_host_while_it_thinks_is_no_fault(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Found stopping ``hearts serve`` while a program bot thought: the log said the
    program "stopped (exit code -9); easy plays on for it", a fault it never made.  The
    question is dropped, and nothing is reported."""
    decisions = tmp_path / "decisions.log"
    bot = EngineBot(program(tmp_path, "slow", decisions), seed=1, fallback="random")
    game = Game(Rules.preset("standard", end_score=40), seed=3)
    others = [make_bot("random", seat) for seat in range(1, 4)]
    ended: list[BaseException | None] = []

    def play() -> None:
        try:
            while not game.is_over:
                seat = game.to_act()[0]
                act(game, seat, bot if seat == 0 else others[seat - 1])
        except BaseException as error:  # what the host's question ended with
            ended.append(error)
        else:
            ended.append(None)

    thread = threading.Thread(target=play, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    # Its third card is the one it thinks over for 30 s.
    while not decisions.exists() or decisions.read_text().split().count("play") < 3:
        assert time.monotonic() < deadline and thread.is_alive(), "the program was not asked"
        time.sleep(0.05)
    with caplog.at_level(logging.WARNING):
        bot.close()
        thread.join(timeout=20)
    assert len(ended) == 1 and isinstance(ended[0], EngineStopped), ended
    assert bot.faults == [] and bot.fault_reason is None
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING], caplog.records
