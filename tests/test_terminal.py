"""The terminal game driven as a person drives it: through a pseudo-terminal (pexpect),
typing commands and reading the screen."""

from __future__ import annotations

import os
import pathlib
import re
import signal
import subprocess
import sys

import pytest

pexpect = pytest.importorskip("pexpect")

import doudizhu  # noqa: E402
from doudizhu import terminal  # noqa: E402

PROMPT = r"(bid 0-3|call / decline|rob / no rob|your play \(help for commands\))> "
AGAIN = r"play again\? \[y/N\]> "


ENV = dict(os.environ, PYTHONPATH=str(pathlib.Path(doudizhu.__file__).parent.parent))  # this doudizhu, installed or not


def at_a_terminal() -> None:
    """Ctrl-C interrupts, as at a shell's prompt: a test run in the background inherits
    SIGINT ignored (POSIX shells ignore it for background jobs), and Python keeps an
    ignored SIGINT ignored, so the program's Ctrl-C handling would never be reached."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def spawn(*args: str) -> pexpect.spawn:
    return pexpect.spawn(sys.executable, ["-m", "doudizhu", "play", *args], env=ENV, encoding="utf-8", timeout=30,
                         preexec_fn=at_a_terminal)


def hint(child: pexpect.spawn) -> str:
    child.sendline("hint")
    child.expect(r"hint: ([^\r\n]+)\r\n")
    return str(child.match.group(1))


def leave(child: pexpect.spawn) -> int:
    """Waits for the program to end; its exit status."""
    child.expect(pexpect.EOF)
    child.close()
    assert "Traceback" not in child.before
    return int(child.exitstatus)


def test_a_whole_hand_typed_at_the_keyboard() -> None:
    child = spawn("--seed", "7")
    child.expect("Dou Dizhu, rules standard")
    child.expect(PROMPT)
    assert "your hand:" in child.before and "you (bidding)" in child.before
    child.sendline("")  # an empty line asks again
    child.expect(PROMPT)
    child.sendline("help")
    child.expect("quit, exit")
    child.expect(PROMPT)
    child.sendline("33333")
    child.expect("not allowed: ")
    undone = played = 0
    screens = []
    while True:
        if child.expect([PROMPT, AGAIN]) == 1:
            final = child.before
            break
        screens.append(child.before)
        action = hint(child)
        child.expect(PROMPT)
        child.sendline(action)
        played += 1
        if played == 3 and not undone:
            child.expect(PROMPT)
            child.sendline("undo")
            child.expect("undone")
            undone = played
    child.sendline("n")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0 and undone
    assert re.search(r"payouts: you [+-]\d+, seat 1 [+-]\d+, seat 2 [+-]\d+", final)
    assert "seed 7 (--rules standard --seed 7 replays this deal)" in final  # --seed alone deals standard's
    assert all("high bid" in s and "stake base" not in s for s in screens if "bidding, your turn" in s)
    in_play = [s for s in screens if "playing, your turn" in s]
    assert in_play, "the person never played a card"
    for screen in in_play:
        assert "played so far:" in screen and "stake base" in screen, screen
        assert re.search(r"\((no bombs|\d+ bombs?(, \d+ rockets?)?|\d+ rockets?) so far\)", screen), screen
    assert any(re.search(r"you \((landlord|peasant)\)", s) for s in in_play)


def test_moves_are_grouped_by_kind() -> None:
    child = spawn("--seed", "7", "--rules", "douzero")  # no auction: the play starts at once
    child.expect(PROMPT)
    child.sendline("moves")
    child.expect(PROMPT)
    kinds = re.findall(r"^\s+(\w+):", child.before, flags=re.M)
    assert "solo" in kinds and "pair" in kinds and len(kinds) == len(set(kinds))
    child.sendline("quit")
    assert leave(child) == 0


@pytest.mark.parametrize(("how", "status"), [("quit", 0), ("exit", 0), ("ctrl-d", 0), ("ctrl-c", 130)])
def test_leaving_is_a_choice_not_a_failure(how: str, status: int) -> None:
    child = spawn("--seed", "3")
    child.expect(PROMPT)
    if how == "ctrl-d":
        child.sendeof()
    elif how == "ctrl-c":
        child.kill(signal.SIGINT)
    else:
        child.sendline(how)
    assert leave(child) == status


def test_a_fresh_deal_each_run_its_seed_printed_once_the_hand_is_over() -> None:
    # The seed tells every card: printed at the start, anyone could read the bots' hands by
    # replaying it elsewhere. It now comes with the hands at the end.
    child = spawn()
    child.expect(PROMPT)
    assert "seed" not in child.before
    child.sendline("exit")
    child.expect(pexpect.EOF)
    seeds = set()
    for _ in range(2):
        done = subprocess.run([sys.executable, "-m", "doudizhu", "play", "--auto"], env=ENV, capture_output=True,
                              text=True, timeout=60, check=True)
        end = re.search(r"the hands at the end:\n.*\nseed (\d+) \(--rules standard --seed \1 replays this deal\)\n",
                        done.stdout, re.S)
        assert end, done.stdout
        seeds.add(end.group(1))
    assert len(seeds) == 2
    # Drawn from 64 bits: 32 let the player find the deal from their own hand by trying them all.
    assert min(map(int, seeds)) >= 2**32  # fails by chance about once in 2**31 runs


def test_auto_play_calls_no_seat_you() -> None:
    command = [sys.executable, "-m", "doudizhu", "play", "--auto", "--seed", "4"]
    out = subprocess.run(command, capture_output=True, text=True, check=True, env=ENV).stdout
    assert not re.search(r"\byou\b", out) and "payouts: seat 0" in out


def test_progress_bars_only_on_a_terminal() -> None:
    env = ENV
    done = subprocess.run([sys.executable, "-m", "doudizhu", "selfplay", "--games", "3000", "--threads", "1"],
                          capture_output=True, text=True, check=True, env=env)
    assert "\r" not in done.stderr and "3000 games in" in done.stdout
    child = pexpect.spawn(sys.executable, ["-m", "doudizhu", "selfplay", "--games", "3000", "--threads", "1"], env=env,
                          encoding="utf-8", timeout=60)
    child.expect(r"\r\[#+\] 3000/3000 games")
    child.expect(pexpect.EOF)


def test_a_redeal_is_announced_with_the_new_hand_shown_once() -> None:
    child = spawn("--seed", "5")  # you and the heuristic bots all pass on this deal
    child.expect("bid 0-3> ")
    child.sendline("0")
    child.expect(r"everyone passed: the hand is redealt \(redeal 1\)\r\n")
    child.expect("bid 0-3> ")
    shown = re.findall(r"your hand: (.+?)\r\n", child.before)
    game = doudizhu.Game(seed=5)
    for _ in range(3):
        game.step("bid 0")
    assert shown == [terminal.by_rank(game.hand(0))]  # in the status before your turn, not twice
    assert doudizhu.Cards(shown[0]) == game.hand(0)  # the groups read back as the hand
    child.sendline("quit")
    assert leave(child) == 0


def test_a_mistyped_command_is_named_with_the_nearest_one() -> None:
    child = spawn("--seed", "3")
    child.expect(PROMPT)
    child.sendline("bidd 2")
    child.expect(r"'bidd' is not a command or cards; did you mean 'bid'\? \(help lists the commands\)")
    child.expect(PROMPT)
    child.sendline("hnit")
    child.expect("did you mean 'hint'")
    child.expect(PROMPT)
    child.sendline("quit")
    assert leave(child) == 0


def test_lines_can_be_edited_and_recalled() -> None:
    child = spawn("--seed", "3")
    child.expect(PROMPT)
    child.send("hnt" + "\x1b[D\x1b[D" + "i" + "\r")  # two Left arrows, then the missing letter: "hint"
    first = hint_line(child)
    child.expect(PROMPT)
    child.send("\x1b[A" + "\r")  # Up: the last line again
    assert hint_line(child) == first
    child.sendline("quit")
    assert leave(child) == 0


def hint_line(child: pexpect.spawn) -> str:
    child.expect(r"hint: ([^\r\n]+)\r\n")
    return str(child.match.group(1))


def test_the_end_shows_every_hand_and_speaks_to_you() -> None:
    child = spawn("--seed", "7")
    screens = []
    while child.expect([PROMPT, AGAIN]) == 0:
        screens.append(child.before)
        child.sendline(hint(child))
        child.expect(PROMPT)  # the hint's prompt: its action is sent next
    final = child.before
    child.sendline("n")
    assert leave(child) == 0
    assert re.search(r"the (landlord wins|peasants win)", final)
    assert re.search(r"you are the landlord|seat \d is the landlord", "".join(screens))
    shown = re.findall(r"^  (you|seat \d) \((?:landlord|peasant)\)\s+(\S.*?)\r$", final.split("hands at the end:")[1],
                       flags=re.M)
    assert [name for name, _ in shown] == ["you", "seat 1", "seat 2"]
    assert sum(cards == "(no cards left)" for _, cards in shown) >= 1
    assert not re.search(r"\b1 cards\b", final)


@pytest.mark.parametrize("command", [["selfplay", "--games", "5000", "--policy", "ismcts"],
                                     ["evaluate", "ismcts", "random", "--deals", "2000"]], ids=lambda c: c[0])
def test_ctrl_c_stops_a_run_of_built_in_players_between_its_games(command: list[str]) -> None:
    """Such a run plays in one C++ call; it asks for Ctrl-C between games. (Uninterrupted
    these runs take tens of minutes; the expect's timeout is what a hang would hit.) The
    signal comes once the run has drawn its progress bar: inside the run, not the import."""
    child = pexpect.spawn(sys.executable, ["-m", "doudizhu", *command, "--threads", "1"], env=ENV, encoding="utf-8",
                          timeout=60, preexec_fn=at_a_terminal)
    child.expect(r"\] 0/\d+ games")  # the progress bar drawn as the run begins
    child.kill(signal.SIGINT)
    assert leave(child) == 130


def test_a_refusal_after_the_progress_bar_starts_a_line_of_its_own() -> None:
    # The bar drawn as the run begins was left unended, and the refusal written after it.
    child = pexpect.spawn(sys.executable, ["-m", "doudizhu", "selfplay", "--games", str(10**12), "--threads", "1"],
                          env=ENV, encoding="utf-8", timeout=60, preexec_fn=at_a_terminal)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2
    assert re.search(r"\] 0/\d+ games[^\n]*\r?\ndoudizhu: --games: ", child.before), repr(child.before)


# ---------------------------------------------------------------- what a card player reads
def _play_to_the_end(game: doudizhu.Game) -> None:
    while game.phase != "over":
        game.step(doudizhu.choose_action(game, "heuristic", len(game.history)))


def test_cards_that_need_a_wild_reading_are_offered_their_readings() -> None:
    import io

    from doudizhu import terminal

    game = doudizhu.Game.from_position(["6677", "3", "4"], landlord=0, to_move=0,
                                       rules=doudizhu.Rules.preset("laizi"), wild=["6"])
    said = io.StringIO()
    assert terminal._step(game, "6677", said) is None and game.history == []
    offered = re.search(r"say which play: '6677' can be (.*) \(type one\)", said.getvalue())
    assert offered, said.getvalue()
    choices = offered.group(1).split(", ")
    assert "6677=7777" in choices
    spent = doudizhu.Cards("6677")
    assert sorted(choices) == sorted(a.text(game.rules) for a in game.legal_actions() if a.move.spent == spent)
    said = io.StringIO()
    assert terminal._step(game, "6678", said) is None
    assert said.getvalue().startswith("not allowed:")  # cards the hand lacks: the engine's reason


def test_the_wild_example_plays_this_hands_wild_rank_and_help_fits_80_columns() -> None:
    # The screen said "e.g. 557=577" whatever rank was wild: a 5 standing in, a wrong example
    # for a hand whose 6s and As are wild.
    from doudizhu import terminal

    for wild, example in ((["T"], "33T=333"), (["3"], "443=444"), (["3", "4"], "553=555")):
        rules = doudizhu.Rules.preset("laizi2" if len(wild) == 2 else "laizi")
        game = doudizhu.Game.from_position(["3345T", "6"], landlord=0, to_move=0, rules=rules, wild=wild)
        assert f"e.g. {example})" in terminal.screen(game, terminal.Options("laizi", "heuristic", auto=False))
        played = doudizhu.Game.from_position([example.split("=")[0] + "9", "6"], landlord=0, to_move=0, rules=rules,
                                             wild=wild)
        played.step(example)  # a play the hand's wild ranks make
    assert max(len(line) for line in terminal.HELP.splitlines()) <= 80


def test_moves_wrap_between_plays_to_the_terminals_width() -> None:
    # Lines of up to 977 characters broke in the middle of a play ("3\n8888J") at 80 columns.
    from doudizhu import terminal

    game = doudizhu.Game(seed=3, rules=doudizhu.Rules.preset("laizi2"))
    while game.phase == "bidding":
        game.step(game.legal_actions()[-1])
    narrow, wide = terminal.grouped_moves(game, width=60), terminal.grouped_moves(game, width=100_000)
    assert max(len(line) for line in narrow.splitlines()) <= 60 < max(len(line) for line in wide.splitlines())
    assert narrow.split() == wide.split()  # the same words: only the spaces between plays broke


def test_run_fast_s_first_lead_asks_for_its_three_and_its_result_says_how_it_pays() -> None:
    from doudizhu import terminal

    options = terminal.Options("run_fast", "heuristic", False)
    game = doudizhu.Game(seed=2, rules=doudizhu.Rules.preset("run_fast"))
    assert game.to_move == terminal.HUMAN and game.lead_rank == 0
    assert "you lead: the first lead must contain a 3" in terminal.screen(game, options)
    game.step(next(a for a in game.legal_actions() if a.move is not None and "3" in str(a.move.cards)))
    while game.to_move != terminal.HUMAN:
        game.step(doudizhu.choose_action(game, "heuristic", 0))
    if game.last is None:
        assert "you lead: play any combination" in terminal.screen(game, options)
    _play_to_the_end(game)
    assert "a point a card it holds" in terminal.settlement(game, options)
    assert "each bomb collected 10 from each other seat" in terminal.settlement(game, options)


def test_the_partner_named_you_is_you_in_the_result() -> None:
    from doudizhu import terminal

    options = terminal.Options("four_partner", "heuristic", False)
    for seed in range(200):
        game = doudizhu.Game(seed=seed, rules=doudizhu.Rules.preset("four_partner"))
        _play_to_the_end(game)
        result = game.result
        if game.partner == terminal.HUMAN and result is not None and result.landlord_won:
            assert "the landlord and you win" in terminal.settlement(game, options)
            return
    pytest.fail("no hand of 200 where seat 0 is the partner of a winning landlord")


def test_full_width_input_reads_as_its_ascii() -> None:
    # A Chinese keyboard in full-width mode types U+FF11 for 1: it was refused as no cards.
    import io

    from doudizhu import terminal

    game = doudizhu.Game(seed=7)
    lines = iter(["\uff11"])
    options = terminal.Options("standard", "heuristic", auto=False)
    said = io.StringIO()
    action = terminal.ask(game, lambda prompt: next(lines), said, options)
    assert action == doudizhu.Action.bid(1) == game.history[-1][1]
    # As the engine reads it everywhere: full width, not every compatibility form (a
    # superscript 3 was a 3 here and no card anywhere else).
    lines = iter(["\u00b3\u00b3", "quit"])
    with pytest.raises(terminal.Quit):
        terminal.ask(doudizhu.Game(seed=7), lambda prompt: next(lines), said, options)
    assert "not '\u00b3\u00b3'" in said.getvalue()


def test_the_move_to_beat_is_written_as_its_rules_need() -> None:
    # "to beat: 444555666777/AIRPLANE/4/4" under standard rules, where it reads one way.
    game = doudizhu.Game.from_position(["3JJ", "7", "8"], landlord=0, to_move=0, last="444555666777", last_by=2)
    screen = terminal.screen(game, terminal.Options("standard", "heuristic", False))
    assert "to beat: 444555666777 (airplane) by seat 2" in screen, screen


def test_moves_hint_and_the_log_name_the_reading_of_cards_that_read_several_ways() -> None:
    import io

    from doudizhu import terminal

    rules = doudizhu.Rules.preset("run_fast")
    game = doudizhu.Game.from_position(["333344445556667", "8", "9TJ"], landlord=None, to_move=0, rules=rules)
    listed = terminal.grouped_moves(game, "airplane_twos", width=100_000).split()
    assert len(listed) == len(set(listed)) and "333344445556667/AIRPLANE_TWOS/4" in listed
    # Kinds are written as the screen writes them, and read either way.
    assert "\n  airplane twos: " in "\n" + terminal.grouped_moves(game, width=100_000)
    assert terminal.grouped_moves(game, " Airplane  twos ".lower(), width=100_000).split() == listed
    assert terminal.grouped_moves(game, doudizhu.MoveKind.AIRPLANE_TWOS, width=100_000).split() == listed
    assert terminal.grouped_moves(game, "AIRPLANE_TWOS", width=100_000).split() == listed
    assert "no '_' moves here" in terminal.grouped_moves(game, "_")
    said = io.StringIO()
    action = doudizhu.Action.play(doudizhu.classify("333344445556667", rules)[0])
    game.step(action)
    terminal._report(game, "you", action, ("playing", 0), terminal.Options("run_fast", "heuristic", False), said)
    assert said.getvalue().split(": ")[1].strip() == action.text(rules) and "/" in action.text(rules)
