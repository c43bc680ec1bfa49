"""Pictures: the SVG parses, holds one card element per card, in rank order, and shows a
seat only what it knows."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from helpers import sixty_four_fold
from hypothesis import given
from hypothesis import strategies as st

import doudizhu as dz
from doudizhu import terminal
from doudizhu.render import (
    bombs_text,
    card_name,
    kind_label,
    main_first,
    move_svg,
    role,
    settled,
    stake_text,
    svg,
    wild_names,
    winners,
)
from doudizhu.render import capped as render_capped

NS = "{http://www.w3.org/2000/svg}"


def cards_of(picture: str) -> list[ET.Element]:
    return [g for g in ET.fromstring(picture).iter(f"{NS}g") if "card" in g.get("class", "").split()]


@given(st.lists(st.sampled_from("3456789TJQKA2"), max_size=8), st.booleans(), st.booleans())
def test_cards_draw_one_face_each_in_rank_order(ranks: list[str], black: bool, red: bool) -> None:
    cards = dz.Cards("".join(ranks) + "B" * black + "R" * red)
    faces = cards_of(svg(cards))
    assert [g.get("data-rank") for g in faces] == list(str(cards))
    assert dz.Cards(cards)._repr_svg_() == svg(cards)  # type: ignore[attr-defined]


def test_a_move_draws_its_cards() -> None:
    move = dz.Move("33344456")
    assert [g.get("data-rank") for g in cards_of(svg(move))] == list("33344456")


def test_a_game_draws_every_hand_kitty_and_move_to_beat() -> None:
    game = dz.Game(seed=4, rules=dz.Rules.preset("douzero"))
    game.step(game.legal_actions()[0])
    picture = svg(game)
    faces = cards_of(picture)
    last = game.last
    assert last is not None
    expected = sum(len(game.hand(s)) for s in range(3)) + len(game.kitty) + len(last.cards)
    assert len(faces) == expected and not any("back" in g.get("class", "") for g in faces)
    assert "to beat: " in picture and "stake base" in picture


LAIZI = dz.Rules.preset("laizi")


def test_a_wild_card_shows_the_rank_it_is_played_as() -> None:
    faces = cards_of(svg(dz.Move("5777=7777", rules=LAIZI, wild="5")))
    assert [(g.get("data-rank"), g.get("data-as"), g.get("class")) for g in faces] == [
        ("5", "7", "card wild"), ("7", None, "card"), ("7", None, "card"), ("7", None, "card")]
    assert "as 7" in ET.tostring(faces[0], encoding="unicode")
    straight = cards_of(svg(dz.Move("3T567=34567", rules=LAIZI, wild="T")))  # the 10 drawn where the 4 falls
    assert [(g.get("data-rank"), g.get("data-as")) for g in straight] == [
        ("3", None), ("T", "4"), ("5", None), ("6", None), ("7", None)]
    pair = dz.Move("55=55", rules=LAIZI, wild="5")  # wild cards played as themselves: the table knows them wild
    assert [(g.get("class"), g.get("data-as")) for g in cards_of(move_svg(pair, wild="5"))] == [("card wild", None)] * 2


def test_a_hand_marks_its_wild_cards_and_writes_ten_as_10() -> None:
    from doudizhu.render import cards_svg

    picture = cards_svg(dz.Cards("345TT"), wild="T")
    assert [g.get("class") for g in cards_of(picture)] == ["card"] * 3 + ["card wild"] * 2
    assert cards_svg(dz.Cards("345TT"), wild="t") == picture  # rank characters in any case
    assert cards_svg(dz.Cards("345TT"), wild="10") == picture  # as card text writes the ten (it read '1', '0')
    assert cards_svg(dz.Cards("345TT"), wild="T3") == cards_svg(dz.Cards("345TT"), wild="3 10")
    for bad in ("1", "Z"):
        with pytest.raises(dz.CardsError, match=r"wild must be card text of ranks 3\.\.2, such as '5', '59' or "
                                                r"'10' \(cards: unknown card token"):
            cards_svg(dz.Cards("345TT"), wild=bad)
    assert ">10<" in picture and ">T<" not in picture
    game = dz.Game(seed=5, rules=LAIZI)
    wild = [g for g in cards_of(svg(game)) if g.get("class") == "card wild"]
    assert {g.get("data-rank") for g in wild} == {dz.rank_name(game.wild_ranks[0])}


@pytest.mark.parametrize("wild", ["B", "r", "5R"])
def test_a_joker_is_never_marked_wild(wild: str) -> None:
    from doudizhu.render import card_svgs, cards_svg

    for draw in (cards_svg, card_svgs):
        with pytest.raises(ValueError, match="a joker is never wild"):
            draw(dz.Cards("55BR"), wild=wild)
    with pytest.raises(ValueError, match="a joker is never wild"):
        move_svg(dz.Move("55"), wild=wild)


def test_labels_sit_on_the_table_cloth_so_any_theme_shows_them() -> None:
    root = ET.fromstring(svg(dz.Game(seed=4)))
    cloth = root[0]
    assert cloth.tag == f"{NS}rect" and (cloth.get("width"), cloth.get("height")) == (root.get("width"),
                                                                                       root.get("height"))
    labels = [t for t in root.iter(f"{NS}text") if t.text and t.text.startswith("seat ")]
    assert labels and all(t.get("fill") == "#f4f4f4" for t in labels)
    assert "bidding: high bid none yet" in svg(dz.Game(seed=4))


def test_a_finished_game_shows_the_winner_and_payouts() -> None:
    game = dz.playout(dz.Game(seed=4), "heuristic", 1)
    result = game.result
    assert result is not None and game.landlord is not None
    picture = svg(game)
    winner = "the landlord wins" if result.landlord_won else "the peasants win"
    payouts = ", ".join(f"seat {seat} {payout:+d}" for seat, payout in enumerate(result.payouts))
    assert f"over: {winner}, base {result.base} x {result.multiplier}" in picture
    assert f"payouts: {payouts}" in picture and "to beat" not in picture


def test_roles_and_stakes_say_where_the_auction_stands() -> None:
    # A void hand's seats read 'bidding' once it was over; under four_partner the seats the
    # landlord chooses among read 'peasant'; a call-and-rob stake read 'high bid 4'.
    void = dz.Game(seed=1, rules=dz.Rules(max_redeals=1))
    while void.phase != "over":
        void.step("bid 0")
    assert [role(void, seat) for seat in range(3)] == ["no landlord"] * 3
    choosing = dz.Game(seed=2, rules=dz.Rules.preset("four_partner"))
    while choosing.phase == "bidding":
        choosing.step(choosing.legal_actions()[-1])
    assert choosing.phase == "partner" and choosing.landlord is not None
    assert [role(choosing, seat) for seat in range(4) if seat != choosing.landlord] == ["peasant or partner"] * 3
    robbed = dz.Game(seed=1, rules=dz.Rules(bidding="call_rob"))
    assert stake_text(robbed) == "nobody has called yet"
    for word in ("call", "rob", "rob"):
        robbed.step(word)
    assert stake_text(robbed) == f"stake {robbed.bid_value} so far" and robbed.bid_value == 4


def test_a_finished_picture_says_what_doubled_the_stake_as_the_terminal_does() -> None:
    # A 64-fold hand (four bombs, the rocket, a spring) read 'base 1 x 64' and no reason;
    # the terminal's settlement said the spring.
    game = sixty_four_fold()
    assert game.result is not None and game.result.multiplier == 64
    said = "the landlord wins, base 1 x 64 (4 bombs, 1 rocket, spring)"
    assert settled(game) == said and f"over: {said}" in svg(game)
    happy = dz.playout(dz.Game(seed=3, rules=dz.Rules.preset("happy")), "heuristic", 0)
    assert happy.result is not None and happy.result.start_bonuses == (("jokers", 2),)
    assert settled(happy, lambda seat: "you" if seat == 2 else f"seat {seat}").endswith(
        "start bonus: jokers in your hand)")
    with pytest.raises(ValueError, match="nobody won: the hand is not over"):
        settled(dz.Game(seed=1))
    for function in (winners, settled):  # 5 was taken where no seat needed naming, else 'int is not callable'
        with pytest.raises(TypeError, match="name must be a function of a seat, not int"):
            function(game, name=5)  # type: ignore[arg-type]
    first_out = dz.playout(dz.Game(seed=0, rules=dz.Rules.preset("run_fast")), "random", 0)  # 'None wins'
    for function in (winners, settled):
        with pytest.raises(TypeError, match="name must give a seat's name as a str, not NoneType"):
            function(first_out, name=lambda seat: None)  # type: ignore[arg-type,return-value]
        assert function(game, name={1: "Alice", 2: "Bob"}.__getitem__)  # asked for the seats it names alone
    assert settled(first_out).startswith(f"{winners(first_out)}, ")  # and its bombs, paid: as the picture says
    assert f"over: {settled(first_out)}" in svg(first_out)
    capped = sixty_four_fold(dz.Rules(max_multiplier=8))
    assert settled(capped) == "the landlord wins, base 1 x 8 (4 bombs, 1 rocket, spring, capped at 8)"
    assert render_capped(capped) and not render_capped(game)
    # Two seats dealt a straight double the stake once (rules.md): no cap held it down.
    twice = dz.Game(seed=1197, rules=dz.Rules.preset("happy"))
    while twice.phase != "over":
        twice.step(dz.choose_action(twice, "random", 0))
    assert twice.result is not None and twice.result.start_bonuses == (("straight", 0), ("straight", 1))
    assert settled(twice).endswith("x 2 (start bonus: straight in seat 0's hand and seat 1's hand)")
    assert stake_text(capped) == "stake base 1 x 8" and stake_text(game) == "stake base 1 x 64"  # not the live x32


def test_the_winners_are_named_with_their_verb() -> None:
    # "the landlord and seat 2 wins" under four_partner.
    said = set()
    for seed in range(40):
        game = dz.playout(dz.Game(seed=seed, rules=dz.Rules.preset("four_partner")), "random", seed)
        result = game.result
        assert result is not None
        if game.landlord is None:
            with pytest.raises(ValueError, match="nobody won: the hand was void"):
                winners(game)
            continue
        expected = ("the peasants win" if not result.landlord_won else
                    "the landlord wins" if game.partner is None else f"the landlord and seat {game.partner} win")
        assert winners(game) == expected and f"over: {expected}," in svg(game)
        said.add(expected.split(" seat")[0])
    assert {"the peasants win", "the landlord and"} <= said  # both sides won, partners named
    run_fast = dz.playout(dz.Game(seed=1, rules=dz.Rules.preset("run_fast")), "random", 1)
    assert winners(run_fast) == f"seat {run_fast.winner} wins"
    assert winners(run_fast, lambda seat: "you") == "you win"  # a table naming its player
    partnered = next(game for game in (dz.playout(dz.Game(seed=seed, rules=dz.Rules.preset("four_partner")),
                                                  "random", seed) for seed in range(40))
                     if game.partner is not None and game.result is not None and game.result.landlord_won)
    assert winners(partnered, lambda seat: "you") == "the landlord and you win"
    with pytest.raises(ValueError, match="nobody won: the hand is not over"):
        winners(dz.Game(seed=1))


def test_a_seat_sees_its_own_hand_and_counts_of_the_others() -> None:
    game = dz.Game(seed=4)  # in the auction: the kitty lies face down
    picture = svg(game, seat=1)
    backs = [g for g in cards_of(picture) if "back" in g.get("class", "")]
    faces = [g for g in cards_of(picture) if "back" not in g.get("class", "")]
    assert len(faces) == 17 and len(backs) == 17 + 17 + 3
    assert "".join(g.get("data-rank", "") for g in faces) == str(game.hand(1))


def test_bad_arguments() -> None:
    with pytest.raises(TypeError, match="svg draws Cards, a Move or a Game"):
        svg("334")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="seat applies to a Game only"):
        svg(dz.Cards("3"), seat=0)


def test_every_public_drawing_refuses_what_it_cannot_draw_by_type_and_range() -> None:
    from doudizhu import render

    game = dz.Game(seed=1)
    for draw, args, says in [
        (render.move_svg, ("334",), "move must be a Move, not str"),
        (render.move_svg, (dz.Cards("334"),), "move must be a Move, not Cards"),
        (render.cards_svg, (None,), "cards must be a Cards, not NoneType"),
        (render.card_svgs, ("33",), "cards must be a Cards"),
        (render.cards_svg, (dz.Cards("33"), 5), "wild must be a str, not int"),
        (render.game_svg, ("x",), "game must be a Game"),
        (render.role, (None, 0), "game must be a Game"),
        (render.stake_text, (None,), "game must be a Game"),
        (render.winners, (None,), "game must be a Game"),
        (render.wild_names, (None,), "game must be a Game"),
        (render.wild_ranks, (None,), "game must be a Game"),
    ]:
        with pytest.raises(TypeError, match=says):
            draw(*args)
    for seat in (-1, 3):
        with pytest.raises(ValueError, match=r"seat must be in 0\.\.2"):
            render.role(game, seat)


def test_backs_draw_a_hidden_hand_as_one_back_a_card() -> None:
    from doudizhu.render import backs_svg

    backs = cards_of(backs_svg(5))
    assert len(backs) == 5 and all(g.get("class") == "card back" and g.get("data-rank") is None for g in backs)
    assert cards_of(backs_svg(0)) == []
    for count in (-1, 109):
        with pytest.raises(ValueError, match=r"count must be in 0\.\.108"):
            backs_svg(count)
    with pytest.raises(TypeError, match="count must be an int, not bool"):
        backs_svg(True)


def _labels(picture: str) -> list[str]:
    return [text.text or "" for text in ET.fromstring(picture).iter("{http://www.w3.org/2000/svg}text")]


def test_a_picture_is_as_wide_as_its_longest_line() -> None:
    # A four-seat hand's payouts line ran up to 74 px past the picture's 360 (the width
    # followed the cards alone).
    game = dz.Game.from_position(["33334444555566667777", "8", "9", "T"], landlord=0, to_move=0,
                                 rules=dz.Rules.preset("four_player"))
    for bomb in ("3333", "4444", "5555", "6666", "7777"):
        game.step(bomb)
        if game.to_move is not None and game.to_move != 0:
            while game.to_move != 0 and game.result is None:
                game.step("pass")
    picture = svg(game)
    width = int(ET.fromstring(picture).get("width") or 0)
    longest = max(_labels(picture), key=len)
    assert longest.startswith("payouts:") and width >= 8 + 6.8 * len(longest) + 8


def test_a_hand_without_a_kitty_draws_none_and_run_fast_sets_cards_aside() -> None:
    # sanren and a position have no kitty: its label was drawn over an empty row; Run Fast's
    # three cards left after the deal are set aside, not a kitty.
    for game in (dz.Game(seed=1, rules=dz.Rules.preset("sanren")), dz.Game.from_position(["33", "44"], 0, 0)):
        for seat in (None, 0):
            assert not any("kitty" in label for label in _labels(svg(game, seat)))
    labels = _labels(svg(dz.Game(seed=1, rules=dz.Rules.preset("run_fast")), 0))
    assert "set aside (face down)" in labels and not any("kitty" in label for label in labels)
    assert "kitty (face down)" in _labels(svg(dz.Game(seed=1), 0))


def test_a_rocket_counts_among_the_bombs_of_a_hand_each_plays_for_itself() -> None:
    # Bomb pay counts a rocket as the highest bomb; the picture said "0 bombs".
    rules = dz.Rules.preset("four_player").replace(bidding="none", each_for_self=True, bomb_pay=True, must_beat=True)
    game = dz.Game.from_position(["BBRR3", "4", "5", "6"], landlord=None, to_move=0, rules=rules)
    game.step("BBRR")
    for _ in range(3):
        game.step("pass")
    game.step("3")
    assert game.result is not None and game.result.rockets == 1 and game.result.bombs == 0
    assert "over: seat 0 wins, 1 rocket" in _labels(svg(game))


def test_bombs_and_rockets_are_counted_as_what_they_are() -> None:
    # The web page and the terminal said "3 bombs" for two bombs and a rocket.
    assert [bombs_text(*counts) for counts in ((0, 0), (1, 0), (2, 1), (0, 2))] == \
        ["no bombs", "1 bomb", "2 bombs, 1 rocket", "2 rockets"]
    game = dz.Game.from_position(["BR33334", "4", "5"], landlord=0, to_move=0)
    for action in ("BR", "pass", "pass", "3333", "pass", "pass"):
        game.step(action)
    assert "(1 bomb, 1 rocket so far)" in terminal.screen(game, terminal.Options("standard", "heuristic", False))


def test_wild_ranks_are_named_as_their_card_faces_write_them() -> None:
    # The table said "wild: the Ts" over cards whose faces read 10.
    laizi2 = dz.Rules.preset("laizi2")
    game = dz.Game.from_position(["33T", "4"], landlord=0, to_move=0, rules=laizi2, wild=["T", "5"])
    assert wild_names(game) == "the 5s and 10s"
    assert wild_names(dz.Game(seed=0)) == ""


def test_a_joker_is_named_by_its_colour_where_its_face_says_joker() -> None:
    # The web's log said "B" for a card drawn JOKER: the jokers differ only by colour.
    from doudizhu.web.views import action_label

    game = dz.Game.from_position(["BR3", "44"], landlord=0, to_move=0)
    assert [action_label(a, game.rules) for a in game.legal_actions() if a.move and "3" not in str(a.move.cards)] == [
        "black joker", "red joker", "black joker red joker"]
    assert [card_name(rank) for rank in "T3BR"] == ["10", "3", "black joker", "red joker"]


def test_a_label_names_the_main_part_of_cards_that_read_several_ways() -> None:
    # The web offered three readings of 333344445556667 as three identical buttons.
    from doudizhu.web.views import action_label

    rules = dz.Rules.preset("run_fast")
    game = dz.Game.from_position(["333344445556667", "8", "9TJ"], landlord=None, to_move=0, rules=rules)
    labels = [action_label(a, rules) for a in game.legal_actions()]
    assert len(labels) == len(set(labels))
    whole = sorted(label for label, action in zip(labels, game.legal_actions()) if len(action.move.cards) == 15)
    # The main part first, its kickers after, as players write an airplane.
    assert whole == ["3 3 3 4 4 4 5 5 5 3 4 6 6 6 7, main 3-5", "3 3 3 4 4 4 5 5 5 6 6 6 3 4 7, main 3-6",
                     "4 4 4 5 5 5 6 6 6 3 3 3 3 4 7, main 4-6"]
    assert action_label(dz.Action.play(dz.Move("33")), dz.Rules()) == "3 3"  # one reading: no note
    assert action_label(dz.Action.play(dz.Move("3666")), dz.Rules()) == "6 6 6 3"  # was "3 6 6 6"
    assert main_first(dz.Move("35888999")) == "88899935" and main_first(dz.Move("34567")) == "34567"


def test_a_kind_of_play_is_written_alike_in_the_picture_the_terminal_and_the_page() -> None:
    # The picture wrote "airplane_solos", the terminal "(trio_solo)", the page "(trio solo)".
    game = dz.Game.from_position(["3334K", "5556", "7"], landlord=0, to_move=0)
    game.step("3334")
    assert kind_label(dz.MoveKind.TRIO_SOLO) == "trio solo"
    assert "to beat: trio solo by seat 0" in _labels(svg(game))
    screen = terminal.screen(game, terminal.Options("standard", "heuristic", True))
    assert "to beat: 3334 (trio solo) by seat 0" in screen, screen


def test_the_labels_refuse_what_is_no_count_or_kind() -> None:
    for bad, error in (((True, 0), TypeError), (("x", 1), TypeError), ((-1, 0), ValueError), ((0, -2), ValueError)):
        with pytest.raises(error):
            bombs_text(*bad)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="kind must be a MoveKind"):
        kind_label("PAIR")  # type: ignore[arg-type]
