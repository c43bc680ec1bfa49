"""Coverage-guided fuzzing of the Python API with atheris (pip install atheris).

    python fuzz/atheris_api.py -max_total_time=600 [corpus_dir]

Each input picks an API function and arguments built from the fuzzer's bytes (unicode
text, ints of any width and sign, floats, bytes, lists, NumPy arrays of any dtype,
junk objects), or drives a Game with indices into legal_actions() mixed with junk
actions. Only TypeError and ValueError (IllegalActionError included) may escape, with a
message; a refused action must leave the game's hash, history and record unchanged.
Anything else escaping is a crash: atheris stops and saves the input. Python code of
the package is instrumented for coverage; the C++ core is exercised but not traced
(fuzz/run.sh covers it with libFuzzer).
"""

from __future__ import annotations

import sys
from typing import Any, Callable

import atheris
import numpy as np

with atheris.instrument_imports(include=["doudizhu"]):
    import doudizhu as dz

PRESETS = [None, *[dz.Rules.preset(p) for p in dz.Rules.presets()], dz.Rules(bidding="call_rob", call_base=7)]
DTYPES = [np.int8, np.int64, np.uint64, np.float64, np.bool_, np.complex64, "U3", "S2", "datetime64[D]"]


@atheris.instrument_func
def junk(fdp: atheris.FuzzedDataProvider, depth: int = 0) -> Any:
    kind = fdp.ConsumeIntInRange(0, 13)
    if kind == 0:
        return fdp.ConsumeUnicode(fdp.ConsumeIntInRange(0, 40))
    if kind == 1:
        return fdp.ConsumeInt(fdp.ConsumeIntInRange(1, 20))  # up to 160-bit, either sign
    if kind == 2:
        return fdp.ConsumeIntInRange(-3, 20)
    if kind == 3:
        return fdp.ConsumeFloat()
    if kind == 4:
        return fdp.ConsumeBytes(fdp.ConsumeIntInRange(0, 16))
    if kind == 5:
        return None
    if kind == 6:
        return fdp.ConsumeBool()
    if kind == 7 and depth < 2:
        return [junk(fdp, depth + 1) for _ in range(fdp.ConsumeIntInRange(0, 16))]
    if kind == 8 and depth < 2:
        return {fdp.ConsumeUnicode(4): junk(fdp, depth + 1) for _ in range(fdp.ConsumeIntInRange(0, 4))}
    if kind == 9:
        dtype = DTYPES[fdp.ConsumeIntInRange(0, len(DTYPES) - 1)]
        raw = fdp.ConsumeBytes(fdp.ConsumeIntInRange(0, 64))
        try:
            arr = np.frombuffer(raw[: len(raw) // np.dtype(dtype).itemsize * np.dtype(dtype).itemsize], dtype=dtype)
        except (TypeError, ValueError):
            return raw
        return arr.reshape(-1, 1) if fdp.ConsumeBool() and arr.size else arr
    if kind == 10:
        raw = fdp.ConsumeBytes(16 * fdp.ConsumeIntInRange(0, 4))
        return np.frombuffer(raw[: len(raw) // 16 * 16], dtype=dz.MOVE_DTYPE)
    if kind == 11:
        return fdp.ConsumeUnicode(1) + "3456789TJQKA2BR"[: fdp.ConsumeIntInRange(0, 15)]
    if kind == 12:
        return PRESETS[fdp.ConsumeIntInRange(0, len(PRESETS) - 1)]
    return [dz.Cards("33"), dz.Move("3"), dz.Action.pass_(), object(), dz.MoveKind.BOMB, range(3)][
        fdp.ConsumeIntInRange(0, 5)
    ]


@atheris.instrument_func
def call(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    try:
        return fn(*args, **kwargs)
    except (TypeError, ValueError) as e:
        if not str(e):
            raise AssertionError(f"{type(e).__name__} without a message from {fn}") from e
        return None


def fingerprint(g: dz.Game) -> Any:
    return (g.hash, [(s, str(a)) for s, a in g.history], g.to_record())


@atheris.instrument_func
def drive_game(fdp: atheris.FuzzedDataProvider) -> None:
    rules = PRESETS[fdp.ConsumeIntInRange(0, len(PRESETS) - 1)]
    g = dz.Game(fdp.ConsumeIntInRange(0, 2**64 - 1), rules=rules, first_bidder=fdp.ConsumeIntInRange(0, 2))
    for _ in range(fdp.ConsumeIntInRange(0, 200)):
        legal = g.legal_actions()
        if not legal:
            break
        if fdp.ConsumeIntInRange(0, 3):
            g.step(legal[fdp.ConsumeIntInRange(0, len(legal) - 1)])
            continue
        before = fingerprint(g)
        x = junk(fdp)
        method = [g.step, g.play, g.bid, g.call, g.rob][fdp.ConsumeIntInRange(0, 4)]
        try:
            method(x)
        except (TypeError, ValueError) as e:
            assert str(e), "an empty refusal"
            assert fingerprint(g) == before, f"a refused {method.__name__}({x!r:.80}) changed the game"
        else:
            assert g.history[-1][1] in legal, f"{method.__name__}({x!r:.80}) applied an illegal action"
    record = g.to_record()
    assert dz.Game.from_record(record).to_record() == record


@atheris.instrument_func
def test_one(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    which = fdp.ConsumeIntInRange(0, 14)
    a, b, c = junk(fdp), junk(fdp), junk(fdp)
    if which == 0:
        call(dz.Cards, a)
    elif which == 1:
        call(dz.Cards.from_counts, a)
        call(dz.Cards.from_mask, b)
    elif which == 2:
        call(dz.Rules, **{str(a)[:30]: b})
        call(dz.Rules, **{fdp.PickValueInList(list(dz.Rules().to_dict())): b})
    elif which == 3:
        call(dz.classify, a, b)
    elif which == 4:
        call(dz.legal_moves, a, b, c)
    elif which == 5:
        call(dz.legal_moves_array, a, b, c)
    elif which == 6:
        call(dz.legal_moves_batch, a, b, c)
    elif which == 7:
        moves = call(dz.moves_from_array, a)
        for m in moves or []:
            str(m), repr(m), hash(m)
            call(dz.legal_moves, "3333444455556666BR", m, b)
    elif which == 8:
        call(dz.Move, a, b, c)
    elif which == 9:
        call(dz.Game, a, b, c)
    elif which == 10:
        call(dz.Game.from_position, a, b, c)
        call(dz.Game.from_position, ["33", "44", "55"], 0, 1, a, b)
    elif which == 11:
        record = dz.Game(3).to_record()
        key = fdp.PickValueInList(sorted(record))
        call(dz.Game.from_record, {**record, key: a})
    elif which == 12:
        call(dz.score, a, bombs=b)
        call(dz.score, 1, max_multiplier=c)
    else:
        drive_game(fdp)


if __name__ == "__main__":
    atheris.Setup(sys.argv, test_one)
    atheris.Fuzz()
