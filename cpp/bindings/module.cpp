// The `doudizhu._core` extension: registration only; each concept binds in its own file.
#include "bindings/convert.hpp"
#include "bindings/table_run.hpp"

PYBIND11_MODULE(_core, m) {
  m.doc() = "C++ core of the doudizhu engine (cards, rules, moves, move generation, the game, self-play).";
  using namespace ddz::py_bind;
  // A failed pybind11 cast of an argument is a wrong type (pybind11 says RuntimeError).
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const py::cast_error& e) {
      PyErr_SetString(PyExc_TypeError, e.what());
    } catch (const ddz::NetworkError& e) {
      Error(ErrorKind::Network, e.what()).set_error();
    }
  });
  register_errors(m);
  register_cards(m);
  register_rules(m);
  register_moves(m);
  register_movegen(m);
  register_game(m);
  register_table_run(m);
  register_selfplay(m);
  register_search(m);
  register_actions(m);
  register_encode(m);
  register_evaluate(m);
  register_vector_env(m);
  register_network(m);
  register_teacher(m);
}
