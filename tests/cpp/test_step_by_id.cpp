// Stepping by action id: an id (with its stand-in id) names a legal action exactly when
// legal_ids and legal_stand_in_ids list that pair, and it names that action.
#include <set>
#include <utility>

#include "check.hpp"
#include "helpers.hpp"
#include "learn/action_space.hpp"

using namespace ddz;
using namespace ddz::testing;

namespace {

// The legal actions of `g` by their (id, stand-in id) pairs: the oracle.
std::vector<std::pair<std::pair<int, int>, Action>> legal_pairs(const ActionSpace& space, const Game& g) {
  std::vector<std::pair<std::pair<int, int>, Action>> out;
  for (const Action& a : g.legal_actions()) {
    const int stand_in = a.type == ActionType::Play ? ActionSpace::stand_in_id(a.move, g.state().wild) : 0;
    out.push_back({{space.id(a), stand_in}, a});
  }
  return out;
}

// Calls f(game) on the positions of a few random games under `r`, bidding included.
template <class F>
void each_position(const Rules& r, int games, F&& f) {
  for (int i = 0; i < games; ++i) {
    Game g(static_cast<std::uint64_t>(i) + 1, r, 0);
    Rng rng(static_cast<std::uint64_t>(i) + 99);
    while (true) {
      f(g);
      if (g.state().phase == Phase::Over) break;
      const auto legal = g.legal_actions();
      g.apply_legal(legal[rng.below(static_cast<std::uint32_t>(legal.size()))]);
    }
  }
}

}  // namespace

TEST(every_id_steps_exactly_when_legal) {
  for (const Rules& r : {rules("standard"), call_rob_rules(), rules("sanren")}) {
    const ActionSpace space(r);
    each_position(space.rules(), 2, [&](const Game& g) {
      std::set<int> legal;
      for (const auto& [ids, a] : legal_pairs(space, g)) {
        legal.insert(ids.first);
        const auto named = legal_action_of(space, g, ids.first, 0);
        CHECK(named && *named == a);
      }
      for (int id = 0; id < space.size(); ++id) CHECK_EQ(legal_action_of(space, g, id, 0).has_value(), legal.count(id) == 1);
      if (!legal.empty()) CHECK(!legal_action_of(space, g, *legal.begin(), 1));  // no wild cards to stand in
    });
  }
}

TEST(wild_ids_step_by_their_stand_ins) {
  for (const char* name : {"laizi", "laizi2"}) {
    const ActionSpace space(rules(name));
    each_position(space.rules(), 3, [&](const Game& g) {
      const auto pairs = legal_pairs(space, g);
      std::set<std::pair<int, int>> legal;
      for (const auto& entry : pairs) legal.insert(entry.first);
      CHECK_EQ(legal.size(), pairs.size());  // a pair names one legal action
      // Each step scans the legal actions, which under two wild ranks number thousands:
      // a dozen of them, spread over the list, and the pairs next to each (another
      // stand-in, another id).
      const std::size_t stride = pairs.size() / 12 + 1;
      for (std::size_t i = 0; i < pairs.size(); i += stride) {
        const auto& [ids, a] = pairs[i];
        const auto named = legal_action_of(space, g, ids.first, ids.second);
        CHECK(named && *named == a);
        for (const auto& near : {std::pair{ids.first, ids.second + 1}, std::pair{ids.first + 1, ids.second}}) {
          if (near.first >= space.size()) continue;
          CHECK_EQ(legal_action_of(space, g, near.first, near.second).has_value(), legal.count(near) == 1);
        }
      }
    });
  }
}
