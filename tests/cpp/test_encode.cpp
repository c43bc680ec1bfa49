// Observation encoders: layout sizes and values counted by hand; every state of random
// games, every preset and seat, encodes within bounds (run under ASan by CI).
#include <numeric>
#include <vector>

#include "check.hpp"
#include "helpers.hpp"
#include "learn/encode.hpp"
#include "play/policy.hpp"

using namespace ddz;
using namespace ddz::testing;

namespace {

float sum(const std::vector<float>& v, const Block& b) {
  return std::accumulate(v.begin() + b.offset, v.begin() + b.offset + b.size, 0.0f);
}

std::vector<float> observe(const Game& g, int seat) {
  const GameView v = view_of(g);
  const ObservationLayout layout = observation_layout_for(v);
  std::vector<float> out(static_cast<std::size_t>(layout.size), -1.0f);
  encode_observation(v, seat, layout, out.data());
  return out;
}

}  // namespace

TEST(card_plane_is_douzero_layout) {
  // "3" -> slot 0; "44" -> slots 4, 5; "2" -> slot 48; B -> 52; R -> 53.
  std::vector<int> plane(54, 0);
  write_card_plane(cards("3442BR"), 1, plane.data());
  std::vector<int> expected(54, 0);
  for (int i : {0, 4, 5, 48, 52, 53}) expected[static_cast<std::size_t>(i)] = 1;
  CHECK(plane == expected);
  CHECK_EQ(card_plane_size(1), 54);
  CHECK_EQ(card_plane_size(2), 108);
}

TEST(layout_sizes_by_hand) {
  // C = 54, S = 3: hand 54 + unseen 54 + played 162 + hand_sizes 60 + kitty 54 +
  // last_move 54 + last_kind 17 + last_by 3 + landlord 3 + to_move 3 + phase 3 + bid 4 +
  // high_bidder 3 + out 3 + robs 3 + base 1 + bombs 14 + multiplier 1 +
  // history 15 x (54 + 3 + 1) = 870 + passes 1 + leading 1 + seats_present 3 +
  // wild 13 = 1384.
  const ObservationLayout l = observation_layout(3, 1);
  CHECK_EQ(l.size, 1384);
  CHECK_EQ(l[kHistory].size, 870);
  CHECK_EQ(l[kWild].offset + l[kWild].size, l.size);
  // Four seats, two decks: C = 108, hand_sizes 4 x 33, bombs 13 x 2 + 1.
  const ObservationLayout w = observation_layout(4, 2);
  CHECK_EQ(w[kHandSizes].size, 132);
  CHECK_EQ(w[kBombs].size, 27);
  CHECK_EQ(w[kHistory].size, 15 * (108 + 4 + 1));
}

TEST(observation_of_a_landlord_after_one_play) {
  // Bidding none, seat 1 the landlord (takes 2BR: 20 cards), leads 777; seat 2 observes.
  Rules r;
  r.bidding = Bidding::None;
  Game g(fixed_deal(), r, 1, 1, 0);
  CHECK(g.apply(Action::play(move("777", MoveKind::Trio))));
  const std::vector<float> o = observe(g, 2);
  const ObservationLayout l = observation_layout(3, 1);
  CHECK_EQ(sum(o, l[kHand]), 17.0f);
  // Relative seats from seat 2: slot 0 = seat 2, slot 1 = seat 0, slot 2 = seat 1.
  CHECK_EQ(o[static_cast<std::size_t>(l[kLandlord].offset + 2)], 1.0f);
  CHECK_EQ(o[static_cast<std::size_t>(l[kLastBy].offset + 2)], 1.0f);
  CHECK_EQ(o[static_cast<std::size_t>(l[kToMove].offset)], 1.0f);  // seat 2, the observer, follows
  // Played: seat 1's block (slot 2) holds 777 = 3 slots of rank 7 (index 4 -> 16..18).
  CHECK_EQ(sum(o, l[kPlayed]), 3.0f);
  CHECK_EQ(o[static_cast<std::size_t>(l[kPlayed].offset + 2 * 54 + 16)], 1.0f);
  // Hand sizes 17 (seat 2), 17 (seat 0), 20 - 3 = 17 (seat 1).
  CHECK_EQ(sum(o, l[kHandSizes]), 51.0f);
  // Unseen: 54 - 17 (own) - 3 (played) = 34; the kitty 2BR is public.
  CHECK_EQ(sum(o, l[kUnseen]), 34.0f);
  CHECK_EQ(sum(o, l[kKitty]), 3.0f);
  // History: one entry, 777 by slot 2, no pass flag; the rest zero.
  CHECK_EQ(sum(o, l[kHistory]), 4.0f);
  CHECK_EQ(o[static_cast<std::size_t>(l[kHistory].offset + 54 + 2)], 1.0f);
  CHECK_EQ(o[static_cast<std::size_t>(l[kLastKind].offset + static_cast<int>(MoveKind::Trio))], 1.0f);
  CHECK_EQ(o[static_cast<std::size_t>(l[kPhase].offset + 1)], 1.0f);
  CHECK_EQ(o[static_cast<std::size_t>(l[kLeading].offset)], 0.0f);
}

TEST(douzero_features_by_hand) {
  // Seat 0 the landlord (20 cards with 2BR) leads 3; seat 1 (landlord_down) to move.
  Game g(fixed_deal(), *preset("douzero"), 0, 0, 0);
  CHECK(g.apply(Action::play(move("3", MoveKind::Solo))));
  const GameView v = view_of(g);
  CHECK(douzero_error(v).empty());
  CHECK_EQ(douzero_position_of(v.state), static_cast<int>(DouZeroPosition::LandlordDown));
  const int width = douzero_x_width(DouZeroPosition::LandlordDown);
  CHECK_EQ(width, 430);  // 7 x 54 + 20 + 17 + 15
  CHECK_EQ(douzero_x_width(DouZeroPosition::Landlord), 319);  // 5 x 54 + 17 + 17 + 15
  std::vector<std::int8_t> x(static_cast<std::size_t>(width)), z(5 * 162);
  douzero_x_no_action(v, x.data());
  douzero_z(v, z.data());
  // Blocks: hand 0, others 54, landlord played 108, mate played 162, last move 216,
  // landlord's last 270, mate's last 324, landlord left 378 (20), mate left 398 (17), bombs 415.
  CHECK_EQ(int{x[108]}, 1);               // the landlord played a 3: slot 0
  CHECK_EQ(int{x[216]}, 1);               // the move to beat
  CHECK_EQ(int{x[270]}, 1);               // the landlord's last action
  CHECK_EQ(int{x[378 + 19 - 1]}, 1);      // the landlord holds 19: one-hot at 18
  CHECK_EQ(int{x[398 + 17 - 1]}, 1);      // the mate holds 17
  CHECK_EQ(int{x[415]}, 1);               // no bombs
  CHECK_EQ(std::accumulate(x.begin(), x.begin() + 54, 0), 17);
  CHECK_EQ(std::accumulate(x.begin() + 54, x.begin() + 108, 0), 36);  // 19 + 17
  // z: 15 planes, oldest first; only the last (index 14) holds the 3.
  CHECK_EQ(std::accumulate(z.begin(), z.end(), 0), 1);
  CHECK_EQ(int{z[14 * 54]}, 1);
  // Batches: pass first (row 0 has a zero action plane), z repeated.
  const auto legal = g.legal_actions();
  std::vector<float> xb(legal.size() * static_cast<std::size_t>(width + 54)), zb(legal.size() * 810);
  douzero_batches(x.data(), width, z.data(), legal, xb.data(), zb.data());
  CHECK(legal[0].type == ActionType::Pass);
  CHECK_EQ(std::accumulate(xb.begin() + width, xb.begin() + width + 54, 0.0f), 0.0f);
  CHECK_EQ(zb[legal.size() * 810 - 810 + 14 * 54], 1.0f);
}

TEST(douzero_layouts_widen_with_the_rules) {
  const DouZeroLayout standard = douzero_layout(Rules{});
  CHECK(standard.exact);
  CHECK_EQ(standard.x[0].width, 319);
  CHECK_EQ(standard.batch_width, 430);
  const DouZeroLayout sanren = douzero_layout(*preset("sanren"));  // 18 cards each: no DouZero one-hot fits
  CHECK(!sanren.exact);
  CHECK_EQ(sanren.x[0].width, 429);  // 7 x 54 + 18 + 18 + 15
  const DouZeroLayout laizi = douzero_layout(*preset("laizi"));
  CHECK_EQ(laizi.x[1].width, 443);  // 7 x 54 + 20 + 17 + 15 + 13
  CHECK_EQ(laizi.action.width, 108);
  const DouZeroLayout four = douzero_layout(*preset("four_player"));
  CHECK_EQ(four.x[0].width, 1075);  // 9 x 108 + 3 x 25 + 28
  CHECK_EQ(four.x[2].width, 1083);  // 9 x 108 + 33 + 2 x 25 + 28
  CHECK_EQ(four.z_cols, 432);
  CHECK_EQ(four.z_moves(), 20);
  // A four-player game in play: `others` holds every card but the mover's and the played.
  Game g(3, *preset("four_player"), 0);
  std::vector<Action> legal;
  while (g.state().phase == Phase::Bidding) {
    g.legal_actions(legal);
    g.apply_legal(legal.back());
  }
  g.legal_actions(legal);
  g.apply_legal(legal.back());
  const GameView v = view_of(g);
  CHECK(douzero_error(v).empty());
  const DouZeroBlocks& blocks = four.x[static_cast<std::size_t>(douzero_position_of(v.state))];
  std::vector<std::int8_t> x(static_cast<std::size_t>(blocks.width));
  douzero_x_no_action(v, four, x.data());
  const DouZeroBlock& others = blocks.blocks[1];
  CHECK(others.kind == DouZeroBlockKind::Others);
  const int played = total(v.state.played[static_cast<std::size_t>(v.state.landlord)]);
  CHECK_EQ(std::accumulate(x.begin() + others.offset, x.begin() + others.offset + others.size, 0),
           108 - total(v.state.hands[static_cast<std::size_t>(v.state.to_move)]) - played);
}

TEST(douzero_refuses_what_it_cannot_describe) {
  Game bidding(fixed_deal(), Rules{}, 0, -1, 0);
  CHECK(!douzero_error(view_of(bidding)).empty());
  Game two = Game::from_position({cards("3"), cards("4")}, 0, 0, Move{}, -1, Rules{});
  CHECK(!douzero_error(view_of(two)).empty());
  std::vector<std::int8_t> x(430);
  bool threw = false;
  try {
    douzero_x_no_action(view_of(two), x.data());
  } catch (const std::invalid_argument&) {
    threw = true;
  }
  CHECK(threw);
}

TEST(every_state_of_random_games_encodes_within_bounds) {
  // Random games under every preset and bidding; every seat's observation of every state
  // stays within the layout (ASan checks the writes) and holds the seat's hand.
  for (const std::string& name : preset_names()) {
    for (Bidding bidding : {Bidding::Classic, Bidding::CallRob, Bidding::None}) {
      Rules r = *preset(name);
      r.bidding = bidding;
      if (!validate(r).empty()) continue;  // run_fast has no auction
      for (std::uint64_t seed = 0; seed < 20; ++seed) {
        Game g(seed, r, static_cast<int>(seed % 3));
        Rng rng(seed);
        std::vector<Action> legal;
        for (;;) {
          const ObservationLayout l = observation_layout_for(view_of(g));
          for (int seat = 0; seat < g.state().seats; ++seat) {
            const std::vector<float> o = observe(g, seat);
            CHECK_EQ(sum(o, l[kHand]), static_cast<float>(total(g.state().hands[static_cast<std::size_t>(seat)])));
          }
          const GameView v = view_of(g);
          if (douzero_error(v).empty()) {
            const DouZeroLayout dz = douzero_layout(r);
            std::vector<std::int8_t> x(static_cast<std::size_t>(dz.batch_width)), z(static_cast<std::size_t>(dz.z_size()));
            douzero_x_no_action(v, dz, x.data());
            douzero_z(v, dz, z.data());
          }
          g.legal_actions(legal);
          if (legal.empty()) break;
          g.apply_legal(legal[choose(PolicyKind::Random, g, legal, rng)]);
        }
      }
    }
  }
}
