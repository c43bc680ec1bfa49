// The Python types of the arguments the bindings take as handles, named once for the
// signatures help() shows (Hinted, bindings/pybind_private.hpp). Each is spelled as
// _core.pyi spells it, aliases written out; tests/test_signatures.py holds the two together.
#pragma once

#include "bindings/pybind_private.hpp"

namespace ddz::py_bind {

using IntArg = Hinted<"int">;
using OptionalIntArg = Hinted<"int | None">;
using BoolArg = Hinted<"bool">;
using FloatArg = Hinted<"float">;
using OptionalFloatArg = Hinted<"float | None">;
using RulesArg = Hinted<"Rules | None">;
using GameArg = Hinted<"Game">;
using GamesArg = Hinted<"Sequence[Game]">;
using ActionOrMoveArg = Hinted<"Action | Move">;
using PathArg = Hinted<"str | os.PathLike[str]">;
using ArrayLikeArg = Hinted<"npt.ArrayLike">;
using RowsArg = Hinted<"npt.NDArray[np.void]">;
// A built-in policy by name, or a Python player.
using PolicyArg = Hinted<"str | object">;
using PoliciesArg = Hinted<"str | object | Sequence[str | object]">;
// What judges a search's new node: a rollout, or the learned networks' values.
using LeafArg = Hinted<"Literal['rollout', 'values']">;
// What `Cards(...)` takes: Cards, card text, a mask, counts by rank, or cards one by one.
using CardsArg = Hinted<"Cards | str | int | np.integer[Any] | Mapping[str, int] | Iterable[str | Cards]">;
using HandsArg = Hinted<"Sequence[Cards | str | int | np.integer[Any] | Mapping[str, int] | Iterable[str | Cards]]">;
using PlayArg = Hinted<"Move | Cards | str">;
using LastArg = Hinted<"Move | Cards | str | None">;
using RankArg = Hinted<"int | str">;
// One wild rank, or up to two (laizi2), or none.
using WildArg = Hinted<"int | str | tuple[int | str, ...] | list[int | str] | None">;

// Results made by hand (interned values), shown as what they are.
using ActionResult = Hinted<"Action">;
using MoveResult = Hinted<"Move">;

}  // namespace ddz::py_bind
