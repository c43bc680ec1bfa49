"""The command line."""

from __future__ import annotations

import io
import os
import pathlib
import re
import shlex
import socket
import string
import subprocess
import sys
import zipfile
from collections.abc import Callable

import pytest

import doudizhu
from doudizhu import SelfPlayResult
from doudizhu.cli import READER_GONE, main


def run(*argv: str, read: object = input) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), out=out, read=read)  # type: ignore[arg-type]
    return code, out.getvalue()


def test_moves_lists_leads_and_follows() -> None:
    code, out = run("moves", "3456BR", "--last", "3")
    assert code == 0 and out.splitlines()[0] == "6 moves for 3456BR over 3:"
    assert "rocket" in out and "(or pass)" in out


def test_moves_offer_no_pass_where_must_beat_forbids_it() -> None:
    out = run("moves", "AAA2", "--last", "KKKK", "--rules", "run_fast")[1]
    assert "AAA" in out and "(or pass)" not in out and "no pass" in out
    assert "(or pass)" in run("moves", "AAA2", "--last", "KKKK")[1]  # without must_beat the pass stays
    assert "(or pass)" in run("moves", "34", "--last", "KKKK", "--rules", "run_fast")[1]  # nothing beats it


def test_run_fast_selfplay_and_evaluate_report_first_places_not_landlords() -> None:
    code, out = run("selfplay", "--games", "60", "--rules", "run_fast", "--seed", "3")
    shares = [float(x) for x in re.findall(r"seat \d (\d\.\d+)", out)]
    assert code == 0 and "void" not in out and len(shares) == 3 and abs(sum(shares) - 1) < 0.01
    code, out = run("evaluate", "heuristic", "random", "--deals", "3", "--rules", "run_fast")
    assert code == 0 and "one seat: heuristic" in out and "landlord" not in out.split("| two seats |")[1]
    assert "void" not in out  # no auction: no hand can be void


def test_bad_input_is_reported_not_raised(capsys: pytest.CaptureFixture[str]) -> None:
    assert run("moves", "3Z")[0] == 2
    assert "hand: unknown card token 'Z'" in capsys.readouterr().err  # the argument's name, not "cards"


def test_auto_play_prints_a_whole_hand_and_the_seed_fixes_it() -> None:
    code, out = run("play", "--auto", "--seed", "5")
    assert code == 0
    payouts = [int(p) for p in re.findall(r"seat \d ([+-]\d+)", out.split("payouts: ")[1].splitlines()[0])]
    assert len(payouts) == 3 and sum(payouts) == 0
    assert run("play", "--auto", "--seed", "5")[1] == out


def test_interactive_play_with_a_scripted_player() -> None:
    out = io.StringIO()
    asked: list[str] = []

    def read(prompt: str) -> str:
        # Ask for the moves, try something illegal once, then play the first legal one.
        asked.append(prompt)
        if len(asked) == 2:
            return "33333"
        last_line = out.getvalue().rstrip().splitlines()[-1]
        if prompt.startswith("play again"):
            return "n"
        if last_line.startswith("hint: "):
            return last_line[len("hint: "):]
        return "hint"

    assert main(["play", "--seed", "3"], out=out, read=read) == 0
    text = out.getvalue()
    assert "your hand:" in text and "17 cards" in text and "stake base" in text
    assert "not allowed:" in text
    assert re.search(r"payouts: you [+-]\d+", text)


def test_end_of_input_stops_cleanly() -> None:
    def read(prompt: str) -> str:
        raise EOFError

    code, out = run("play", "--seed", "3", read=read)
    assert code == 0 and out.rstrip().endswith("bye")  # leaving is a choice, not a failure


def test_selfplay_summary_and_file(tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "games.npz"
    code, out = run("selfplay", "--games", "3000", "--threads", "2", "--seed", "4", "--out", str(path))
    assert code == 0 and "3000 games in" in out and "landlord win rate" in out
    one = run("selfplay", "--games", "1", "--policy", "ismcts")[1].splitlines()[0]  # a game or two a second
    assert re.fullmatch(r"1 game in \d+\.\d\d s: \d+(\.\d+)? games/s", one) and not one.endswith(": 0 games/s")
    assert "\r" not in capsys.readouterr().err  # no progress frames off a terminal (tests/test_terminal.py: on one)
    saved = SelfPlayResult.load(path)
    assert len(saved) == 3000 and saved.actions is not None


def test_train_takes_the_presets_the_networks_encode_and_refuses_the_rest(tmp_path: pathlib.Path,
                                                                          capsys: pytest.CaptureFixture[str]) -> None:
    for preset in ("laizi", "four_player", "sanren"):
        with pytest.raises(SystemExit) as stop:
            run("train", "--recipe", "neural", "--rules", preset, "--out", str(tmp_path))
        assert stop.value.code == 2 and "invalid choice" in capsys.readouterr().err
    assert run("train", "--rules", "rlcard", "--out", str(tmp_path))[0] == 2  # DMC: the douzero preset only
    assert "'dmc' trains the douzero preset" in capsys.readouterr().err
    for option, value in (("--model", "douzero"), ("--tables", "8"), ("--ray-address", "local")):
        assert run("train", "--recipe", "neural", option, value, "--out", str(tmp_path))[0] == 2  # not ignored
        assert f"{option}: dmc's options; the neural recipe has its own settings" in capsys.readouterr().err
    assert not any(tmp_path.iterdir())  # nothing was trained


ENV = dict(os.environ, PYTHONPATH=str(pathlib.Path(doudizhu.__file__).parent.parent))  # this doudizhu, installed or not
COMMANDS = [
    ("moves", "5599", "--rules", "laizi2", "--wild", "5,9"),
    ("play", "--auto", "--seed", "5"),
    ("evaluate", "heuristic", "random", "--deals", "20"),
    ("selfplay", "--games", "2000", "--threads", "1"),
    ("serve", "--help"),
    ("train", "--help"),
]


@pytest.mark.parametrize("argv", COMMANDS, ids=lambda argv: " ".join(argv[:2]))
def test_a_reader_that_leaves_early_ends_the_command_quietly(argv: tuple[str, ...]) -> None:
    # The pipe's reader is gone before the command writes (as `head` is once it has its
    # lines), so every write fails: deterministically, not by a race with a real head.
    reader, writer = os.pipe()
    os.close(reader)
    try:
        done = subprocess.run([sys.executable, "-m", "doudizhu", *argv], stdout=writer, stderr=subprocess.PIPE,
                              text=True, env=ENV, timeout=120)
    finally:
        os.close(writer)
    assert done.returncode in (0, READER_GONE) and done.stderr == ""  # (argparse's help ignores a failed write)


@pytest.mark.parametrize("argv", COMMANDS, ids=lambda argv: " ".join(argv[:2]))
def test_piped_into_head_gives_the_first_line(argv: tuple[str, ...]) -> None:
    command = " ".join(shlex.quote(word) for word in (sys.executable, "-m", "doudizhu", *argv))
    done = subprocess.run(["bash", "-c", f"{command} | head -n 1; exit ${{PIPESTATUS[0]}}"], capture_output=True,
                          text=True, env=ENV, timeout=120)
    first = run(*argv)[1].splitlines()[0] if argv[-1] != "--help" else f"usage: doudizhu {argv[0]}"
    assert done.stdout.split()[:3] == first.split()[:3] and len(done.stdout.splitlines()) == 1  # (times vary)
    assert done.returncode in (0, READER_GONE) and "Traceback" not in done.stderr


def test_help_describes_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    for command in ("play", "selfplay", "evaluate", "moves", "serve", "train"):
        with pytest.raises(SystemExit):
            run(command, "--help")
        usage, description = capsys.readouterr().out.split("\n\n")[:2]
        assert usage.startswith(f"usage: doudizhu {command}") and not description.startswith("options:"), command


def test_selfplay_refuses_no_games_and_too_many_alike(capsys: pytest.CaptureFixture[str]) -> None:
    # Too many were refused by the library's check ("games must be in 0.."), after 0 by the
    # command's ("must be at least 1"): one range, one message.
    for games in ("0", "-3", "1000000000001"):
        with pytest.raises(SystemExit) as stop:
            run("selfplay", "--games", games)
        assert stop.value.code == 2 and f"--games: must be in 1..1000000000000, not {games}" in capsys.readouterr().err
    # The most it takes names itself when memory cannot hold it, not the first part it plays.
    code, _ = run("selfplay", "--games", "1000000000000")
    assert code == 2 and "--games: 1000000000000 games are more than memory can hold" in capsys.readouterr().err


def test_evaluate_says_what_its_rows_and_game_count_mean() -> None:
    code, out = run("evaluate", "heuristic", "random", "--deals", "10", "--threads", "1")
    assert code == 0 and "| all | 60 |" in out and "10 deals, 0 void hands" in out
    assert "Each deal is played 6 times: heuristic alone in each of its 3 seats" in out
    assert "mixed: heuristic and random on one side (the auction made a landlord beside the lone seat" in out
    code, out = run("evaluate", "heuristic", "random", "--deals", "10", "--rules", "douzero", "--threads", "1")
    assert "played 2 times: heuristic alone in the landlord's seat" in out and "mixed" not in out


def test_evaluate_takes_a_network_file_as_play_does(capsys: pytest.CaptureFixture[str]) -> None:
    # Only built-in names were choices: a trained network could be played but not measured.
    shipped = str(pathlib.Path(doudizhu.__file__).parent / "networks" / "neural.ddzn")
    code, out = run("evaluate", shipped, "random", "--deals", "5", "--rules", "douzero", "--threads", "1")
    assert code == 0 and f"{shipped} against random, rules douzero" in out
    assert run("evaluate", "heuristic", "nope", "--deals", "5")[0] == 2
    assert "doudizhu: b: 'nope' is neither a policy" in capsys.readouterr().err
    # A device was read as a checkpoint, its refusal naming no argument.
    assert run("evaluate", "heuristic", os.devnull, "--deals", "5")[0] == 2
    assert f"doudizhu: b: {os.devnull} is no regular file, so neither" in capsys.readouterr().err
    # An empty --out was "[Errno 2] No such file or directory: ''", status 1.
    with pytest.raises(SystemExit) as stop:
        run("train", "--out", "")
    assert stop.value.code == 2 and "argument --out: '' is not a folder's name" in capsys.readouterr().err


def test_serve_on_a_port_in_use_fails_before_saying_it_serves() -> None:
    pytest.importorskip("uvicorn", reason="the [web] extra is not installed")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        done = subprocess.run([sys.executable, "-m", "doudizhu", "serve", "--port", port], capture_output=True,
                              text=True, env=ENV, timeout=60)
    assert done.returncode == 1 and done.stdout == ""
    assert f"cannot serve on 127.0.0.1:{port}: Address already in use" in done.stderr


@pytest.mark.parametrize(("option", "name", "says"), [
    ("--host", "", "--host: an address to listen on"),  # the system would read it as every address
    ("--host", " ", "--host: an address to listen on"),
    ("--host", "\udcff", r"--host: an address to listen on, such as 127.0.0.1, not b'\xff'"),  # argv's byte 0xff
    ("--allowed-host", "", "--allowed-host: a host name"),  # no request names it
    # Bound as 127.0.0.1, which a browser asks for, where the server answered 127.1 alone.
    ("--host", "127.1", "--host: '127.1': write the address in full, 127.0.0.1"),
    ("--host", "0x7f.1", "'0x7f.1': write the address in full, 127.0.0.1"),
    ("--host", "2130706433", "'2130706433': write the address in full, 127.0.0.1"),
    ("--allowed-host", "HTTP://x.example", "--allowed-host: 'HTTP://x.example' is no host name a request gives "
                                           "(a name alone, such as games.example.org"),  # no Host header matched it
    ("--allowed-host", "me@x.example", "'me@x.example' is no host name a request gives"),
    ("--allowed-host", "x.example:99999", "'x.example:99999' is no host name a request gives"),
    ("--allowed-host", "x?y", "'x?y' is no host name a request gives (letters, digits, '-' and '.'"),
    ("--allowed-host", "127.1", "--allowed-host: '127.1': write the address in full, 127.0.0.1"),
    ("--host", "localhost:8001", "--host: an address to listen on, such as 127.0.0.1, not 'localhost:8001' (give the "
                                 "port with --port)"),  # it failed to bind, exit 1
    ("--host", "[::1]:8001", "not '[::1]:8001' (give the port with --port)"),
    ("--host", "[localhost]", "not '[localhost]' (brackets hold an IPv6 address alone)"),  # the brackets were dropped
    ("--host", "[[::1]]", "not '[[::1]]' (brackets hold an IPv6 address alone)"),  # bound as typed: exit 1
    ("--host", " 127.0.0.1", "not ' 127.0.0.1' (no spaces around it)"),
    ("--host", "localhost..", "not 'localhost..'"),  # quoted as typed, not as bytes
    ("--host", "\udcff\ud800", "not '\\udcff\\ud800'"),  # argparse's 'invalid _host value' (no bytes of argv)
])
def test_serve_refuses_a_host_name_no_socket_takes(option: str, name: str, says: str,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        run("serve", option, name, "--port", "0")
    assert stop.value.code == 2
    assert says in capsys.readouterr().err


@pytest.mark.parametrize("bad", ["", "no_such_folder/games.npz", ".", "/proc/games.npz", "dangling.npz"])
def test_selfplay_refuses_an_out_it_cannot_write_before_playing(bad: str, capsys: pytest.CaptureFixture[str],
                                                                tmp_path: pathlib.Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "dangling.npz").symlink_to(tmp_path / "gone" / "games.npz")  # a folder that takes no file
    code, out = run("selfplay", "--games", "10", "--out", bad)
    error = capsys.readouterr().err
    assert code == 2 and out == "" and "--out" in error and ".partial" not in error


def test_selfplay_saves_under_the_name_given(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "games"  # no suffix added
    assert run("selfplay", "--games", "10", "--out", str(path))[1].endswith(f"saved to {path}\n")
    assert len(SelfPlayResult.load(path)) == 10 and [p.name for p in tmp_path.iterdir()] == ["games"]


def test_selfplay_writes_through_a_link_and_into_a_device(
    tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target, link = tmp_path / "games.npz", tmp_path / "link"
    link.symlink_to(target)
    assert run("selfplay", "--games", "10", "--out", str(link))[0] == 0
    assert link.is_symlink() and len(SelfPlayResult.load(target)) == 10  # the link stays; its target is written
    assert run("selfplay", "--games", "10", "--out", os.devnull)[0] == 0
    assert pathlib.Path(os.devnull).is_char_device()  # written into, not replaced by a file
    if pathlib.Path("/dev/full").exists():
        capsys.readouterr()
        code, _ = run("selfplay", "--games", "10", "--out", "/dev/full")
        assert code == 1 and "cannot write '/dev/full': No space left on device" in capsys.readouterr().err
        assert pathlib.Path("/dev/full").is_char_device()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.npz", "link"]  # no partial file left


def test_sigterm_while_a_run_is_saved_leaves_the_old_file_and_no_partial(tmp_path: pathlib.Path) -> None:
    # SIGTERM (a container's stop, `timeout`) killed the process in the middle of the save:
    # the old file stood, but the half-written .partial beside it stayed for good.
    import signal
    import time

    out = tmp_path / "games.npz"
    out.write_bytes(b"old")
    child = subprocess.Popen([sys.executable, "-m", "doudizhu", "selfplay", "--games", "100000", "--threads", "2",
                              "--out", str(out)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 120
        while not any(p.name.endswith(".partial") for p in tmp_path.iterdir()):  # the save has begun
            assert child.poll() is None and time.monotonic() < deadline, child.communicate()
            time.sleep(0.01)
        child.send_signal(signal.SIGTERM)
        _, err = child.communicate(timeout=60)
    finally:
        child.kill()
    assert child.returncode == doudizhu.cli.TERMINATED, err.decode()
    assert err == b"" and [p.name for p in tmp_path.iterdir()] == ["games.npz"] and out.read_bytes() == b"old"


def test_sigterm_ends_a_game_at_the_table_with_its_own_status_unless_ignored() -> None:
    # The terminal took SIGTERM's interrupt for Ctrl-C (130); an inherited "ignore SIGTERM"
    # (`trap '' TERM`) was overridden.
    import signal
    import time

    for ignored in (False, True):
        ignore = (lambda: signal.signal(signal.SIGTERM, signal.SIG_IGN)) if ignored else None
        child = subprocess.Popen([sys.executable, "-m", "doudizhu", "play", "--seed", "1"], stdin=subprocess.PIPE,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=ignore)
        with child:
            assert child.stdout is not None
            child.stdout.read1(1)  # the table is drawn: the game waits for the person
            child.send_signal(signal.SIGTERM)
            time.sleep(0.5)
            if ignored:
                assert child.poll() is None  # still at the table
            child.communicate(b"", timeout=30)  # then the end of input: bye
            assert child.returncode == (0 if ignored else doudizhu.cli.TERMINATED)


def test_main_leaves_the_callers_signal_handler_and_stdout_as_they_were(monkeypatch: pytest.MonkeyPatch) -> None:
    import signal

    handler = signal.getsignal(signal.SIGTERM)
    errors = sys.stdout.errors
    assert main(["moves", "3"], out=io.StringIO()) == 0
    assert signal.getsignal(signal.SIGTERM) is handler and sys.stdout.errors == errors
    # A strict stdin it cannot make lenient (read from, closed) is left alone: every command
    # failed, with a traceback where it was closed.
    for done in ("read", "closed"):
        stdin = io.TextIOWrapper(io.BytesIO(b"x\nquit\n"), encoding="utf-8")
        stdin.readline() if done == "read" else stdin.close()
        monkeypatch.setattr(sys, "stdin", stdin)
        assert main(["moves", "3"], out=io.StringIO()) == 0


def test_output_a_terminal_cannot_encode_or_a_closed_stderr_changes_no_status(tmp_path: pathlib.Path) -> None:
    # A file name of bytes that are no UTF-8, printed to a strict UTF-8 stdout, made a saved
    # run's "saved to" line a UnicodeEncodeError, reported as a usage error (status 2); with
    # stderr closed a usage error was an AttributeError (status 1) or went to stdout.
    name = os.fsdecode(b"\xff\xfe.npz")
    env = {**os.environ, "PYTHONIOENCODING": "utf-8:strict"}
    saved = subprocess.run([sys.executable, "-m", "doudizhu", "selfplay", "--games", "3", "--out", name],
                           capture_output=True, cwd=tmp_path, env=env)
    assert (saved.returncode, saved.stderr) == (0, b"") and b"saved to \\udcff\\udcfe.npz" in saved.stdout
    assert len(SelfPlayResult.load(tmp_path / name)) == 3
    refused = subprocess.run(f"{shlex.quote(sys.executable)} -m doudizhu selfplay --games 0 2>&-", shell=True,
                             capture_output=True)
    assert (refused.returncode, refused.stdout) == (2, b"")


def test_a_line_of_bytes_the_input_cannot_decode_is_asked_again() -> None:
    # Piped input decoded with surrogates for bad bytes ended the whole game (status 2).
    lines = iter(["\udcff", "quit"])
    out = io.StringIO()
    assert main(["play", "--seed", "7"], out=out, read=lambda prompt: next(lines)) == 0
    assert "that line is no text this terminal can read: type it again" in out.getvalue()
    # Decoded strictly (PYTHONIOENCODING=utf-8), reading the line itself raised, and the
    # lines buffered after it were lost: the bid after it must be played.
    done = subprocess.run([sys.executable, "-m", "doudizhu", "play", "--seed", "7"], input=b"bad\xff\nbid 0\nquit\n",
                          capture_output=True, env={**os.environ, "PYTHONIOENCODING": "utf-8"}, timeout=60)
    assert done.returncode == 0 and b"type it again" in done.stdout, done.stderr
    assert b"you (bidding): bid 0" in done.stdout


def test_a_long_file_name_is_written_whole(tmp_path: pathlib.Path) -> None:
    # The writer's suffix took a name of 228 bytes or more past the system's 255: refused,
    # and the library's error named the temporary file.
    path = tmp_path / ("e" * 250 + ".npz")
    doudizhu.selfplay(3, record=True).save(path)
    assert len(SelfPlayResult.load(path)) == 3 and [p.name for p in tmp_path.iterdir()] == [path.name]


def test_an_interrupt_ends_a_command_with_the_shells_status(monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(doudizhu.cli, "evaluate", interrupted)
    assert run("evaluate", "random", "random", "--deals", "5")[0] == 130


@pytest.mark.parametrize(("redirect", "status"), [(">/dev/full", 1), (">&-", 1), ("<&-", 0)])
@pytest.mark.parametrize("words", ["play --seed 3", "--help", "--version", "moves --help"])
def test_a_full_or_closed_stream_gives_a_line_not_a_traceback(words: str, redirect: str, status: int) -> None:
    # argparse's own output (help, version) fails as the command's does: a full disk is not "done".
    command = f"{shlex.quote(sys.executable)} -m doudizhu {words} {redirect}"
    done = subprocess.run(["sh", "-c", command], capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert done.returncode == status and "Traceback" not in done.stderr and "Exception" not in done.stderr
    if status:
        assert done.stderr.startswith("doudizhu: ") and done.stderr.count("\n") == 1


def test_a_checkpoint_torch_cannot_read_is_refused(tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    # A network file whose magic is damaged was read as a checkpoint: "not a doudizhu.train
    # checkpoint (BadZipFile reading it)".
    damaged = bytearray((pathlib.Path(doudizhu.__file__).parent / "networks" / "neural.ddzn").read_bytes())
    damaged[0] ^= 1
    for name, content in [("junk.pt", b"garbage"), ("empty.pt", b""), ("damaged.ddzn", bytes(damaged))]:
        (tmp_path / name).write_bytes(content)
        assert run("play", "--auto", "--policy", str(tmp_path / name))[0] == 2
        assert "is neither a network file (it does not begin with DDZNEURL) nor a doudizhu.train checkpoint" \
            in capsys.readouterr().err
    with zipfile.ZipFile(tmp_path / "junk.pt", "w") as archive:  # a zip archive, but not torch's: told without torch
        archive.writestr("data.txt", "not a tensor")
    assert run("play", "--auto", "--policy", str(tmp_path / "junk.pt"))[0] == 2
    assert "nor a doudizhu.train checkpoint (a zip archive torch.save wrote)" in capsys.readouterr().err
    pytest.importorskip("torch", reason="the [train] extra is not installed")
    with zipfile.ZipFile(tmp_path / "junk.pt", "w") as archive:  # laid out as torch's, but no checkpoint
        archive.writestr("junk/data.pkl", "not a pickle")
    assert run("play", "--auto", "--policy", str(tmp_path / "junk.pt"))[0] == 2
    assert "not a doudizhu.train checkpoint" in capsys.readouterr().err
    assert run("play", "--auto", "--policy", str(tmp_path))[0] == 2  # a folder without checkpoint.pt
    assert "without a checkpoint.pt" in capsys.readouterr().err
    (tmp_path / "recipe.json").write_text("{}")  # a recipe run before its network file: was "without a checkpoint.pt"
    assert run("play", "--auto", "--policy", str(tmp_path))[0] == 2
    assert "a recipe run that has not written its neural.ddzn yet" in capsys.readouterr().err


def scripted(*lines: str) -> Callable[[str], str]:
    """A reader that types `lines` in turn, then leaves (end of input)."""
    queue = list(lines)

    def read(prompt: str) -> str:
        if not queue:
            raise EOFError
        return queue.pop(0)

    return read


def test_the_terminal_says_take_to_you_and_no_kitty_where_none_is_dealt() -> None:
    out = run("play", "--seed", "7", read=scripted("3"))[1]
    assert "you are the landlord for 3 and take the kitty " in out
    out = run("play", "--seed", "1", "--rules", "sanren", read=scripted("bid 3"))[1]
    assert "you are the landlord for 3" in out and "kitty" not in out.split("you are the landlord")[1]


def test_pass_in_the_classic_auction_is_bid_0() -> None:
    out = run("play", "--seed", "7", read=scripted("pass"))[1]
    assert "not allowed" not in out and re.search(r"you \(bidding\)\s*: bid 0", out)


def test_a_partner_is_named_by_its_seat_alone_as_a_bid_by_its_digit() -> None:
    # "2" at the partner prompt answered "not allowed", and "1" "unknown card token '1'".
    out = run("play", "--seed", "7", "--rules", "four_partner", read=scripted("bid 3", "2", "quit"))[1]
    assert "not allowed" not in out and "card token" not in out
    assert re.search(r"you \(landlord\)\s*: partner 2", out)
    out = run("play", "--seed", "7", read=scripted("pass me", "quit"))[1]  # the words of actions, not today's
    assert "'pass me' is no action (the words are pass, call, decline or no call, rob, no rob, bid 0-3, alone and " \
        "partner N)" \
        in out


def test_a_command_with_words_after_it_is_not_read_as_cards() -> None:
    out = run("play", "--seed", "7", read=scripted("quit now", "undo 2", "quit"))[1]
    assert "'quit' takes nothing after it" in out and "'undo' takes nothing after it" in out
    assert "card token" not in out and out.rstrip().endswith("bye")


def test_cards_typed_in_the_auction_are_not_read_as_a_bid() -> None:
    out = run("play", "--seed", "1", read=scripted("88", "quit"))[1]
    assert "not allowed: the auction is on: bid 0-3 (or the digit alone), not '88'" in out
    assert "bid 88" not in out


def test_play_again_asks_again_on_anything_but_yes_or_no() -> None:
    asked: list[str] = []

    def read(answers: list[str]) -> Callable[[str], str]:
        def answer(prompt: str) -> str:
            asked.append(prompt)
            return answers.pop(0)
        return answer

    said = io.StringIO()
    assert doudizhu.terminal._again(read(["undo", "3", "n"]), said) is False and len(asked) == 3
    assert said.getvalue().count("the hand is over: answer y for another") == 2  # each other answer is explained
    assert doudizhu.terminal._again(read(["maybe", "YES"]), said) is True and len(asked) == 5
    assert "not 'maybe'" in said.getvalue()
    assert doudizhu.terminal._again(read([""]), said) is False  # N is the default


def test_moves_lists_at_most_a_screenful_of_a_kind_and_all_of_one_on_request() -> None:
    out = run("play", "--seed", "3", "--rules", "laizi2", read=scripted("3", "moves"))[1]
    listing = out.split("\n  ")
    assert max(len(line) for line in listing) < 2000 and "(and 45 more: moves trio)" in out
    every = run("play", "--seed", "3", "--rules", "laizi2", read=scripted("3", "moves trio"))[1]
    trios = re.search(r"\n  trio: +(.*(?:\n {19}.*)*)\n", every)  # wrapped: continuations under the first
    assert trios and len(trios.group(1).split()) == 40 + 45  # the 40 shown and the 45 more
    other = run("play", "--seed", "3", read=scripted("moves bomb", "moves a b", "moves\ttrio"))[1]
    assert "no 'bomb' moves here; the kinds here: auction" in other and "no 'a b' moves here" in other
    assert "no 'trio' moves here" in other  # a tab parts the words as a space does


def test_the_legend_names_every_character_read_as_a_card() -> None:
    legend = doudizhu.terminal.LEGEND
    read = [c for c in string.ascii_uppercase + string.digits if _one_card(c)]
    assert {"T", "X", "J", "Q", "K", "A", "B", "R"} <= set(read)
    letters = [c for c in read if not c.isdigit()]
    assert all(re.search(rf"\b{c}\b", legend) for c in letters), legend
    assert "3-9" in legend and "'10'" in legend  # the digits


def test_run_fast_s_legend_names_no_jokers_and_the_auction_takes_pass_in_any_case() -> None:
    out = run("play", "--seed", "3", "--rules", "run_fast", read=scripted("quit"))[1]
    assert "joker" not in out and "J Q K A 2;" in out
    assert "joker" in doudizhu.terminal.legend(doudizhu.Rules())
    out = run("play", "--seed", "7", read=scripted("PASS", "quit"))[1]
    assert "not allowed" not in out


def test_a_long_mistyped_word_is_quoted_as_an_excerpt() -> None:
    out = run("play", "--seed", "7", read=scripted("a" * 100_000, "quit"))[1]
    line = next(line for line in out.splitlines() if "is not a command" in line)
    assert line.startswith("'aaaaaaaaaaaaaaaaaaaa'... (100000 characters) is not a command") and len(line) < 200


def test_every_refusal_quotes_a_long_line_as_an_excerpt() -> None:
    # A line of digits at the auction and a long kind after `moves` were echoed whole.
    out = run("play", "--seed", "7", read=scripted("3" * 100_000, "moves " + "a" * 100_000, "quit"))[1]
    assert len(out) < 5_000 and "(100000 characters)" in out
    assert "'33333333333333333333'... (100000 characters)" in out
    assert "no 'aaaaaaaaaaaaaaaaaaaa'... (100000 characters) moves here" in out


def _one_card(text: str) -> bool:
    try:
        return len(doudizhu.Cards(text)) == 1
    except ValueError:
        return False


@pytest.mark.parametrize("command", [["play", "--auto", "--policy", "{zip}"], ["train", "--out", "{run}"]])
def test_a_missing_training_extra_is_one_line_saying_what_to_install(tmp_path: pathlib.Path,
                                                                     command: list[str]) -> None:
    # A checkpoint (a zip archive) and a training run need PyTorch: without it they gave
    # a traceback and status 1, where `serve` without its extra said what to install.
    with zipfile.ZipFile(tmp_path / "checkpoint.zip", "w") as archive:
        archive.writestr("data.pkl", b"")
    argv = [part.format(zip=tmp_path / "checkpoint.zip", run=tmp_path / "run") for part in command]
    code = ("import sys; sys.modules['torch'] = None\n"
            "import doudizhu.cli\n"
            f"sys.exit(doudizhu.cli.main({argv!r}))")
    env = dict(os.environ, PYTHONPATH=str(pathlib.Path(doudizhu.__file__).parent.parent))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and "pip install 'doudizhu-engine[train]'" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_train_minutes_left_out_are_a_resumed_runs_own() -> None:
    # A resumed neural recipe took the fresh default of 5 minutes for its play stage: one
    # started with 10 and 6 trained ended its play stage there and sealed the run.
    from doudizhu.cli import DEFAULT_MINUTES, _minutes_of_run, build_parser

    def minutes(*argv: str, saved: float | None) -> float:
        return _minutes_of_run(build_parser().parse_args(["train", "--out", "run", *argv]), saved)

    assert minutes("--resume", saved=10.0) == 10.0
    assert minutes("--resume", "--minutes", "2", saved=10.0) == 2.0
    assert minutes(saved=10.0) == DEFAULT_MINUTES == 5.0  # a fresh run: the default, not a saved one's
    assert minutes("--resume", saved=None) == DEFAULT_MINUTES  # a Python run without a time limit


@pytest.mark.filterwarnings("default")  # shown, as outside the tests
def test_a_warning_is_one_line_of_the_commands(monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    # A run without matplotlib showed Python's warning: the library's file, line and source.
    import warnings

    def warned(args: object, out: object) -> int:
        warnings.warn("no learning_curve.png: doudizhu.train.plot needs matplotlib", stacklevel=2)
        return 0

    monkeypatch.setattr(doudizhu.cli, "_train", warned)
    assert run("train", "--out", "unused")[0] == 0
    assert capsys.readouterr().err == "doudizhu: warning: no learning_curve.png: doudizhu.train.plot needs matplotlib\n"


def test_no_option_says_its_default_twice() -> None:
    # train --help read "the learner's (default: 1) (default: 1)": the help said it, and the
    # formatter that shows defaults said it again.
    import argparse

    from doudizhu.cli import build_parser

    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for name, command in commands.choices.items():
        text = " ".join(command.format_help().split())
        assert not re.search(r"\(default: [^)]*\) \(default:", text), name


def test_moves_name_the_reading_of_cards_that_read_several_ways() -> None:
    # 333344445556667 was listed three times alike under Run Fast: three plays, one line.
    out = run("moves", "333344445556667", "--rules", "run_fast")[1]
    lines = [line.split()[0] for line in out.splitlines()[1:] if line.split()[0].startswith("333344445556667")]
    assert sorted(lines) == ["333344445556667/AIRPLANE_TWOS/3/3", "333344445556667/AIRPLANE_TWOS/3/4",
                             "333344445556667/AIRPLANE_TWOS/4"]
    every = [line.split()[0] for line in out.splitlines()[1:]]
    assert len(every) == len(set(every))


def test_wild_ranks_take_a_full_width_comma() -> None:
    # "--wild 5,9" typed in full-width mode: every other input reads U+FF0C as a comma.
    full = run("moves", "5599", "--rules", "laizi2", "--wild", "\uff15\uff0c\uff19")
    assert full == run("moves", "5599", "--rules", "laizi2", "--wild", "5,9") and full[0] == 0 and full[1]
