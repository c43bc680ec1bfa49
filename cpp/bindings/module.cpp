// The `doudizhu._core` extension: registration only; each concept binds in its own file.
#include "convert.hpp"

PYBIND11_MODULE(_core, m) {
  m.doc() = "C++ core of the doudizhu engine (cards, rules, moves, move generation, the game, self-play).";
  using namespace ddz::py_bind;
  register_cards(m);
  register_rules(m);
  register_moves(m);
  register_movegen(m);
  register_game(m);
  register_selfplay(m);
}
