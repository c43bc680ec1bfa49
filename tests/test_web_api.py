"""The web app's JSON API over plain HTTP (Starlette's TestClient): every endpoint, games
checked against the engine itself, and malformed or hostile requests, each a clear 4xx
JSON error that leaves the game as it was."""

from __future__ import annotations

import asyncio
import dataclasses
import importlib.util
import io
import json
import os
import pathlib
import re
import socket
import subprocess
import sys
import time
import warnings
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from helpers import sixty_four_fold, spoiled_zips

import doudizhu as dz

pytest.importorskip("starlette", reason="the [web] extra (starlette) is not installed")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx")

with warnings.catch_warnings():  # Starlette 1.x asks TestClient users to move to httpx2; httpx still works
    warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")
    from starlette.testclient import TestClient

from doudizhu._core import shipped_network
from doudizhu.web import create_app, replays, views
from doudizhu.web.sessions import COOKIE, SessionStore

Json = dict[str, Any]
LOCAL = "http://localhost"  # the app answers this machine's names alone by default
JSON = {"content-type": "application/json"}
BINARY = {"content-type": "application/octet-stream"}  # how the page sends a saved .npz


@pytest.fixture
def store() -> SessionStore:
    return SessionStore(capacity=8)


@pytest.fixture
def client(store: SessionStore) -> Iterator[TestClient]:
    with TestClient(create_app(store), base_url=LOCAL) as test_client:
        yield test_client


def ok(response: Any) -> Json:
    assert response.status_code == 200, response.text
    data: Json = response.json()
    return data


def refused(response: Any, status: int, says: str = "") -> Json:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    data: Json = response.json()
    assert isinstance(data["error"], str) and says in data["error"]
    return data


def new_hand(client: TestClient, **fields: Any) -> Json:
    return ok(client.post("/api/new", json={"seed": 42, **fields}))


def engine_game(state: Json) -> dz.Game:
    """The hand the server says it is playing, replayed by the engine from its log."""
    rules = dz.Rules.preset(state["rules"])
    game = dz.Game(seed=int(state["seed"]), rules=rules)  # the rules' opening (run_fast: the 3 of spades leads)
    for entry in state["log"]:
        assert game.to_move == entry["seat"]
        game.step(entry["text"])
    return game


# ---------------------------------------------------------------------------- pages


def test_the_page_and_its_files_are_served_and_nothing_else(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert '<script src="/static/app.js"' in page.text
    assert "default-src 'self'" in page.headers["content-security-policy"]
    for name, kind in (("app.js", "text/javascript"), ("style.css", "text/css"), ("index.html", "text/html")):
        response = client.get(f"/static/{name}")
        assert response.status_code == 200 and response.headers["content-type"].startswith(kind)
        assert response.content == (pathlib.Path(dz.__file__).parent / "web" / "static" / name).read_bytes()
    for path in ("/static/", "/static/app.py", "/static/__init__.py", "/static/.hidden", "/web/app.py",
                 "/static/%2e%2e/app.py", "/static/..%2fapp.py", "/static/..%2F..%2F..%2Fetc%2Fpasswd",
                 "/pyproject.toml", "/api/nothing"):
        refused(client.get(path), 404)


def _raw_get(app: Any, path: str) -> tuple[int, bytes]:
    """A GET of ``path`` exactly as given (an HTTP client would normalise the dots away)."""
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET", "scheme": "http",
             "path": path, "raw_path": path.encode(), "query_string": b"", "headers": [(b"host", b"localhost")],
             "server": ("testserver", 80), "client": ("127.0.0.1", 1), "root_path": ""}
    asyncio.run(app(scope, receive, send))
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return sent[0]["status"], body


@pytest.mark.parametrize("path", ["/static/../../etc/passwd", "/static/../app.py", "/../../../etc/passwd",
                                  "/static/./app.js/../../__init__.py", "/static/..\\..\\app.py"])
def test_path_traversal_finds_nothing(path: str) -> None:
    status, body = _raw_get(create_app(), path)
    assert status == 404 and b"root:" not in body and b"import" not in body
    assert json.loads(body)["error"]


def test_options_list_every_preset_and_the_bots(client: TestClient) -> None:
    options = ok(client.get("/api/options"))
    assert options["presets"] == dz.Rules.presets()
    assert options["seats"] == {name: dz.Rules.preset(name).players for name in dz.Rules.presets()}
    assert options["bots"][0] == options["default_bot"] == "heuristic"
    assert {"random", "determinized"} <= set(options["bots"])


def test_each_preset_offers_the_bots_that_play_it(client: TestClient) -> None:
    # The network was offered under four_partner, then refused when the hand was dealt.
    options = ok(client.get("/api/options"))
    for preset, bots in options["playable"].items():
        seats = options["seats"][preset] - 1
        assert set(bots) <= set(options["bots"]) and options["default_bot"] in bots
        for bot in options["bots"]:
            if bot in ("ismcts", "determinized"):
                continue  # they play every preset: the slower ones are dealt elsewhere
            answer = client.post("/api/new", json={"rules": preset, "bots": [bot] * seats, "seed": 1})
            assert (answer.status_code == 200) == (bot in bots), (preset, bot, answer.text)


def test_a_trained_model_is_offered_only_when_installed(client: TestClient, monkeypatch: pytest.MonkeyPatch,
                                                        tmp_path: pathlib.Path) -> None:
    from doudizhu.web.players import douzero_missing

    monkeypatch.setenv("DOUDIZHU_DOUZERO_MODELS", str(tmp_path))  # a folder without the checkpoints
    assert "douzero" not in ok(client.get("/api/options"))["bots"]
    refused(client.post("/api/new", json={"bots": ["douzero", "heuristic"]}), 422, "unknown bot 'douzero'")
    # What the server says at its start, where the setting was ignored without a word.
    monkeypatch.setitem(sys.modules, "torch", None)
    assert douzero_missing() == "DOUDIZHU_DOUZERO_MODELS is set, but the douzero bot needs PyTorch (the [train] extra)"
    monkeypatch.delitem(sys.modules, "torch")
    if importlib.util.find_spec("torch") is not None:
        assert douzero_missing() == (f"DOUDIZHU_DOUZERO_MODELS names {tmp_path}, which lacks landlord.ckpt, "
                                     "landlord_down.ckpt, landlord_up.ckpt")


# ---------------------------------------------------------------------------- playing


def test_a_new_hand_shows_what_seat_0_may_see(client: TestClient) -> None:
    state = new_hand(client)
    game = dz.Game(seed=42)
    assert state["mode"] == "play" and state["phase"] == "bidding" and state["to_move"] == 0
    assert state["hand"] == str(game.hand(0)) == state["seats"][0]["cards"]
    assert state["choices"] == [str(a) for a in game.legal_actions()] and not state["can_undo"]
    for seat in state["seats"]:
        assert seat["role"] == "bidding" and seat["count"] == 17
    for other in state["seats"][1:]:
        assert other["cards"] is None and other["svg"].count("class='card back'") == 17
    assert state["seats"][0]["svg"].count("class='card'") == 17
    assert not state["kitty"]["public"] and state["kitty"]["cards"] is None and not state["kitty"]["face_up"]
    assert state["last"] is None and state["result"] is None
    assert client.cookies.get(COOKIE)


def test_bidding_makes_a_landlord_and_shows_the_kitty(client: TestClient) -> None:
    new_hand(client)
    state = ok(client.post("/api/play", json={"action": "bid 3"}))
    assert state["landlord"] == 0 and state["phase"] == "playing" and state["base"] == 3
    assert [s["role"] for s in state["seats"]] == ["landlord", "peasant", "peasant"]
    assert state["kitty"] == {**state["kitty"], "public": True, "cards": "48J"}
    assert state["seats"][0]["count"] == 20 and state["can_pass"] is False  # the landlord leads


@pytest.mark.parametrize("rules", dz.Rules.presets())
def test_a_whole_hand_by_hints_matches_the_engine(client: TestClient, rules: str) -> None:
    state = new_hand(client, rules=rules, bots=["random"] * (dz.Rules.preset(rules).players - 1), seed=7)
    turns = 0
    while state["phase"] != "over":
        hint = ok(client.get("/api/hint"))["hint"]["text"]
        assert ok(client.get("/api/legal"))["hint"]["text"] == hint
        state = ok(client.post("/api/play", json={"action": hint}))
        turns += 1
        assert turns < 200
    game = engine_game(state)
    assert game.phase == "over" and game.result is not None
    assert state["result"]["payouts"] == list(game.result.payouts) and sum(state["result"]["payouts"]) == 0
    assert [s["count"] for s in state["seats"]] == [len(game.hand(s)) for s in range(game.seats)]
    assert [s["cards"] for s in state["seats"]] == [str(game.hand(s)) for s in range(game.seats)]  # shown once over
    # The kitty's caption follows what is drawn: face up once over (it said "face down" after
    # a Run Fast or void hand), and none without a kitty (sanren's empty box).
    assert state["kitty"]["face_up"] and state["kitty"]["size"] == len(game.kitty)
    refused(client.post("/api/play", json={"action": "pass"}), 422, "the hand is over")
    assert ok(client.get("/api/hint")) == {"hint": None}
    assert ok(client.get("/api/legal?cards=3")) == {"groups": [], "hint": None}  # no plays; the cards still read
    refused(client.get("/api/legal?cards=3Z"), 422, "unknown card token 'Z'")


def test_the_state_reports_the_last_play_its_player_and_the_stake(client: TestClient) -> None:
    new_hand(client)
    ok(client.post("/api/play", json={"action": "bid 3"}))
    state = ok(client.post("/api/play", json={"action": "33"}))
    game = engine_game(state)
    assert game.last is not None and game.last_by is not None
    assert state["last"]["by"] == game.last_by and state["last"]["text"] == str(game.last.cards)
    assert state["last"]["kind"] == game.last.kind.name.lower()
    assert (state["base"], state["multiplier"], state["bombs"]) == (3, game.multiplier, 0)
    assert state["bombs_text"] == "no bombs"
    assert ok(client.get("/api/state")) == state


def test_a_new_lead_clears_the_passes_of_the_trick_before() -> None:
    # At the end of a hand the seats that passed on the trick before still showed "Pass"
    # beside the final lead, which they never answered.
    def shown(game: dz.Game) -> list[str | None]:
        seats = views.table(game, 0, {0: "you", 1: "b", 2: "c"}, {})["seats"]
        return [seat["latest"] and seat["latest"]["text"] for seat in seats]

    game = dz.Game.from_position(["3456", "78T", "9"], landlord=0, to_move=0)
    for action in ("3", "7", "pass", "pass"):
        game.step(action)
    assert shown(game) == ["pass", "7", "pass"]  # the trick as it ended, until seat 1 leads
    game.step("8")
    assert shown(game) == [None, "8", None]
    game.step("9")
    assert shown(game) == [None, "8", "9"]
    # A position begun inside a trick: its first play answers the move to beat.
    inside = dz.Game.from_position(["TTKK3", "4444J", "55556Q"], landlord=0, to_move=0, last="9", last_by=2)
    inside.step("pass")
    inside.step("J")
    assert shown(inside) == ["pass", "J", None]


def test_legal_plays_are_the_engines_grouped_by_kind(client: TestClient) -> None:
    state = new_hand(client)
    ok(client.post("/api/play", json={"action": "bid 3"}))
    legal = ok(client.get("/api/legal"))
    game = engine_game(ok(client.get("/api/state")))
    listed = [action["text"] for group in legal["groups"] for action in group["actions"]]
    assert listed == [a.text(game.rules) for a in game.legal_actions()]
    assert all(group["count"] == len(group["actions"]) for group in legal["groups"])  # none past LEGAL_SHOWN here
    assert legal["hint"]["text"] == dz.choose_action(game, "heuristic", 0).text(game.rules)
    assert {g["kind"] for g in legal["groups"]} >= {"solo", "pair"} and state["seed"] == "42"


def test_the_hint_alone_is_the_engines_without_the_legal_plays(client: TestClient) -> None:
    new_hand(client, rules="laizi2", seed=3)
    ok(client.post("/api/play", json={"action": "bid 3"}))  # the landlord's 20 cards, two wild ranks
    hint = client.get("/api/hint")
    game = engine_game(ok(client.get("/api/state")))
    assert ok(hint) == {"hint": {"text": dz.choose_action(game, "heuristic", 0).text(game.rules),
                                 "label": ok(client.get("/api/legal"))["hint"]["label"]}}
    assert len(client.get("/api/legal").content) > 100 * len(hint.content)


def test_legal_plays_send_a_kinds_first_plays_and_its_count(client: TestClient) -> None:
    # A laizi2 lead sent all its 80,793 plays, 6.4 MB, of which the page shows 60 a kind.
    from doudizhu.web.app import LEGAL_SHOWN

    new_hand(client, rules="laizi2", seed=3)
    ok(client.post("/api/play", json={"action": "bid 3"}))
    game = engine_game(ok(client.get("/api/state")))
    answer = client.get("/api/legal")
    legal = ok(answer)
    kinds: dict[str, list[str]] = {}
    for action in game.legal_actions():
        kinds.setdefault(views.kind(action), []).append(action.text(game.rules))
    assert [g["kind"] for g in legal["groups"]] == list(kinds)
    for group in legal["groups"]:
        assert group["count"] == len(kinds[group["kind"]])
        assert [a["text"] for a in group["actions"]] == kinds[group["kind"]][:LEGAL_SHOWN]
    assert sum(g["count"] for g in legal["groups"]) == len(game.legal_actions()) > 20_000
    assert len(answer.content) < 200_000


def test_an_illegal_play_is_explained_and_changes_nothing(client: TestClient) -> None:
    new_hand(client)
    ok(client.post("/api/play", json={"action": "bid 3"}))
    ok(client.post("/api/play", json={"action": "33"}))
    before = ok(client.get("/api/state"))
    # The cards the engine wrote as the page shows them (10 for T, runs spaced); the
    # person's own input, quoted, as typed.
    for action, says in (("3", "3 does not beat "), ("KQ", "'KQ' is no legal combination"),
                         ("TTTT", "missing from 10 10 10 10"), ("AA", "cards not in hand: A A missing from A A"),
                         ("bid 2", "the hand is in play"), ("4Z", "unknown card token 'Z'"),
                         ("3333 3", "cards"), ("", "")):
        refused(client.post("/api/play", json={"action": action}), 422, says)
        assert ok(client.get("/api/state")) == before


def test_cards_with_several_readings_offer_them(client: TestClient, store: SessionStore) -> None:
    new_hand(client, rules="douzero")
    session = store.get(client.cookies.get(COOKIE))
    assert session is not None and session.table is not None
    position = dz.Game.from_position(["333444555666", "3", "4"], landlord=0, to_move=0,
                                     rules=dz.Rules.preset("douzero"))
    session.table.game = position
    data = refused(client.post("/api/play", json={"action": "333444555666"}), 422, "several readings")
    assert data["cards"] == "3 3 3 4 4 4 5 5 5 6 6 6"  # what the page says they are played as
    assert data["choices"] == [
        # the two airplanes with solos were offered under one label: the main part tells them apart
        {"text": "333444555666/AIRPLANE/3", "label": "3 3 3 4 4 4 5 5 5 6 6 6, main 3-6", "kind": "airplane"},
        {"text": "333444555666/AIRPLANE_SOLOS/3", "label": "3 3 3 4 4 4 5 5 5 6 6 6, main 3-5",
         "kind": "airplane_solos"},
        {"text": "333444555666/AIRPLANE_SOLOS/4", "label": "4 4 4 5 5 5 6 6 6 3 3 3, main 4-6",
         "kind": "airplane_solos"}]
    state = ok(client.post("/api/play", json={"action": data["choices"][0]["text"]}))
    assert state["phase"] == "over" and state["result"]["landlord_won"]


def test_undo_takes_back_your_action_and_the_bots_replies(client: TestClient) -> None:
    start = new_hand(client)
    refused(client.post("/api/undo"), 422, "nothing to undo")
    after_bid = ok(client.post("/api/play", json={"action": "bid 3"}))
    played = ok(client.post("/api/play", json={"action": "33"}))
    assert len(played["log"]) > len(after_bid["log"])
    undone = ok(client.post("/api/undo"))
    assert undone == {**after_bid, "frames": [], "hand_id": undone["hand_id"]}  # the replies to show are gone with it
    undone = ok(client.post("/api/undo"))
    assert undone == {**start, "frames": [], "hand_id": undone["hand_id"]}  # each undo a new line: a new hand_id


def test_a_drawn_seed_shows_once_the_hand_is_over_and_undo_ends_there(client: TestClient) -> None:
    # The seed tells every card: the state showed the one the server drew during the hand,
    # and undo after the end (every hand shown) took the hand back into play.
    state = ok(client.post("/api/new", json={"bots": ["random", "random"]}))
    while state["phase"] != "over":
        assert state["seed"] is None
        state = ok(client.post("/api/play", json={"action": ok(client.get("/api/hint"))["hint"]["text"]}))
    assert state["seed"] is not None and not state["can_undo"]
    # Drawn from 64 bits: 32 let the person find it from their own hand by trying them all.
    assert int(state["seed"]) >= 2**32  # fails by chance once in 2**32 runs
    assert [s["cards"] for s in state["seats"]] == [str(engine_game(state).hand(s)) for s in range(3)]
    refused(client.post("/api/undo"), 422, "the hand is over")
    assert ok(client.get("/api/state")) == state  # refused, it changed nothing
    assert new_hand(client, seed=9)["seed"] == "9"  # a seed the person chose shows throughout


def test_a_determinized_bot_takes_its_turn(client: TestClient) -> None:
    new_hand(client, bots=["determinized", "random"])
    ok(client.post("/api/play", json={"action": "bid 3"}))  # the top bid ends the auction: you lead
    state = ok(client.post("/api/play", json={"action": "3"}))
    assert [entry["seat"] for entry in state["log"]] == [0, 0, 1, 2] and state["to_move"] == 0
    engine_game(state)


def test_seeds_up_to_2_64_minus_1_are_exact_as_strings(client: TestClient) -> None:
    for seed in (2**64 - 1, 2**53 + 1):
        state = new_hand(client, seed=str(seed))
        assert state["seed"] == str(seed) and state["hand"] == str(dz.Game(seed=seed).hand(0))
    assert new_hand(client, seed=7)["hand"] == str(dz.Game(seed=7).hand(0))  # a JSON integer still does
    # Leading zeros write the same number (25 characters were "not a whole number").
    assert new_hand(client, seed="0" * 30 + "7")["hand"] == str(dz.Game(seed=7).hand(0))
    refused(client.post("/api/new", json={"seed": "1" * 25}), 400, "'seed' has more than 24 digits")
    # Past 4,300 digits int() refuses a text, leading zeros too (a 500 from a query's at).
    assert new_hand(client, seed="0" * 5000 + "7")["hand"] == str(dz.Game(seed=7).hand(0))
    assert ok(client.get("/api/hint?at=" + "0" * 5000))["hint"] is not None
    refused(client.post("/api/new", json={"seed": str(2**64)}), 422, "seed must be in 0..2**64-1")


def test_the_bots_replies_come_as_frames_and_each_seat_shows_its_latest_action(client: TestClient) -> None:
    new_hand(client, bots=["heuristic", "heuristic"])
    ok(client.post("/api/play", json={"action": "bid 3"}))
    state = ok(client.post("/api/play", json={"action": "33"}))
    log = state["log"]
    frames = state["frames"]
    assert len(frames) == 2 and [len(f["log"]) for f in frames] == [len(log) - 2, len(log) - 1]
    assert frames[0]["seats"][0]["latest"]["label"] == "3 3" and frames[0]["seats"][1]["latest"] is None
    for frame in [*frames, state]:  # each seat's latest action of the last turn of the table
        latest = {entry["seat"]: entry["label"] for entry in frame["log"][-3:]}
        assert [seat["latest"] and seat["latest"]["label"] for seat in frame["seats"]] == [
            latest.get(seat) for seat in range(3)]
    game = engine_game(state)
    for seat, action in game.history[-3:]:
        latest = state["seats"][seat]["latest"]
        assert (latest["text"], latest["kind"]) == (action.text(game.rules), dz_kind(action))
        assert (latest["svg"] is None) == (action.move is None)
    assert all(f["to_move"] != 0 for f in frames) and state["to_move"] == 0


def dz_kind(action: dz.Action) -> str:
    return action.move.kind.name.lower() if action.move is not None else action.type.name.lower()


def test_a_wild_cards_reading_is_offered_and_played(client: TestClient) -> None:
    state = new_hand(client, rules="laizi", seed=0)  # the Ks are wild; you hold one K
    assert state["wild"] == "the Ks" and "data-rank='K'" in "".join(state["seats"][0]["faces"])
    assert "card wild" in "".join(state["seats"][0]["faces"])
    ok(client.post("/api/play", json={"action": "bid 3"}))
    data = refused(client.post("/api/play", json={"action": "K3"}), 422, "no legal combination")
    assert data["choices"] == [{"text": "3K=33", "label": "3 K as 3 3", "kind": "pair"}]
    state = ok(client.post("/api/play", json={"action": data["choices"][0]["text"]}))
    assert state["log"][1] == {"seat": 0, "text": "3K=33", "label": "3 K as 3 3"}
    assert "data-as='3'" in state["frames"][0]["seats"][0]["latest"]["svg"]


def test_legal_plays_can_be_narrowed_to_the_selected_cards(client: TestClient) -> None:
    new_hand(client, rules="laizi", seed=0)
    ok(client.post("/api/play", json={"action": "bid 3"}))
    game = engine_game(ok(client.get("/api/state")))
    narrowed = ok(client.get("/api/legal?cards=3K"))
    listed = [action["text"] for group in narrowed["groups"] for action in group["actions"]]
    expected = [a.text(game.rules) for a in game.legal_actions()
                if a.move is not None and a.move.spent <= dz.Cards("3K")]
    assert listed == expected and "3K=33" in listed and len(listed) < len(game.legal_actions())
    refused(client.get("/api/legal?cards=3Z"), 422, "unknown card token 'Z'")
    refused(client.get("/api/legal?cards=" + "3" * 300), 400, "longer than")


@pytest.mark.parametrize(("query", "says"), [
    ("/api/legal?card=3", "unknown query parameter 'card': this route takes 'cards'"),
    ("/api/legal?cards=3&cards=4", "query parameter 'cards' is given more than once"),
    ("/api/state?seed=1", "unknown query parameter 'seed': this route takes 'resume'"),
    ("/api/hint?x", "unknown query parameter 'x': this route takes 'at', 'hand_id'"),
    ("/api/legal?at=x", "'at' must be an integer"),
    ("/api/hint?at=-1", "'at' must be a count, 0 or more, not -1"),
])
def test_query_parameters_are_the_routes_own_and_given_once(client: TestClient, query: str, says: str) -> None:
    before = new_hand(client, seed=3)
    refused(client.get(query), 400, says)
    assert ok(client.get("/api/state")) == before
    assert client.get("/?utm_source=x").status_code == 200  # a page takes any


def test_a_network_bots_bids_are_shown_with_their_own_values(client: TestClient) -> None:
    # While bidding the network has one output a bid (pass, 1, 2, 3), and after a first bid
    # fewer bids are legal: the i-th legal bid was shown with the i-th output, so each bid
    # carried another's value and the bid the bot made was not its top choice.
    watched = ok(client.post("/api/watch", json={"seed": 3, "bots": ["neural"] * 3}))
    game = dz.playout(dz.Game(seed=3), "neural", 3)
    assert watched["steps"] == len(game.history)
    record = game.to_record()
    checked = 0
    for index, (seat, action) in enumerate(game.history):
        position = dz.Game.from_record({**record, "actions": record["actions"][:index]})
        if position.phase != "bidding":
            break
        thinking = ok(client.get(f"/api/replay/{index + 1}"))["seats"][seat]["latest"]["thinking"]
        outputs = shipped_network().values(position)
        bids = {views.action_label(bid, game.rules): round(float(outputs[bid.value]), 3)
                for bid in position.legal_actions()}
        assert thinking[0]["label"] == views.action_label(action, game.rules)  # the bid it made is its best
        assert all(bids[choice["label"]] == choice["value"] for choice in thinking)
        checked += len(position.legal_actions()) < len(outputs)
    assert checked  # a bid after another's, where fewer bids are legal than the network has outputs


def test_a_network_bots_top_choices_are_shown_where_it_played(client: TestClient) -> None:
    bots = ["neural", "heuristic", "neural"]
    watched = ok(client.post("/api/watch", json={"seed": 3, "bots": bots}))
    game = dz.playout(dz.Game(seed=3), bots, 3)
    assert watched["steps"] == len(game.history)
    state = ok(client.get("/api/replay/6"))
    record = game.to_record()
    for index, (seat, _) in enumerate(game.history[3:6], start=3):
        thinking = state["seats"][seat]["latest"]["thinking"]
        if bots[seat] != "neural":
            assert thinking is None
            continue
        position = dz.Game.from_record({**record, "actions": record["actions"][:index]})
        values = shipped_network().values(position)
        legal = position.legal_actions()
        best = sorted(range(len(legal)), key=lambda i: -float(values[i]))[:3]
        assert thinking == [{"label": views.action_label(legal[i], game.rules), "value": round(float(values[i]), 3)}
                            for i in best]


def test_an_action_sent_twice_is_played_once(client: TestClient) -> None:
    # A double click, or a request sent again, played the action twice (two passes in a row,
    # the second in the next trick).
    state = new_hand(client, seed=1)
    at = len(state["log"])
    first = ok(client.post("/api/play", json={"action": "bid 0", "at": at}))
    data = refused(client.post("/api/play", json={"action": "bid 0", "at": at}), 409, "the hand has moved on")
    assert "nothing was played" in data["error"] and ok(client.get("/api/state")) == first
    refused(client.post("/api/play", json={"action": "bid 0", "at": "3"}), 400, "'at' must be an integer")
    for path, body in (("/api/play", {"action": "bid 0", "at": -1}), ("/api/undo", {"at": -1})):
        refused(client.post(path, json=body), 400, "'at' must be a count, 0 or more, not -1")  # was 409
    assert ok(client.get("/api/state")) == first
    hint = ok(client.get("/api/legal"))["hint"]["text"]
    after = ok(client.post("/api/play", json={"action": hint, "at": len(first["log"])}))  # on the state it saw
    assert len(after["log"]) > len(first["log"])


# ---------------------------------------------------------------------------- hostile requests


@pytest.mark.parametrize(
    ("path", "body", "status", "says"),
    [
        ("/api/play", b"{not json", 400, "not valid JSON"),
        ("/api/play", b"[1, 2]", 400, "must be a JSON object"),
        ("/api/play", b'"pass"', 400, "must be a JSON object, not a string"),
        ("/api/new", b"null", 400, "must be a JSON object, not null"),
        ("/api/play", b"\xff\xfe", 400, "not valid JSON"),
        ("/api/play", b"[" * 100_000, 400, "not valid JSON"),
        ("/api/play", b'{"action": 5}', 400, "'action' must be a string"),
        ("/api/play", b'{"action": null}', 400, "'action' must be a string"),
        ("/api/play", b'{"action": ["3"]}', 400, "'action' must be a string"),
        ("/api/play", b'{"cards": "3"}', 400, "unknown field 'cards'"),
        ("/api/play", json.dumps({"action": "3" * 201}).encode(), 400, "longer than 200"),
        ("/api/play", b'{"action": "3\\u0000"}', 422, ""),
        ("/api/play", json.dumps({"action": "🂡 ; DROP TABLE"}).encode(), 422, "card"),
        ("/api/new", b'{"rules": 3}', 400, "'rules' must be a string"),
        ("/api/new", b'{"rules": "chess"}', 422, "chess"),
        ("/api/new", b'{"bots": "heuristic"}', 400, "'bots' must be a list"),
        ("/api/new", b'{"bots": [1, 2]}', 400, "'bots' must be a list"),
        ("/api/new", b'{"bots": ["heuristic"]}', 422, "one per seat"),
        ("/api/new", b'{"bots": ["__import__", "heuristic"]}', 422, "unknown bot"),
        ("/api/new", b'{"seed": "7x"}', 400, "'seed' must be a whole number"),
        ("/api/new", b'{"seed": "-1"}', 400, "'seed' must be a whole number"),
        ("/api/new", b'{"seed": " 7"}', 400, "'seed' must be a whole number"),
        ("/api/new", json.dumps({"seed": "\u00b2"}).encode(), 400, "'seed' must be a whole number"),  # '²'.isdigit()
        ("/api/new", b'{"seed": "18446744073709551616"}', 422, "seed"),
        ("/api/new", b'{"seed": true}', 400, "'seed' must be an integer"),
        ("/api/new", b'{"seed": 1.5}', 400, "'seed' must be an integer"),
        ("/api/new", b'{"seed": -1}', 422, "seed"),
        ("/api/new", json.dumps({"seed": 2**70}).encode(), 422, "seed"),
        ("/api/watch", b'{"bots": ["heuristic"]}', 422, "one a seat"),
        ("/api/replay/record", b"{}", 422, "not a doudizhu record"),
        ("/api/replay/record", b"[]", 400, "a record is a JSON object, not an array"),
        ("/api/replay/record", b"12", 400, "a record is a JSON object, not a number"),
        ("/api/replay/record", b"null", 400, "a record is a JSON object, not null"),  # was "not NoneType"
    ],
)
def test_malformed_requests_are_refused_and_change_nothing(
    client: TestClient, path: str, body: bytes, status: int, says: str
) -> None:
    new_hand(client)
    ok(client.post("/api/play", json={"action": "bid 3"}))
    before = ok(client.get("/api/state"))
    refused(client.post(path, content=body, headers=JSON), status, says)
    assert ok(client.get("/api/state")) == before


@pytest.mark.parametrize("body, headers, status, says", [
    # Each was read as plain UTF-8 JSON, whatever it said it was (or, a body on a GET, not read).
    ('{"action": "bid 3"}'.encode("utf-16"), JSON, 400, "the body is not valid JSON"),  # json.loads guessed UTF-16
    (b'{"action": "bid 3"}', {"content-type": "application/json; charset=latin-1"}, 415,
     "the body must be sent in UTF-8, not 'latin-1'"),
    (b'{"action": "bid 3"}', {**JSON, "content-encoding": "gzip"}, 415, "not with the Content-Encoding 'gzip'"),
    (b'{"action": "bid 3"}', {**JSON, "content-encoding": "identity, gzip"}, 415, "Content-Encoding 'gzip'"),
    (b'{"action": "bid 3"}', {"content-type": "application/json; charset*=utf-8''latin1"}, 415, "not 'latin1'"),
    (b'{"action": "bid 3"}', {"content-type": "application/json; charset=utf-8; charset=latin1"}, 415,
     "not 'latin1'"),  # the one refused named, not the first
])
def test_a_body_is_read_only_as_the_utf8_json_it_must_be(client: TestClient, body: bytes, headers: dict[str, str],
                                                         status: int, says: str) -> None:
    before = new_hand(client)
    refused(client.post("/api/play", content=body, headers=headers), status, says)
    assert ok(client.get("/api/state")) == {**before, "frames": []}
    ok(client.post("/api/play", content=b'{"action": "bid 3"}',  # UTF-8 said so is fine; a quoted ';' is no parameter
                   headers={"content-type": 'application/json; charset="UTF-8"; x="a;charset=latin1"',
                            "content-encoding": "identity,"}))  # an empty item of the list is none
    ok(client.post("/api/undo", content=b"{}", headers={"content-type": "application/json; charset*=utf-8''utf-8"}))
    new_hand(client)
    utf8 = {"content-type": "application/json; charset=utf8"}  # WHATWG's name for UTF-8 too
    ok(client.post("/api/play", content=b'{"action": "bid 3"}', headers=utf8))


def test_a_get_with_a_body_is_refused(client: TestClient) -> None:
    # GET /api/legal with {"cards": "33", "at": 999} listed every play, the body unread.
    new_hand(client)
    for path in ("/api/legal", "/api/hint", "/api/state", "/api/options", "/"):
        refused(client.request("GET", path, content=b'{"cards": "33", "at": 999}', headers=JSON), 400,
                "this route takes no body")
        assert client.get(path).status_code == 200


def test_oversized_bodies_are_refused_unread(client: TestClient) -> None:
    before = new_hand(client)
    big = b'{"action": "' + b"3" * 300_000 + b'"}'
    refused(client.post("/api/play", content=big, headers=JSON), 413, "larger than")
    refused(client.post("/api/play", content=b"{}", headers={**JSON, "content-length": "99999999999"}), 413)
    refused(client.post("/api/play", content=b"{}", headers={**JSON, "content-length": "9" * 5000}), 413)
    refused(client.post("/api/play", content=b"{}", headers={**JSON, "content-length": "1e3"}), 400,
            "Content-Length header must be digits alone")  # was "larger than the bytes allowed"

    def chunks() -> Iterator[bytes]:  # no Content-Length: the server counts as it reads
        for _ in range(100):
            yield b" " * 10_000

    refused(client.post("/api/replay/record", content=chunks(), headers=JSON), 413, "larger than")
    refused(client.post("/api/replay/npz", content=b"0" * (17 * 1024 * 1024), headers=BINARY), 413, "larger than")
    assert ok(client.get("/api/state")) == before


def test_an_unknown_session_has_no_game(client: TestClient, store: SessionStore) -> None:
    for path in ("/api/state", "/api/legal"):
        refused(client.get(path), 404, "no game in this session")
    refused(client.get("/api/replay/0"), 404, "no replay in this session")  # was "no game ...: start one"
    refused(client.post("/api/play", json={"action": "pass"}), 404, "no game")
    refused(client.post("/api/undo"), 404, "no game")
    client.cookies.set(COOKIE, "forged-token")
    refused(client.get("/api/state"), 404, "no game in this session")
    token = client.post("/api/new", json={}).cookies.get(COOKIE)
    assert token not in (None, "forged-token") and store.get(token) is not None  # a token it never made is not adopted
    assert store.get("forged-token") is None


def test_sessions_are_separate_and_bounded() -> None:
    store = SessionStore(capacity=2)
    app = create_app(store)
    clients = [TestClient(app, base_url=LOCAL) for _ in range(3)]
    hands = [ok(c.post("/api/new", json={"seed": seed})) for seed, c in enumerate(clients)]
    assert len(store) == 2 and len({h["hand"] for h in hands}) == 3
    refused(clients[0].get("/api/state"), 404)  # the least recently used one was forgotten
    assert ok(clients[2].get("/api/state")) == hands[2]


def test_refused_requests_keep_no_session_and_evict_nobody() -> None:
    store = SessionStore(capacity=2)
    app = create_app(store)
    player = TestClient(app, base_url=LOCAL)
    hand = ok(player.post("/api/new", json={"seed": 7}))
    for bad in ({"rules": "nope"}, {"seed": -1}, {"bots": ["nobody"]}):
        stranger = TestClient(app, base_url=LOCAL)
        refused(stranger.post("/api/new", json=bad), 422)
        assert COOKIE not in stranger.cookies
    refused(TestClient(app, base_url=LOCAL).post("/api/watch", json={"rules": "nope"}), 422)
    assert len(store) == 1 and ok(player.get("/api/state")) == hand


def test_wrong_methods_are_refused_as_json(client: TestClient) -> None:
    refused(client.get("/api/play"), 405)
    refused(client.post("/api/state"), 405)
    refused(client.delete("/"), 405)


# ---------------------------------------------------------------------------- watching and replaying


def _record_of_a_hand() -> tuple[dz.Game, Json]:
    """A hand the heuristic played to the end, dealt once (so that any prefix of its
    actions is a record too)."""
    game = next(g for g in (dz.playout(dz.Game(seed=seed), "heuristic", 3) for seed in range(10, 40))
                if g.redeals == 0)
    return game, json.loads(json.dumps(game.to_record()))


def test_a_record_steps_forward_and_back_with_every_hand_shown(client: TestClient) -> None:
    game, record = _record_of_a_hand()
    first = ok(client.post("/api/replay/record", json=record))
    assert (first["mode"], first["step"], first["steps"]) == ("replay", 0, len(record["actions"]))
    assert first["next"] == {"seat": game.history[0][0], "text": record["actions"][0],
                             "label": record["actions"][0].replace("T", "10")}
    for step in (0, 1, 5, first["steps"] - 1, first["steps"], 3):
        state = ok(client.get(f"/api/replay/{step}"))
        expected = dz.Game.from_record({**record, "actions": record["actions"][:step]})
        assert state["step"] == step and [e["text"] for e in state["log"]] == record["actions"][:step]
        assert [s["cards"] for s in state["seats"]] == [str(expected.hand(s)) for s in range(3)]
        assert state["kitty"]["cards"] == str(expected.kitty)
    end = ok(client.get(f"/api/replay/{first['steps']}"))
    assert game.result is not None and end["result"]["payouts"] == list(game.result.payouts) and end["next"] is None


def test_replay_steps_out_of_range_or_malformed(client: TestClient) -> None:
    _, record = _record_of_a_hand()
    steps = ok(client.post("/api/replay/record", json=record))["steps"]
    refused(client.get(f"/api/replay/{steps + 1}"), 404, "out of range")
    for huge in ("1000000000", "99999999999999999999", "9" * 5000):  # a whole number, past the end
        refused(client.get(f"/api/replay/{huge}"), 404, f"is out of range: this game has steps 0 to {steps}")
    assert ok(client.get("/api/replay/0000000002"))["step"] == 2  # leading zeros name the same step
    assert ok(client.get("/api/replay/" + "0" * 5000 + "2"))["step"] == 2  # int() refuses 4,300 digits
    for bad in ("-1", "abc", "1.5", "%20", "%C2%B2"):  # the last: '²', a digit to isdigit() but not to int()
        refused(client.get(f"/api/replay/{bad}"), 400, "whole number")
    assert ok(client.get("/api/replay/2"))["step"] == 2


@pytest.mark.parametrize(
    ("tamper", "says"),
    [
        (lambda r: r.update(actions=[*r["actions"][:-1], "BR"]), "action"),
        (lambda r: r.update(version=99), "unsupported record version"),
        (lambda r: r["deals"][0].update(hands=["3", "4", "5"]), "deal"),
        (lambda r: r.update(seed="x"), "seed"),
        (lambda r: r.update(extra=1), "extra"),
        (lambda r: r.update(actions="33"), "actions"),
    ],
)
def test_a_tampered_record_is_refused_and_the_open_replay_kept(client: TestClient, tamper: Any, says: str) -> None:
    _, record = _record_of_a_hand()
    opened = ok(client.post("/api/replay/record", json=record))
    tampered = json.loads(json.dumps(record))
    tamper(tampered)
    refused(client.post("/api/replay/record", json=tampered), 422, says)
    assert ok(client.get("/api/replay/0")) == opened


def _npz(result: dz.SelfPlayResult) -> bytes:
    buffer = io.BytesIO()
    result.save(buffer)  # type: ignore[arg-type]
    return buffer.getvalue()


def test_a_saved_selfplay_game_replays_with_or_without_its_seed(client: TestClient) -> None:
    result = dz.selfplay(40, policy="heuristic", seed=5, record=True)
    data = _npz(result)
    redealt = int(np.flatnonzero(result.redeals > 0)[0])
    plain = int(np.flatnonzero(result.redeals == 0)[0])
    cases = ((plain, f"game={plain}"), (plain, f"game={plain}&seed=5"), (redealt, f"game={redealt}&seed=5"))
    for index, query in cases:
        state = ok(client.post(f"/api/replay/npz?{query}&rules=standard", content=data, headers=BINARY))
        assert result.offsets is not None
        assert state["steps"] == int(result.offsets[index + 1] - result.offsets[index])
        end = ok(client.get(f"/api/replay/{state['steps']}"))
        assert end["result"]["payouts"] == list(result.payouts[index])
        assert all(s["cards"] is not None for s in end["seats"])
    refused(client.post(f"/api/replay/npz?game={redealt}", content=data, headers=BINARY), 422, "give the run's seed")
    for query in ("game=%C2%B2", "seed=%C2%B2", "game=--1", f"game={redealt}&seed=", "game="):  # empty: no default
        refused(client.post(f"/api/replay/npz?{query}", content=data, headers=BINARY), 400, "must be an integer")
    refused(client.post(f"/api/replay/npz?game={plain}&seed=6", content=data, headers=BINARY), 422, "does not replay")


def test_bad_npz_uploads_are_refused(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    recorded = _npz(dz.selfplay(3, seed=1, record=True))
    cases = [
        ("game=0", b"not a zip at all", 422, "not a saved selfplay .npz"),
        ("game=0", _npz(dz.selfplay(3, seed=1)), 422, "holds no actions"),
        ("game=3", recorded, 404, "out of range"),
        ("game=-1", recorded, 404, "out of range"),
        ("game=x", recorded, 400, "'game' must be an integer"),
        ("game=0&seed=1e3", recorded, 400, "'seed' must be an integer"),
        ("game=0&rules=chess", recorded, 422, "chess"),
        ("game=0&rules=four_player", recorded, 422, "do not fit"),
        ("game=0&seed=1&rules=douzero", recorded, 422, "does not replay"),
    ]
    saved = dz.selfplay(3, seed=1, record=True)
    cases.append(("game=0&seed=1", _npz(dataclasses.replace(saved, payouts=2 * saved.payouts)), 422, "saved payouts"))
    cases.append(("game=0&seed=1", _npz(dataclasses.replace(saved, payouts=-saved.payouts)), 422, "yet its payout is"))
    plain = int(np.flatnonzero(saved.redeals == 0)[0])
    cases.append((f"game={plain}&rules=laizi", recorded, 422, "wild cards differ"))
    buffer = io.BytesIO()
    np.savez(buffer, landlord=np.zeros(2), evil=np.zeros(2))
    cases.append(("game=0", buffer.getvalue(), 422, "not a saved selfplay .npz"))
    for query, data, status, says in cases:
        refused(client.post(f"/api/replay/npz?{query}", content=data, headers=BINARY), status, says)
    monkeypatch.setattr(replays, "MAX_NPZ_EXPANDED", 1000)  # a file that expands past the bound
    refused(client.post("/api/replay/npz?game=0", content=recorded, headers=BINARY), 422, "expands to")


def test_watching_the_bots_plays_a_hand_to_replay(client: TestClient) -> None:
    state = ok(client.post("/api/watch", json={"seed": 3, "bots": ["heuristic", "random", "heuristic"]}))
    assert state["step"] == 0 and state["steps"] > 20 and "seed 3" in state["source"]
    assert all(s["cards"] is not None and s["count"] == 17 for s in state["seats"])
    end = ok(client.get(f"/api/replay/{state['steps']}"))
    assert end["phase"] == "over" and sum(end["result"]["payouts"]) == 0
    again = ok(client.post("/api/watch", json={"seed": 3, "bots": ["heuristic", "random", "heuristic"]}))
    assert ok(client.get(f"/api/replay/{again['steps']}")) == end  # the same seed, the same hand


def test_the_shipped_network_plays_a_hand_in_the_browser_and_watched_as_the_engine_plays_it(
        client: TestClient) -> None:
    assert "neural" in ok(client.get("/api/options"))["bots"]
    state = new_hand(client, bots=["neural", "neural"], seed=5)
    while state["phase"] != "over":
        # In play their top choices stay hidden: they told what a face-down hand still held.
        assert all(seat["latest"] is None or seat["latest"]["thinking"] is None for seat in state["seats"][1:])
        state = ok(client.post("/api/play", json={"action": ok(client.get("/api/legal"))["hint"]["text"]}))
    assert sum(state["result"]["payouts"]) == 0
    assert any(seat["latest"] and seat["latest"]["thinking"] for seat in state["seats"][1:])  # shown at the end
    watched = ok(client.post("/api/watch", json={"seed": 3, "bots": ["neural"] * 3}))
    end = ok(client.get(f"/api/replay/{watched['steps']}"))
    engine = dz.playout(dz.Game(seed=3), ["neural"] * 3, 3)
    assert watched["steps"] == len(engine.history) and end["result"]["payouts"] == list(engine.result.payouts)


def test_the_network_is_refused_where_it_cannot_play_and_nothing_changes(client: TestClient) -> None:
    new_hand(client)
    before = ok(client.get("/api/state"))
    refused(client.post("/api/new", json={"rules": "laizi", "bots": ["neural", "heuristic"]}), 422, "neural")
    assert ok(client.get("/api/state")) == before


# ---------------------------------------------------------------------------- command line


def test_serve_is_a_subcommand_with_local_defaults() -> None:
    from doudizhu.cli import build_parser

    args = build_parser().parse_args(["serve"])
    assert (args.run, args.host, args.port) == ("serve", "127.0.0.1", 8000)
    args = build_parser().parse_args(["serve", "--host", "0.0.0.0", "--port", "9001"])
    assert (args.host, args.port) == ("0.0.0.0", 9001)


def test_serve_without_the_extra_names_it_and_doudizhu_does_not_need_it() -> None:
    code = ("import sys; sys.modules['starlette'] = None; sys.modules['uvicorn'] = None\n"
            "import doudizhu, doudizhu.cli\n"
            "print(doudizhu.Game(seed=1).phase)\n"
            "sys.exit(doudizhu.cli.main(['serve']))")
    env = dict(os.environ, PYTHONPATH=str(pathlib.Path(dz.__file__).parent.parent))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 2 and done.stdout.strip() == "bidding"
    assert "pip install 'doudizhu-engine[web]'" in done.stderr and "pip install '.[web]'" in done.stderr


def test_doudizhu_serve_serves_the_page_on_127_0_0_1_and_says_the_port_it_got() -> None:
    import httpx

    env = dict(os.environ, PYTHONPATH=str(pathlib.Path(dz.__file__).parent.parent))
    server = subprocess.Popen([sys.executable, "-m", "doudizhu", "serve", "--port", "0"], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        said = re.search(r"serving on http://127\.0\.0\.1:(\d+)/", server.stdout.readline())
        assert said, server.stderr and server.stderr.read()
        port = int(said.group(1))
        assert port > 0  # port 0 asks for any free one: the line names the one bound
        deadline = time.monotonic() + 30
        while True:
            try:
                page = httpx.get(f"http://127.0.0.1:{port}/", timeout=5)
                break
            except httpx.TransportError:
                assert server.poll() is None and time.monotonic() < deadline, server.stderr and server.stderr.read()
                time.sleep(0.1)
        assert page.status_code == 200 and "Dou Dizhu" in page.text
        assert httpx.get(f"http://127.0.0.1:{port}/api/state").status_code == 404
    finally:
        server.terminate()
        server.communicate(timeout=20)


def test_an_ipv6_address_is_bracketed_in_the_served_url_and_may_be_given_so() -> None:
    from doudizhu.cli import build_parser
    from doudizhu.web import served_url

    assert served_url("127.0.0.1", 8000) == "http://127.0.0.1:8000/"
    assert served_url("::1", 35881) == "http://[::1]:35881/" and served_url("::", 1) == "http://[::]:1/"
    assert build_parser().parse_args(["serve", "--host", "[::1]"]).host == "::1"  # as a URL writes it
    assert build_parser().parse_args(["serve", "--allowed-host", "[::1]:8000"]).allowed_host == ["::1"]
    # Bound and answered as a browser names it: a full-width LOCALHOST answered to localhost alone.
    assert build_parser().parse_args(["serve", "--host", "\uff2c\uff2f\uff23\uff21\uff2c\uff28\uff2f\uff33\uff34"]
                                     ).host == "localhost"


# ---------------------------------------------------------------------------- other sites


def test_only_the_servers_own_names_are_served(store: SessionStore) -> None:
    # Any Host was served: a page elsewhere could reach a local server by DNS rebinding.
    app = create_app(store)
    for base in ("http://evil.example", "http://evil.example:8000", "http://127.0.0.2"):
        with TestClient(app, base_url=base) as foreign:
            refused(foreign.get("/"), 400, "does not answer to the host")
            answer = foreign.post("/api/new", json={})
            refused(answer, 400, "does not answer to the host")
            assert answer.headers["x-content-type-options"] == "nosniff"  # as every other answer (was no-store alone)
            assert "frame-ancestors 'none'" in answer.headers["content-security-policy"]
    assert len(store) == 0
    for base in ("http://localhost", "http://127.0.0.1:8000", "http://[::1]:8000", "http://LOCALHOST"):
        with TestClient(app, base_url=base) as local:
            ok(local.get("/api/options"))
    with TestClient(create_app(hosts=["ddz.example"]), base_url="https://ddz.example") as proxied:
        ok(proxied.post("/api/new", json={}, headers={"origin": "https://ddz.example"}))
    from doudizhu.web import allowed_hosts

    assert allowed_hosts("127.0.0.1") == {"127.0.0.1", "localhost", "::1"}
    assert allowed_hosts("0.0.0.0", ["ddz.example", "Ddz.Example:443"]) == {"0.0.0.0", "ddz.example"}
    assert allowed_hosts("::1") >= {"localhost", "::1"}
    # A browser sends a non-ASCII name in its IDNA form: the name as given matched no request.
    assert allowed_hosts("0.0.0.0", ["Bücher.example"]) == {"0.0.0.0", "xn--bcher-kva.example"}
    with TestClient(create_app(hosts=allowed_hosts("127.0.0.1", ["bücher.example"])),
                    base_url="http://xn--bcher-kva.example") as idna:
        ok(idna.get("/api/options"))
    # IPv6 as a Host header brackets it, and shortened as a browser sends it.
    assert allowed_hosts("0.0.0.0", ["[::1]", "[2001:db8:0::1]:443", "0:0:0:0:0:0:0:0"]) == {
        "0.0.0.0", "::1", "2001:db8::1", "::"}
    with TestClient(create_app(hosts=["2001:db8:0::1"]), base_url="http://[2001:db8::1]") as shortened:
        ok(shortened.get("/api/options"))
    # Read as a browser reads them, IDNA first: full-width digits, an ideographic full stop.
    assert allowed_hosts("0.0.0.0", ["example.com\u3002"]) == {"0.0.0.0", "example.com"}
    for never in ("x?y", "name:", "127.1", "http://ddz.example", "::12345", "256.1.1.1", "a.08", "fe80::1%eth0",
                  "straße.de", "foo.\uff11", "\uff11\uff12\uff17.\uff11"):  # no browser's Host header gives these
        with pytest.raises(ValueError, match=r"no host name a request gives|in full|no IPv4|IDNA form"):
            allowed_hosts("127.0.0.1", [never])
        with pytest.raises(ValueError):  # as the app is made, not a 500 at each request
            create_app(hosts=[never])
    with pytest.raises(TypeError, match=r"hosts must be a list of host names, not a str \(give \['localhost'\]\)"):
        create_app(hosts="localhost")  # its letters were the names: every request refused
    with pytest.raises(TypeError, match="hosts must hold host names \\(str\\), not int"):
        create_app(hosts=["localhost", 5])  # type: ignore[list-item]
    with pytest.raises(TypeError, match=r"hosts must be a list of host names \(str\), not bytes"):
        create_app(hosts=b"localhost")  # type: ignore[arg-type]  # was 'not int', of its first byte
    with pytest.raises(TypeError, match="hosts must be a list of host names, not a str"):
        allowed_hosts("127.0.0.1", "games")  # its letters were answered as names
    with pytest.raises(TypeError, match=r"host must be a host name \(str\), not list"):
        allowed_hosts(["127.0.0.1"])  # type: ignore[arg-type]
    for wrong, says in ((["localhost", None], "hold host names \\(str\\), not NoneType"),
                        (None, "be a list of host names, not NoneType")):
        with pytest.raises(TypeError, match=f"hosts must {says}"):  # an AttributeError, a bare 'not iterable'
            create_app(hosts=wrong)  # type: ignore[arg-type]


def test_a_replays_result_says_whether_a_cap_held_the_multiplier(client: TestClient) -> None:
    # The page listed a start bonus a seat and never said a cap held the multiplier down.
    game = sixty_four_fold(dz.Rules(max_multiplier=8))
    steps = ok(client.post("/api/replay/record", json=game.to_record()))["steps"]
    result = ok(client.get(f"/api/replay/{steps}"))["result"]
    assert (result["multiplier"], result["capped"]) == (8, True)
    uncapped = dz.playout(dz.Game(seed=4), "heuristic", 1)
    steps = ok(client.post("/api/replay/record", json=uncapped.to_record()))["steps"]
    assert ok(client.get(f"/api/replay/{steps}"))["result"]["capped"] is False


def test_a_run_without_bidding_replays_with_its_seed(client: TestClient) -> None:
    result = dz.selfplay(3, policy="heuristic", seed=5, record=True, rules=dz.Rules.preset("run_fast"))
    for index in range(3):  # a charset on a binary upload is no reason to refuse it (it was "must be in UTF-8")
        state = ok(client.post(f"/api/replay/npz?game={index}&rules=run_fast&seed=5", content=_npz(result),
                               headers={**BINARY, "content-type": "application/octet-stream; charset=binary"}))
        end = ok(client.get(f"/api/replay/{state['steps']}"))
        assert end["result"]["payouts"] == list(result.payouts[index])


def test_a_path_with_a_trailing_slash_is_no_route(client: TestClient) -> None:
    refused(client.get("/api/options/"), 404)


def test_a_page_of_another_site_changes_nothing(client: TestClient, store: SessionStore) -> None:
    # text/plain bodies were read as JSON, so any page could post without a CORS
    # preflight; with the 256-session cap a foreign page could push the user's game out.
    state = new_hand(client)
    sessions = len(store)
    body = json.dumps({"action": "bid 3"})
    for headers, status, says in (
        ({"content-type": "text/plain"}, 415, "must be sent as application/json"),
        ({"content-type": "application/x-www-form-urlencoded"}, 415, "application/json"),
        ({}, 415, "must be sent as application/json, and this request names no type"),
        ({**JSON, "origin": "http://evil.example"}, 403, "another site"),
        ({**JSON, "origin": "null"}, 403, "another site"),
        ({**JSON, "origin": "http://localhost:9999"}, 403, "another site"),
        ({**JSON, "origin": "http://["}, 403, "another site"),  # no URL at all: urlsplit raises
    ):
        refused(client.post("/api/play", content=body, headers=headers), status, says)
        refused(client.post("/api/new", content=b"{}", headers=headers), status, says)
        assert ok(client.get("/api/state")) == state and len(store) == sessions
    refused(client.post("/api/undo", headers={"origin": "http://evil.example"}), 403, "another site")
    refused(client.post("/api/replay/npz?game=0", content=b"x", headers={"content-type": "text/plain"}), 415,
            "application/octet-stream")
    ok(client.post("/api/play", content=body, headers={"content-type": "application/json; charset=utf-8",
                                                         "origin": LOCAL}))


def test_hostile_bodies_get_a_4xx_never_a_500(client: TestClient) -> None:
    # A 600-deep record and crafted .npz files answered 500.
    nested: Any = "pass"
    for _ in range(600):
        nested = [nested]
    record = dz.Game(seed=1).to_record()
    refused(client.post("/api/replay/record", content=json.dumps({**record, "actions": [nested]}), headers=JSON),
            422, "nested deeper than a record goes")
    refused(client.post("/api/replay/record", content=json.dumps({**record, "seed": None}), headers=JSON), 422, "seed")
    saved = _npz(dz.selfplay(2, seed=1, record=True))
    for data in spoiled_zips(saved).values():
        refused(client.post("/api/replay/npz?game=0", content=data, headers=BINARY), 422, "not a saved selfplay .npz")


def test_a_client_leaving_mid_body_logs_nothing(caplog: pytest.LogCaptureFixture) -> None:
    # ClientDisconnect escaped the handler: uvicorn logged "Exception in ASGI application".
    import threading

    import httpx
    import uvicorn

    done = threading.Event()
    app = create_app()

    async def tracked(scope: Any, receive: Any, send: Any) -> None:
        try:
            await app(scope, receive, send)
        finally:
            if scope["type"] == "http":
                done.set()

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(tracked, log_config=None, lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        while not server.started:
            assert thread.is_alive()
            time.sleep(0.02)
        with caplog.at_level("DEBUG"), socket.create_connection(sock.getsockname()) as raw:
            raw.sendall(b"POST /api/replay/record HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                        b"Content-Length: 5000\r\n\r\n{\"format\": ")
            raw.shutdown(socket.SHUT_WR)
            assert done.wait(30)
            # The server's thread logs a failed request after the app returns, before its loop
            # serves another: the answer to a second request comes after any such log.
            host, port = sock.getsockname()
            assert httpx.get(f"http://{host}:{port}/api/options", timeout=30).status_code == 200
        assert not [r for r in caplog.records if r.levelno >= 30 or r.exc_info], caplog.text
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


def test_serve_takes_the_names_a_proxy_forwards() -> None:
    from doudizhu.cli import build_parser

    args = build_parser().parse_args(["serve", "--allowed-host", "ddz.example", "--allowed-host", "ddz.internal"])
    assert args.allowed_host == ["ddz.example", "ddz.internal"]
    assert build_parser().parse_args(["serve"]).allowed_host == []


# ---------------------------------------------------------------- round 5's fifth boundary pass


def test_a_json_field_given_twice_is_refused_not_taken_last(client: TestClient) -> None:
    refused(client.post("/api/new", content=b'{"seed": 1, "seed": 2}', headers=JSON), 400,
            "the field 'seed' is given more than once")
    new_hand(client)
    refused(client.post("/api/play", content=b'{"action": "pass", "action": "bid 3"}', headers=JSON), 400,
            "'action' is given more than once")
    assert ok(client.get("/api/state"))["log"] == []  # nothing was played


def test_undo_refuses_a_body_it_does_not_read_rather_than_ignoring_it(client: TestClient) -> None:
    new_hand(client)
    ok(client.post("/api/play", json={"action": "bid 1"}))
    before = ok(client.get("/api/state"))
    refused(client.post("/api/undo", content=b'{"steps": 99}'), 400, "this route takes no body")  # no type
    refused(client.post("/api/undo", content=b'{"at": 1}', headers={"content-type": "text/plain"}), 415,
            "application/json")
    refused(client.post("/api/undo", json={"steps": 99}), 400, "steps")
    refused(client.post("/api/undo", json={"at": "one"}), 400, "at")
    assert ok(client.get("/api/state")) == before
    assert ok(client.post("/api/undo"))["log"] == []  # no body: the last action, whatever the state


def test_an_undo_sent_twice_on_one_state_takes_back_one_action(client: TestClient) -> None:
    # As for a play, `at` is the log's length on the state the undo was pressed on: a
    # second press (or a repeated request) finds the hand elsewhere and takes back nothing.
    start = new_hand(client)
    after_bid = ok(client.post("/api/play", json={"action": "bid 3", "at": 0}))
    played = ok(client.post("/api/play", json={"action": "33", "at": len(after_bid["log"])}))
    pressed_on = len(played["log"])
    undone = ok(client.post("/api/undo", json={"at": pressed_on}))
    assert undone == {**after_bid, "frames": [], "hand_id": undone["hand_id"]}
    refused(client.post("/api/undo", json={"at": pressed_on}), 409, "nothing was taken back")
    refused(client.post("/api/undo", json={"at": 10**4000}), 409, "after a number of actions")
    assert ok(client.get("/api/state"))["log"] == after_bid["log"]
    undone = ok(client.post("/api/undo", json={"at": len(after_bid["log"])}))
    assert undone == {**start, "frames": [], "hand_id": undone["hand_id"]}


def test_an_action_chosen_before_an_undo_is_refused_at_the_same_count(client: TestClient) -> None:
    # The count of actions alone named the state: a tab's pass chosen against QQKKAA was
    # played against a single 4 after another tab undid and played to the same count.
    new_hand(client, seed=11)
    def on(state: Json) -> dict[str, Any]:  # what the page sends: the state it chose on
        return {"at": len(state["log"]), "hand_id": state["hand_id"]}

    bid = ok(client.post("/api/play", json={"action": "bid 3", "at": 0}))
    chosen_on = ok(client.post("/api/play", json={"action": "445566", **on(bid)}))
    undone = ok(client.post("/api/undo", json=on(chosen_on)))
    assert undone["hand_id"] not in (bid["hand_id"], chosen_on["hand_id"])
    replayed = ok(client.post("/api/play", json={"action": "3", **on(undone)}))
    assert len(replayed["log"]) == len(chosen_on["log"]) and replayed["log"] != chosen_on["log"]
    refused(client.post("/api/play", json={"action": "pass", **on(chosen_on)}), 409, "actions taken back")
    assert ok(client.get("/api/state"))["log"] == replayed["log"]  # nothing played


def test_a_wrong_method_gets_a_405_with_allow(client: TestClient) -> None:
    for method, path, allow in (("DELETE", "/api/state", "GET, HEAD"), ("GET", "/api/replay/record", "POST"),
                                ("GET", "/api/replay/npz", "POST"), ("GET", "/api/new", "POST")):
        response = client.request(method, path)
        refused(response, 405, f"{method} is not allowed here; {allow}")
        assert response.headers["allow"] == allow


@pytest.mark.parametrize("host", ["[::1]evil.example", "localhost:abc", "localhost:99999", "localhost..",
                                  "localhost:0", "evil.example"])
def test_a_host_that_is_no_name_of_this_server_is_refused(client: TestClient, host: str) -> None:
    refused(client.get("/api/options", headers={"host": host}), 400, "does not answer to the host")


@pytest.mark.parametrize("host", ["localhost", "LOCALHOST:8000", "localhost.", "127.0.0.1:1", "[::1]:8000"])
def test_the_names_of_this_server_are_answered(client: TestClient, host: str) -> None:
    ok(client.get("/api/options", headers={"host": host}))


def test_two_origins_are_refused_whatever_their_order(client: TestClient) -> None:
    for origins in (("http://evil.example", LOCAL), (LOCAL, "http://evil.example")):
        headers = [("content-type", "application/json"), *(("origin", origin) for origin in origins)]
        refused(client.post("/api/new", content=b"{}", headers=headers), 400, "more than one Origin")


def test_a_busy_session_queues_its_requests_without_holding_up_others(store: SessionStore) -> None:
    import threading

    import anyio

    def one_worker_thread() -> None:  # the thread pool as a burst of slow requests would leave it
        anyio.to_thread.current_default_thread_limiter().total_tokens = 1

    with TestClient(create_app(store), base_url=LOCAL) as client:
        client.portal.call(one_worker_thread)
        tokens = []
        for _ in range(2):
            client.cookies.clear()
            new_hand(client)
            tokens.append(client.cookies[COOKIE])
        client.cookies.clear()
        answers: dict[int, int] = {}

        def state(session: int) -> None:
            cookie = {"cookie": f"{COOKIE}={tokens[session]}"}
            answers[session] = client.get("/api/state", headers=cookie).status_code

        busy = store.get(tokens[0])
        assert busy is not None
        busy.lock.acquire()  # as a long request of the first session would hold it
        first = threading.Thread(target=state, args=(0,), daemon=True)
        first.start()
        first.join(0.5)
        queued = first.is_alive() and not answers  # behind its session's lock, not refused
        second = threading.Thread(target=state, args=(1,), daemon=True)
        second.start()
        second.join(10)  # waiting on the one worker thread, it had waited for the first session's lock
        meanwhile = dict(answers)
        busy.lock.release()
        first.join(20)
        second.join(20)
    assert queued and meanwhile == {1: 200} and answers == {1: 200, 0: 200}


def test_two_content_types_are_refused_whatever_their_order(client: TestClient) -> None:
    # The first was read and the others ignored: JSON then text dealt a hand, text then JSON
    # was a 415.
    for types in (("application/json", "text/plain"), ("text/plain", "application/json")):
        headers = [("content-type", kind) for kind in types]
        refused(client.post("/api/new", content=b"{}", headers=headers), 400, "more than one Content-Type")
    refused(client.get("/api/state"), 404, "no game in this session")


def test_uploads_waiting_for_their_turn_hold_no_worker_thread(store: SessionStore) -> None:
    # Uploads are expanded two at a time; the others waited for their turn on a worker
    # thread each, and 40 of them at once took the whole pool: every other session stalled.
    import threading

    import anyio

    from doudizhu.web import replays

    data = _npz(dz.selfplay(2, seed=5, record=True))
    with TestClient(create_app(store), base_url=LOCAL) as client:
        client.portal.call(lambda: setattr(anyio.to_thread.current_default_thread_limiter(), "total_tokens", 1))
        client.cookies.clear()
        new_hand(client)
        other = {"cookie": f"{COOKIE}={client.cookies[COOKIE]}"}
        client.cookies.clear()
        answers: dict[str, int] = {}

        def upload() -> None:
            answers["upload"] = client.post("/api/replay/npz?seed=5", content=data, headers=BINARY).status_code

        def state() -> None:
            answers["state"] = client.get("/api/state", headers=other).status_code

        for _ in range(2):
            replays.EXPANDING.acquire()  # as two uploads being checked would hold it
        waiting = threading.Thread(target=upload, daemon=True)
        waiting.start()
        waiting.join(0.5)
        queued = waiting.is_alive() and not answers
        meanwhile = threading.Thread(target=state, daemon=True)
        meanwhile.start()
        meanwhile.join(10)  # on the one worker thread, the upload had held it waiting for its turn
        answered = dict(answers)
        for _ in range(2):
            replays.EXPANDING.release()
        waiting.join(20)
    assert queued and answered == {"state": 200} and answers == {"state": 200, "upload": 200}


def test_an_action_chosen_on_an_earlier_hand_is_refused(client: TestClient) -> None:
    # A second tab dealt a new hand: the first tab's bid, made after as many actions, was
    # played on the new hand (on cards the person never saw).
    first = new_hand(client, seed=7)
    second = new_hand(client, seed=8)
    assert first["hand_id"] != second["hand_id"] and len(first["log"]) == len(second["log"])
    for path, body in (("/api/play", {"action": "bid 3"}), ("/api/undo", {})):
        refused(client.post(path, json={**body, "at": len(first["log"]), "hand_id": first["hand_id"]}), 409,
                "a new hand was dealt")
        assert ok(client.get("/api/state")) == second  # nothing done
    # The questions too: a hint or the legal plays of another hand or state (another tab
    # moved on) were answered for the server's, "pass" offered on a lead.
    for path in ("/api/hint", "/api/legal"):
        refused(client.get(f"{path}?at=0&hand_id={first['hand_id']}"), 409, "a new hand was dealt")
        refused(client.get(f"{path}?at=5&hand_id={second['hand_id']}"), 409, "the hand has moved on")
        assert ok(client.get(f"{path}?at=0&hand_id={second['hand_id']}"))["hint"] is not None
    played = ok(client.post("/api/play", json={"action": "bid 3", "at": 0, "hand_id": second["hand_id"]}))
    assert played["log"][0]["text"] == "bid 3"
    refused(client.post("/api/play", json={"action": "33", "hand_id": 7}), 400, "'hand_id' must be a string")


def test_a_redealt_hand_shows_no_bid_of_the_deal_thrown_in(client: TestClient) -> None:
    state = new_hand(client, seed=5, bots=["heuristic", "heuristic"])
    state = ok(client.post("/api/play", json={"action": "bid 0"}))
    assert state["redeals"] == 1 and state["phase"] == "bidding"  # everybody passed
    thrown_in = 3  # the three passes of the first deal
    shown = {seat["seat"]: seat["latest"]["text"] for seat in state["seats"] if seat["latest"]}
    assert shown == {entry["seat"]: entry["text"] for entry in state["log"][thrown_in:]}


def test_run_fast_s_table_says_set_aside_and_how_a_hand_pays(client: TestClient) -> None:
    state = new_hand(client, rules="run_fast", bots=["heuristic", "heuristic"])
    assert state["kitty"]["set_aside"] and not new_hand(client)["kitty"]["set_aside"]
    standard = new_hand(client)
    assert not standard["each_for_self"] and standard["lead_rank"] is None
    state = new_hand(client, rules="run_fast", bots=["heuristic", "heuristic"], seed=2)
    # The page said "stake: base 1 x 1" and nothing of the first lead's 3 until it was refused.
    assert state["each_for_self"] and state["stake"] == "each for itself, a point a card left"
    game = dz.Game(seed=2, rules=dz.Rules.preset("run_fast"))
    assert state["lead_rank"] == dz.rank_name(game.lead_rank) == "3" and state["to_move"] == 0
    while state["phase"] != "over":
        state = ok(client.post("/api/play", json={"action": ok(client.get("/api/hint"))["hint"]["text"]}))
    assert "a point a card it holds" in state["result"]["scoring"]
    assert new_hand(client)["result"] is None


def test_a_page_resuming_without_a_hand_gets_no_content_not_an_error(client: TestClient) -> None:
    # The page's first load asked /api/state and got a 404, which the browser's console
    # reports as a failed resource: ?resume=1 answers 204 where there is nothing to resume.
    refused(client.get("/api/state"), 404, "no game in this session")
    first = client.get("/api/state?resume=1")
    assert first.status_code == 204 and first.content == b"" and COOKIE not in first.cookies  # no session made
    refused(client.get("/api/state?resume=2"), 400, "resume takes 1 alone, not '2'")
    refused(client.get("/api/state?resume=1&resume=1"), 400, "given more than once")
    dealt = new_hand(client)
    assert ok(client.get("/api/state?resume=1")) == ok(client.get("/api/state")) == {**dealt, "frames": []}


def test_readable_changes_only_the_cards_the_engine_wrote() -> None:
    # A first version rewrote quoted input ('3 BJ RJ' became jacks and jokers, 'BBB' made
    # it raise) and moved "at position" off the character it named.
    for message in ("action: too many cards of rank B (at most 1): 'B' at position 1 in 'BBB 3'",
                    "'3 BJ RJ' is no legal combination here", "unknown card token '?' at position 33 in '33 ?'",
                    "BBB does not beat 2",
                    # the words it reads before cards, inside the person's own quoted text
                    "action: unknown card token 'e' at position 3 in 'x beat 33 y'",
                    "action: unknown card token 'i' at position 0 in 'it\\'s missing from 33'"):
        assert views.readable(message) == message
    assert views.readable("T does not beat 88") == "10 does not beat 8 8"
    assert views.readable("must_beat: BR beats 2, so passing is not allowed") == \
        "must_beat: black joker red joker beats 2, so passing is not allowed"
