"""Reading a saved self-play run (``SelfPlayResult.save``'s ``.npz``) as untrusted data.

The whole file is checked before a result exists: it must be a zip of ``.npy`` arrays,
each named as ``save`` names them, with the dtype ``save`` writes, its header read and
checked before its data (so a header cannot claim more bytes than the member holds); then
the arrays together: one row per game in each, the players' count, the values' ranges,
each game's deal (its hands and kitty make the deck), and the actions' offsets and rows.
Whatever is wrong raises one :class:`~doudizhu.RecordError` naming it; a path that cannot
be opened raises ``OSError`` as any file would.
"""

from __future__ import annotations

import contextlib
import math
import os
import stat
import zipfile
from collections.abc import Iterable
from typing import IO, Any, Union

import numpy as np
import numpy.typing as npt

from ._core import ACTION_DTYPE, MoveError, RecordError, check_action_rows

#: The per-game columns other than ``hands`` and ``payouts`` (n, players), with their dtypes.
PER_GAME = {
    "kitty": np.uint64,
    "landlord": np.int8,
    "landlord_won": np.bool_,
    "base": np.int32,
    "multiplier": np.int32,
    "moves": np.int32,
    "redeals": np.int32,
    "wild": np.int8,
    "wild_high": np.int8,
    "partner": np.int8,
    "winner": np.int8,
}
# Every array a saved run may hold: the actions as words (a row of ACTION_DTYPE is
# ROW_WORDS of them) and their offsets only when recorded; "wild" and "wild_high" are
# missing from files of before wild cards (read as -1, no wild rank), "partner" from files
# of before four_partner and "winner" from files of before run_fast (read as -1: none).
_DTYPES = {"hands": np.uint64, "payouts": np.int64, **PER_GAME, "actions": np.uint64, "offsets": np.int64}
_OPTIONAL = {"wild", "wild_high", "partner", "winner", "actions", "offsets"}
ROW_WORDS = ACTION_DTYPE.itemsize // 8
_RANKS = 15
_LAST_WILD = 12  # a wild rank is 3..2
_MOST_PAYOUT = 2**60  # four of them sum within int64
_MOST_EXPANSION = 64  # times its compressed size (_check_expansion)
_SMALL_ARCHIVE = 1 << 20  # expanded bytes below which any compression is let be (a few games)

_END_RECORD = b"PK\x05\x06"  # the zip's end of central directory record: 22 bytes and a comment
_END_RECORD_SPAN = 22 + 0xFFFF  # the comment is at most 65,535 bytes

Source = Union[str, "os.PathLike[str]", IO[bytes]]


def read(source: Source) -> dict[str, npt.NDArray[Any]]:
    """The arrays of a saved run, every one checked (see the module), as the fields of a
    SelfPlayResult."""
    with _opened(source) as file:
        try:
            arrays = _arrays(file)
        except RecordError:
            raise
        except Exception as error:
            # The zip and .npy readers' faults (BadZipFile, zlib.error, EOFError,
            # NotImplementedError for an unknown compression method, ...) are all this
            # file's: one error says so.
            raise _bad(f"{type(error).__name__}: {error}") from error
    return _checked(arrays)


def _bad(why: str) -> RecordError:
    return RecordError(f"not a saved selfplay .npz: {why}")


def not_a_file(path: object) -> TypeError:
    """The refusal of a ``path`` that names no file and is no file object (save's and load's)."""
    return TypeError(f"path must be a str, an os.PathLike or a binary file object, not {type(path).__name__}")


def _opened(source: Source) -> contextlib.AbstractContextManager[IO[bytes]]:
    """The file to read: a path opened (OSError as usual; a device or FIFO, read without end
    or waiting for a writer, refused), or the file object given."""
    if not isinstance(source, (str, os.PathLike)):
        if not callable(getattr(source, "read", None)):
            raise not_a_file(source)
        return contextlib.nullcontext(source)
    with contextlib.suppress(FileNotFoundError):
        mode = os.stat(source).st_mode
        if not stat.S_ISREG(mode) and not stat.S_ISDIR(mode):  # a folder: open's own error
            raise _bad(f"{os.fspath(source)!r} is no regular file")
    return open(source, "rb")


def _arrays(file: IO[bytes]) -> dict[str, npt.NDArray[Any]]:
    """The members, their names checked (none missing, none unknown, none twice), then every
    header and the shapes together, then the archive's compression, before any data is read:
    a small file may inflate to a large member."""
    with zipfile.ZipFile(file) as archive:
        _check_count(file, len(archive.infolist()))
        members: dict[str, zipfile.ZipInfo] = {}
        for info in archive.infolist():
            name = info.filename.removesuffix(".npy")
            if name not in _DTYPES or name == info.filename:
                raise _bad(f"it holds {info.filename[:60]!r}, which save does not write")
            if name in members:
                raise _bad(f"it holds {name!r} twice")
            members[name] = info
        _check_names(set(members))
        _shapes({name: _header_shape(archive, info, name) for name, info in members.items()})
        _check_expansion(members.values())
        return {name: _array(archive, info) for name, info in members.items()}


def _check_count(file: IO[bytes], listed: int) -> None:
    """RecordError unless the archive's end record counts the members its directory lists:
    Python's zipfile stops listing where an entry's comment length swallows the entries
    after it, and a run missing its optional members (the actions) reads as one saved
    without them."""
    file.seek(0, os.SEEK_END)
    file.seek(max(0, file.tell() - _END_RECORD_SPAN))
    tail = file.read()
    at = tail.rfind(_END_RECORD)  # zipfile found it already, or refused the file
    counted = int.from_bytes(tail[at + 10:at + 12], "little")  # the directory's entries in all
    if counted != listed:
        raise _bad(f"its end record counts {counted} members, and its directory lists {listed}")


def _header_shape(archive: zipfile.ZipFile, info: zipfile.ZipInfo, name: str) -> tuple[int, ...]:
    """One member's shape, its header checked: the format, the dtype, and the data it
    claims against the bytes the member holds."""
    headers = {(1, 0): np.lib.format.read_array_header_1_0, (2, 0): np.lib.format.read_array_header_2_0}
    with archive.open(info) as member:
        version = np.lib.format.read_magic(member)
        if version not in headers:
            raise _bad(f"{name!r} is in .npy format {version}, which save does not write")
        shape, _, dtype = headers[version](member)
    expected = np.dtype(_DTYPES[name])
    if dtype != expected:
        raise _bad(f"{name!r} holds {dtype}, not {expected}")
    size = math.prod(shape) * dtype.itemsize
    if size > info.file_size:
        raise _bad(f"{name!r} claims {size} bytes of data and holds {info.file_size}")
    return tuple(shape)


def _check_expansion(members: Iterable[zipfile.ZipInfo]) -> None:
    """Refuses an archive that expands past _MOST_EXPANSION times its compressed size: save's
    files expand 3-13 times (random hands and actions), a file of zeros a thousand times
    (2 MB that declared a consistent 2 GB took that memory and 11 s before a refusal)."""
    infos = list(members)
    expanded, compressed = sum(i.file_size for i in infos), sum(i.compress_size for i in infos)
    if expanded > _MOST_EXPANSION * max(compressed, 1) and expanded > _SMALL_ARCHIVE:
        raise _bad(f"it expands {expanded // max(compressed, 1)} times ({expanded} bytes from {compressed}), "
                   f"more than the {_MOST_EXPANSION} a saved run does")


def _array(archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> npt.NDArray[Any]:
    """One member's data, its header checked (_header_shape)."""
    with archive.open(info) as member:
        array: npt.NDArray[Any] = np.lib.format.read_array(member, allow_pickle=False)
    return array


def _check_names(names: set[str]) -> None:
    missing = sorted(set(_DTYPES) - _OPTIONAL - names)
    if missing:
        raise _bad(f"{missing[0]!r} is missing")
    if ("actions" in names) != ("offsets" in names):
        raise _bad("'actions' and 'offsets' are saved together")


def _checked(arrays: dict[str, npt.NDArray[Any]]) -> dict[str, npt.NDArray[Any]]:
    games, players = _shapes({name: array.shape for name, array in arrays.items()})
    for name in ("wild", "wild_high", "partner", "winner"):
        arrays.setdefault(name, np.full(games, -1, np.int8))
    _check_values(arrays, players)
    _check_deals(arrays["hands"], arrays["kitty"], players)
    if "actions" in arrays:
        arrays["actions"] = _action_rows(arrays["actions"], arrays["offsets"], players)
        short = np.flatnonzero(np.diff(arrays["offsets"]) < arrays["moves"])  # the offsets cut, in order
        if len(short):
            raise _bad(f"game {short[0]} records fewer actions than its {arrays['moves'][short[0]]} moves")
    return arrays


def _shapes(shapes: dict[str, tuple[int, ...]]) -> tuple[int, int]:
    """The games' and the players' count, once every array is seen to have one row a game."""
    hands = shapes["hands"]
    if len(hands) != 2 or hands[1] not in (3, 4):
        raise _bad(f"'hands' has shape {hands}, not (games, 3) or (games, 4)")
    games, players = hands
    for name in ("payouts", *PER_GAME):
        if name in shapes:
            want = (games, players) if name == "payouts" else (games,)
            if shapes[name] != want:
                raise _bad(f"{name!r} has shape {shapes[name]}, not {want} as 'hands' says")
    if "offsets" in shapes and shapes["offsets"] != (games + 1,):
        raise _bad(f"'offsets' has shape {shapes['offsets']}, not ({games + 1},): one more than the games")
    return games, players


def _outside(values: npt.NDArray[Any], lo: int, hi: int) -> int | None:
    """The first game whose value lies outside lo..hi, or None."""
    bad = np.flatnonzero((values < lo) | (values > hi))
    return int(bad[0]) if len(bad) else None


def _check_values(arrays: dict[str, npt.NDArray[Any]], players: int) -> None:
    limit = np.iinfo(np.int32).max
    ranges = {"landlord": (-1, players - 1), "partner": (-1, players - 1), "winner": (-1, players - 1),
              "wild": (-1, _LAST_WILD),
              "wild_high": (-1, _LAST_WILD),
              "base": (0, limit), "multiplier": (1, limit), "moves": (0, limit), "redeals": (0, limit)}
    for name, (lo, hi) in ranges.items():
        game = _outside(arrays[name], lo, hi)
        if game is not None:
            raise _bad(f"{name!r} of game {game} is {arrays[name][game]}, outside {lo}..{hi}")
    wild, high = arrays["wild"], arrays["wild_high"]
    unordered = np.flatnonzero((high >= 0) & ((wild < 0) | (wild >= high)))
    if len(unordered):
        game = unordered[0]
        raise _bad(f"game {game}'s wild ranks ({wild[game]}, {high[game]}) are not (lower, higher)")
    # Bounded first, so that the sum below cannot wrap round (2**63 - 1 twice and 2 "summed
    # to zero"); no settlement comes near: a stake is base x multiplier, both int32.
    payouts = arrays["payouts"]  # (not np.abs: it keeps -2**63 negative)
    huge = np.flatnonzero(((payouts > _MOST_PAYOUT) | (payouts < -_MOST_PAYOUT)).any(axis=1))
    if len(huge):
        raise _bad(f"game {huge[0]}'s payouts go past {_MOST_PAYOUT} (2**62 / 4)")
    unbalanced = np.flatnonzero(payouts.sum(axis=1) != 0)
    if len(unbalanced):
        raise _bad(f"game {unbalanced[0]}'s payouts do not sum to zero")
    flags = np.flatnonzero(arrays["landlord_won"].view(np.uint8) > 1)  # NumPy reads any byte as True
    if len(flags):
        raise _bad(f"'landlord_won' of game {flags[0]} is the byte {arrays['landlord_won'].view(np.uint8)[flags[0]]}, "
                   "not 0 or 1")
    void = np.flatnonzero((arrays["landlord"] < 0) & (arrays["winner"] < 0) & arrays["payouts"].any(axis=1))
    if len(void):
        raise _bad(f"game {void[0]} has neither landlord nor winner (a void hand), yet payouts")
    landlord = arrays["landlord"].astype(np.int64)
    paid = np.where(landlord >= 0, payouts[np.arange(len(payouts)), np.maximum(landlord, 0)], 0)
    won = arrays["landlord_won"].view(np.uint8) == 1
    # Under any rules the landlord's side is paid its stake when it wins and pays it when it loses.
    wrong = np.flatnonzero((won & (paid < 0)) | (~won & (paid > 0)))
    if len(wrong):
        side = "won" if won[wrong[0]] else "lost"
        raise _bad(f"game {wrong[0]}'s landlord {side}, yet its payout is {paid[wrong[0]]}")


def _counts(masks: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint8]:
    """The per-rank counts of masks (one more axis, 16 nibbles: the 15 ranks and the bits above)."""
    data = np.ascontiguousarray(masks, dtype="<u8").view(np.uint8).reshape(*masks.shape, 8)
    return np.stack([data & 0xF, data >> 4], axis=-1).reshape(*masks.shape, 16)


def _check_deals(hands: npt.NDArray[np.uint64], kitty: npt.NDArray[np.uint64], players: int) -> None:
    """Each game's hands and kitty are a deal: together exactly the deck of its players'
    count (with three, the 54 cards or Run Fast's 48)."""
    decks = 1 if players == 3 else 2
    deck = np.array([4 * decks] * (_RANKS - 2) + [decks] * 2 + [0], dtype=np.int64)
    held = _counts(hands).sum(axis=1, dtype=np.int64) + _counts(kitty)
    wrong = (held != deck).any(axis=1)
    if players == 3:
        deck_48 = np.array([4] * 11 + [3, 1, 0, 0, 0], dtype=np.int64)  # 3..K, three aces, one 2
        wrong &= (held != deck_48).any(axis=1)
    wrong = np.flatnonzero(wrong)
    if len(wrong):
        raise _bad(f"game {wrong[0]}'s hands and kitty are not a deal of the deck")


def _action_rows(words: npt.NDArray[np.uint64], offsets: npt.NDArray[np.int64], players: int) -> npt.NDArray[np.void]:
    """ACTION_DTYPE rows from saved words, checked: a row of words each, or (files from
    before the rows grew to 24 bytes for two wild ranks) one flat run of two words a row or
    rows of two, which are the first 16 bytes of today's row; the offsets cut them into
    games."""
    if words.ndim == 1 and len(words) % 2 == 0:
        table = words.reshape(-1, 2)
    elif words.ndim == 2 and words.shape[1] in (2, ROW_WORDS):
        table = words
    else:
        raise _bad(f"'actions' has shape {words.shape}, not (actions, {ROW_WORDS})")
    if offsets[0] != 0 or offsets[-1] != len(table) or (np.diff(offsets) < 0).any():
        raise _bad(f"'offsets' do not cut the {len(table)} actions into games: from 0, never down, to their count")
    padded = np.zeros((len(table), ROW_WORDS), np.uint64)
    padded[:, : table.shape[1]] = table
    rows = padded.view(ACTION_DTYPE).reshape(-1)
    try:
        check_action_rows(rows)
    except MoveError as error:
        raise _bad(f"'actions' {error}") from error
    seated = np.flatnonzero(rows["seat"] >= players)
    if len(seated):
        raise _bad(f"'actions' row {seated[0]} is taken by seat {rows['seat'][seated[0]]}, of {players} seats")
    return rows
