"""The ASGI app: the page, its three static files, and the JSON API behind them.

Every answer of the API is JSON; an error is ``{"error": message}`` with 400 (a request of
the wrong shape, or a Host the server does not answer to), 403 (a request of another
site's page: :mod:`.guard`), 404 (no such page, session, game or step), 405 (a wrong
method), 409 (an action made on a state the hand has left: ``at`` below), 413 (a body too
large), 415 (a body not declared ``application/json`` in UTF-8, or
``application/octet-stream`` for a ``.npz``, or sent with a Content-Encoding) or 422 (the
engine refused it: its own message, the game unchanged). Engine work runs on the thread
pool, one request of a session at a time. A route of the API takes the query parameters
listed below alone, each once (400 otherwise), and a GET no body (400); a request refused
keeps no new session.

Routes (the session is the ``ddz_session`` cookie, made by the first request that starts
something):

- ``GET /``: the page; ``GET /static/{app.js,style.css,index.html}``: nothing else is served.
- ``GET /api/options``: the rules presets (with their seat counts), the bots, and by preset
  the bots that play it (``playable``: the networks only in DouZero's setting).
- ``POST /api/new`` ``{"rules": "standard", "bots": ["heuristic", ...], "seed": "7"}``: a new
  hand at seat 0 (every field optional; one bot a seat but yours; the seed, 0 to 2**64-1,
  as a JSON integer or a string of digits, since a browser's numbers are exact only to
  2**53); answers its state, whose ``seed`` is a string for the same reason, and null while
  a hand the server dealt is in play (the seed tells every card; it shows once the hand
  is over, to play the deal again).
- ``GET /api/state``: the hand's state as seat 0 sees it (404 without a hand; with
  ``?resume=1``, what the page asks on loading, 204 No Content, which a browser reports as
  no error), every hand once it is over (see
  :func:`.views.table`: under Run Fast ``each_for_self``, ``stake`` saying how a hand pays
  and ``lead_rank``, the rank the first lead must hold), with ``hand``, ``choices`` (the auction's actions, or the
  landlord's "alone" and "partner N" under four_partner), ``can_pass``,
  ``can_undo`` and ``frames``: the table after your last action and after each bot's reply
  but the last, for the page to show them one at a time.
- ``POST /api/play`` ``{"action": "334455", "at": 12, "hand_id": "..."}`` (or ``"pass"``, ``"bid 2"``, ``"call"``,
  ``"557=577"``...): your action, then the bots' turns. A refusal (422) is the engine's
  message with its cards written as the table writes them ("10 does not beat 8 8"); cards the engine refuses as they
  stand but that some legal plays spend (several readings, or a wild card's) answer 422
  with ``choices``: those plays, each ``{"text", "label", "kind"}``, the text to send, and
  ``cards``, the cards they spend as a person reads them ("5 7 7 7").
  ``at`` (optional; the page sends it) is the number of actions in the ``log`` of the state
  you act on: a request made on another state (a repeated one, a second click) answers
  409 and plays nothing. ``hand_id`` (optional; the page sends it) is the state's, new with
  each deal and each undo: a request made on an earlier hand (a second tab dealt a new one)
  or before an undo (whose replay may reach the same count of actions) answers 409 too.
- ``POST /api/undo`` (optionally ``{"at": 12, "hand_id": "..."}``, as for a play): takes
  back your last action and the bots' replies to it; not once the hand is over (422): every
  hand has been shown.
- ``GET /api/legal`` (``?cards=5777``: only the plays that spend some of these cards): the
  legal actions grouped by kind, each group's ``count`` and its first ``LEGAL_SHOWN``
  ``actions`` (two wild ranks make tens of thousands: a selection narrows them), and the
  heuristic's ``hint``. ``?at=12&hand_id=...`` (optional; the page sends them): asked on
  another state, 409, as for a play (a second tab moved the hand on).
- ``GET /api/hint`` (``?at=&hand_id=`` as for ``/api/legal``): the heuristic's ``hint``
  alone (None when it is not your turn): under two wild ranks a hand may have 80,000 legal
  plays, which the hint need not send.
- ``POST /api/watch`` ``{"rules", "bots" (one a seat), "seed"}``: bots play a whole hand,
  which becomes this session's replay.
- ``POST /api/replay/record``: a record (``Game.to_record()`` JSON) as the body.
- ``POST /api/replay/npz?game=0&rules=standard&seed=0``: a saved selfplay ``.npz`` as the
  body (``seed`` optional: the run's seed, needed for redealt games).
- ``GET /api/replay/{step}``: the replay after ``step`` actions, every hand face up.
"""

from __future__ import annotations

import pathlib
import threading
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, TypeVar

import anyio
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from .._core import ActionType, Cards, Game, Rules, checked_seed, choose_action, game_seed, playout
from ..bots import Neural
from ..lockstep import choose
from . import inputs, players, replays, thinking, views
from .against_bots import HUMAN, HandAgainstBots
from .guard import LOOPBACK_NAMES, Guard, answered_names
from .inputs import ApiError
from .sessions import COOKIE, Session, SessionStore

_T = TypeVar("_T")
LEGAL_SHOWN = 60  # plays of a kind /api/legal lists (the page offers the rest through a selection)
_POST_REPLAYS = ("record", "npz")  # /api/replay/<these> take POST; /api/replay/<step> GET
_NO_GAME = "no game in this session: start one (POST /api/new)"
_NO_REPLAY = "no replay in this session: open a record or a saved game first"
_LOCK_POLL_SECONDS = 0.005  # how often a request waiting for its session's lock looks again
_STATIC = pathlib.Path(__file__).parent / "static"
_TYPES = {"index.html": "text/html; charset=utf-8", "app.js": "text/javascript; charset=utf-8",
          "style.css": "text/css; charset=utf-8"}
_HEADERS = {
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    # The page loads its own script and style and nothing else, and is framed by no one.
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'",
}


def _error(status: int, message: str, **extra: Any) -> JSONResponse:
    return JSONResponse({"error": message, **extra}, status_code=status, headers=_HEADERS)


async def _api_error(_: Request, error: Exception) -> Response:
    assert isinstance(error, ApiError)
    return _error(error.status, error.message, **error.extra)


async def _http_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, HTTPException)
    if error.status_code == 405 and error.headers and "Allow" in error.headers:
        allow = ", ".join(sorted(method.strip() for method in error.headers["Allow"].split(",")))  # a set's order
        response = _error(405, f"{request.method[:20]} is not allowed here; {allow}")
        response.headers["Allow"] = allow  # HTTP asks it of every 405
        return response
    return _error(error.status_code, str(error.detail))


class _Api:
    """The routes over one session store."""

    def __init__(self, store: SessionStore) -> None:
        self.store = store
        self.files = {name: (_STATIC / name).read_bytes() for name in _TYPES}  # read once: no paths at run time

    # -- plumbing ------------------------------------------------------------------------

    def _session(self, request: Request, create: bool, missing: str) -> tuple[Session, bool]:
        session = self.store.get(request.cookies.get(COOKIE))
        if session is not None:
            return session, False
        if not create:
            raise ApiError(404, missing)
        return self.store.create(), True

    @staticmethod
    async def _locked(session: Session, work: Callable[[], _T],
                      slot: threading.Semaphore | None = None) -> _T:
        """``work`` on the thread pool under the session's lock (and holding ``slot``, a
        server-wide bound on such work at once, if given), engine errors as 4xx. A request
        waits for both here, in the event loop, and takes a worker thread only once it holds
        them: waiting on a thread, a burst of slow requests had taken the whole pool and
        stalled every other session."""

        def run() -> _T:
            try:
                return work()
            except IndexError as error:
                raise ApiError(404, str(error)) from error
            except (ValueError, TypeError) as error:  # the engine's refusals (DoudizhuError is a ValueError)
                raise ApiError(422, str(error)) from error

        locks: list[threading.Lock | threading.Semaphore] = [session.lock] if slot is None else [session.lock, slot]
        for taken, lock in enumerate(locks):
            try:
                while not lock.acquire(blocking=False):
                    await anyio.sleep(_LOCK_POLL_SECONDS)
            except BaseException:  # cancelled while waiting (the client went away)
                for held in locks[:taken]:
                    held.release()
                raise
        try:
            return await run_in_threadpool(run)  # not cancelled midway: the thread's work ends before the release
        finally:
            for lock in reversed(locks):
                lock.release()

    @staticmethod
    def _answer(data: dict[str, Any], session: Session, new: bool) -> JSONResponse:
        response = JSONResponse(data, headers=_HEADERS)
        if new:
            response.set_cookie(COOKIE, session.token, httponly=True, samesite="strict")
        return response

    async def _do(self, request: Request, create: bool, work: Callable[[Session], dict[str, Any]],
                  slot: threading.Semaphore | None = None, missing: str = _NO_GAME) -> Response:
        """``work`` for the request's session (a new one if ``create``; else none is a 404
        saying ``missing``), answered as JSON."""
        session, new = self._session(request, create, missing)
        data = await self._locked(session, lambda: work(session), slot)
        if new:
            self.store.keep(session)  # only once the work is done: a refused request evicts nobody
        return self._answer(data, session, new)

    # -- pages ---------------------------------------------------------------------------

    async def index(self, request: Request) -> Response:
        return Response(self.files["index.html"], media_type=_TYPES["index.html"], headers=_HEADERS)

    async def static(self, request: Request) -> Response:
        name = request.path_params["name"]
        if name not in self.files:
            raise ApiError(404, "no such file")
        return Response(self.files[name], media_type=_TYPES[name], headers=_HEADERS)

    async def options(self, request: Request) -> Response:
        presets = Rules.presets()
        rules = {name: Rules.preset(name) for name in presets}
        seats = {name: preset.players for name, preset in rules.items()}
        playable = {name: players.playable(preset) for name, preset in rules.items()}
        return JSONResponse({"presets": presets, "seats": seats, "bots": players.available(), "playable": playable,
                             "default_bot": players.DEFAULT}, headers=_HEADERS)

    # -- playing -------------------------------------------------------------------------

    @staticmethod
    def _play_state(table: HandAgainstBots) -> dict[str, Any]:
        game = table.game
        names = {HUMAN: "you", **{seat: f"seat {seat} ({name})" for seat, name in table.bot_names.items()}}
        state = views.table(game, HUMAN if game.phase != "over" else None, names, table.thoughts)  # all once over
        mine = game.to_move == HUMAN
        legal = game.legal_actions() if mine else []
        state.update(
            mode="play", hand_id=table.id, rules=table.rules,
            seed=str(table.seed) if table.seed_shown or game.phase == "over" else None,
            human=HUMAN, hand=str(game.hand(HUMAN)),
            choices=[a.text(game.rules) for a in legal] if game.phase in ("bidding", "partner") else [],
            can_pass=any(a.type == ActionType.PASS for a in legal),
            can_undo=game.phase != "over" and any(seat == HUMAN for seat, _ in game.history),
            frames=[views.table(shown, HUMAN, names, table.thoughts) for shown in table.shown[:-1]],
        )
        return state

    @staticmethod
    def _table(session: Session) -> HandAgainstBots:
        if session.table is None:
            raise ApiError(404, _NO_GAME)
        return session.table

    @staticmethod
    def _setup(data: dict[str, Any], seats_of_bots: Callable[[int], int]) -> tuple[str, list[str], int]:
        """Rules, bots and seed of a new hand: the rules checked first (they fix the seat count)."""
        rules = inputs.text(data, "rules", "standard")
        seats = Rules.preset(rules).players  # the engine's check of the preset name
        bots = inputs.text_list(data, "bots", 4)
        if bots is None:  # left out; an empty list is a list of the wrong length
            bots = [players.DEFAULT] * seats_of_bots(seats)
        seed = inputs.seed(data.get("seed"))
        # None: the core draws 64 random bits, too many to find the deal from the person's
        # own hand by trying every seed (32 bits took a few core-hours).
        return rules, bots, checked_seed(seed)

    async def new(self, request: Request) -> Response:
        data = inputs.json_object(await inputs.body(request, inputs.MAX_JSON, inputs.JSON), {"rules", "bots", "seed"})

        def work(session: Session) -> dict[str, Any]:
            rules, bots, seed = self._setup(data, lambda seats: seats - 1)
            session.table = HandAgainstBots(rules, bots, seed, seed_shown=data.get("seed") is not None)
            return self._play_state(session.table)

        return await self._do(request, True, work)

    async def state(self, request: Request) -> Response:
        resume = request.query_params.get("resume")
        if resume is not None:
            if resume != "1":
                raise ApiError(400, f"resume takes 1 alone, not {resume[:40]!r}")
            session = self.store.get(request.cookies.get(COOKIE))
            if session is None or session.table is None:  # a page's first load: nothing to resume
                return Response(status_code=204, headers=_HEADERS)
        return await self._do(request, False, lambda session: self._play_state(self._table(session)))

    async def play(self, request: Request) -> Response:
        data = inputs.json_object(await inputs.body(request, inputs.MAX_JSON, inputs.JSON), {"action", "at", "hand_id"})
        action = inputs.text(data, "action")
        at = inputs.optional_count(data.get("at"), "at")
        hand_id = inputs.optional_text(data, "hand_id")

        def work(session: Session) -> dict[str, Any]:
            table = self._table(session)
            self._check_at(at, hand_id, table, "nothing was played")
            try:
                table.act(action)
            except ValueError as error:
                readings = table.readings(action)  # the cards can be played: which reading was not said
                said = {"choices": readings, "cards": views.cards_label(Cards(action))} if readings else {}
                raise ApiError(422, views.readable(str(error)), **said) from error
            return self._play_state(table)

        return await self._do(request, False, work)

    @staticmethod
    def _check_at(at: int | None, hand_id: str | None, table: HandAgainstBots, nothing_done: str) -> None:
        """409 when a request made on the state of ``at`` actions of hand ``hand_id`` finds the
        hand elsewhere, or another hand: a repeated request, a second click, does nothing a
        second time, and an older tab's request nothing to the hand a newer one dealt."""
        if hand_id is not None and hand_id != table.id:
            raise ApiError(409, f"a new hand was dealt or actions taken back since this page's state (in another "
                                f"tab?): reload it; {nothing_done}")
        if at is not None and at != len(table.game.history):
            made_after = f"{at}" if abs(at) < 10**12 else "a number of"
            raise ApiError(409, f"the hand has moved on: your request was made after {made_after} actions, and there "
                                f"are {len(table.game.history)} (a repeated request?); {nothing_done}")

    async def undo(self, request: Request) -> Response:
        data = await inputs.optional_body(request, inputs.MAX_JSON, inputs.JSON)
        fields = inputs.json_object(data, {"at", "hand_id"}) if data else {}
        at = inputs.optional_count(fields.get("at"), "at")
        hand_id = inputs.optional_text(fields, "hand_id")

        def work(session: Session) -> dict[str, Any]:
            table = self._table(session)
            self._check_at(at, hand_id, table, "nothing was taken back")
            table.undo()
            return self._play_state(table)

        return await self._do(request, False, work)

    @staticmethod
    def _asked_on(request: Request) -> tuple[int | None, str | None]:
        """The state a question (legal plays, a hint) was asked on: ``?at=12&hand_id=...``,
        each optional, as a play's ``at`` and ``hand_id``."""
        return (inputs.optional_count(inputs.query_int(request, "at"), "at"),
                inputs.optional_text(dict(request.query_params), "hand_id"))

    async def legal(self, request: Request) -> Response:
        among = request.query_params.get("cards")
        if among is not None and len(among) > inputs.MAX_TEXT:
            raise ApiError(400, f"'cards' is longer than {inputs.MAX_TEXT} characters")
        at, hand_id = self._asked_on(request)

        def work(session: Session) -> dict[str, Any]:
            table = self._table(session)
            self._check_at(at, hand_id, table, "no plays were listed")
            game = table.game
            selected = Cards(among) if among is not None else None  # the engine reads the cards (422 if not cards)
            if game.to_move != HUMAN:
                return {"groups": [], "hint": None}
            groups: dict[str, dict[str, Any]] = {}
            for action in game.legal_actions():
                if selected is not None and (action.move is None or not action.move.spent <= selected):
                    continue
                group = groups.setdefault(views.kind(action), {"count": 0, "actions": []})
                group["count"] += 1
                if len(group["actions"]) < LEGAL_SHOWN:
                    group["actions"].append({"text": action.text(game.rules),
                                             "label": views.action_label(action, game.rules)})
            return {"groups": [{"kind": k, **group} for k, group in groups.items()], "hint": _hint(game)}

        return await self._do(request, False, work)

    async def hint(self, request: Request) -> Response:
        at, hand_id = self._asked_on(request)

        def work(session: Session) -> dict[str, Any]:
            table = self._table(session)
            self._check_at(at, hand_id, table, "no hint was given")
            game = table.game
            return {"hint": _hint(game) if game.to_move == HUMAN else None}

        return await self._do(request, False, work)

    # -- watching and replaying ----------------------------------------------------------

    @staticmethod
    def _replay_state(replay: replays.Replay, step: int) -> dict[str, Any]:
        game = replay.at(step)
        state = views.table(game, None, replay.names, replay.thoughts)
        history = replay.game.history
        upcoming = None if step == replay.steps else history[step]
        rules = replay.game.rules
        state.update(mode="replay", source=replay.source, step=step, steps=replay.steps, rules=rules.to_dict(),
                     next=None if upcoming is None else {"seat": upcoming[0], "text": upcoming[1].text(rules),
                                                         "label": views.action_label(upcoming[1], rules)})
        return state

    def _start_replay(self, session: Session, replay: replays.Replay) -> dict[str, Any]:
        session.replay = replay
        return self._replay_state(replay, 0)

    async def watch(self, request: Request) -> Response:
        data = inputs.json_object(await inputs.body(request, inputs.MAX_JSON, inputs.JSON), {"rules", "bots", "seed"})

        def work(session: Session) -> dict[str, Any]:
            rules, bots, seed = self._setup(data, lambda seats: seats)
            game = Game(seed=seed, rules=Rules.preset(rules))
            if len(bots) != game.seats:
                raise ValueError(f"bots: give one a seat ({game.seats} for {rules!r})")
            seated = [players.make(name, game_seed(seed, seat), game.rules) for seat, name in enumerate(bots)]
            if all(name in players.BUILTIN for name in bots):
                game = playout(game, bots, seed)  # the built-in policies: the whole hand in C++
            while game.phase != "over":
                seat = game.to_move
                assert seat is not None
                game.step(choose(seated[seat], game, game_seed(seed, len(game.history))))
            thinkers = {seat: bot for seat, bot in enumerate(seated) if isinstance(bot, Neural)}
            names = {seat: f"seat {seat} ({name})" for seat, name in enumerate(bots)}
            replay = replays.Replay(game, f"bots ({', '.join(bots)}), seed {seed}", names,
                                    thinking.replayed(game, thinkers))
            return self._start_replay(session, replay)

        return await self._do(request, True, work)

    async def replay_record(self, request: Request) -> Response:
        record = inputs.record(await inputs.body(request, inputs.MAX_JSON, inputs.JSON))
        return await self._do(request, True, lambda session: self._start_replay(session, replays.from_record(record)))

    async def replay_npz(self, request: Request) -> Response:
        index = inputs.query_int(request, "game") or 0
        seed = inputs.query_int(request, "seed")
        rules = request.query_params.get("rules", "standard")
        data = await inputs.body(request, inputs.MAX_UPLOAD, inputs.BINARY)

        def work(session: Session) -> dict[str, Any]:
            # The whole name: the engine quotes a long one short.
            return self._start_replay(session, replays.from_npz(data, index, Rules.preset(rules), seed))

        return await self._do(request, True, work, replays.EXPANDING)

    async def replay_step(self, request: Request) -> Response:
        raw = request.path_params["step"]
        if raw in _POST_REPLAYS:  # a GET of a POST route this one's pattern also matches
            raise HTTPException(405, headers={"Allow": "POST"})
        if not inputs.digits(raw):
            raise ApiError(400, "the step must be a whole number")

        def work(session: Session) -> dict[str, Any]:
            if session.replay is None:
                raise ApiError(404, _NO_REPLAY)
            if len(raw.lstrip("0")) > 9:  # past any replay, and never made an int
                raise ApiError(404, f"step {raw[:20]}{'...' if len(raw) > 20 else ''} is out of range: this game has "
                                    f"steps 0 to {session.replay.steps}")
            return self._replay_state(session.replay, inputs.whole(raw, "step"))

        return await self._do(request, False, work, missing=_NO_REPLAY)


def _route(path: str, endpoint: Callable[[Request], Awaitable[Response]], method: str = "GET",
           query: tuple[str, ...] | None = ()) -> Route:
    """A route whose query string may hold the parameters ``query`` alone (None: a page, any);
    a GET route takes no body (400: what it says would go unread)."""

    async def checked(request: Request) -> Response:
        if query is not None:
            inputs.check_query(request, query)
        if method == "GET":
            await inputs.no_body(request)
        return await endpoint(request)

    return Route(path, checked, methods=[method])


def _hint(game: Game) -> dict[str, str]:
    """What the default bot would play for you: the action's text and its label."""
    hint = choose_action(game, players.DEFAULT, 0)
    return {"text": hint.text(game.rules), "label": views.action_label(hint, game.rules)}


def create_app(store: SessionStore | None = None, hosts: Iterable[str] = LOOPBACK_NAMES) -> Starlette:
    """The app, its sessions in ``store`` (a fresh bounded one by default), answering the
    Host names ``hosts`` (this machine's localhost names by default; :func:`.guard.allowed_hosts`;
    TypeError for a str or an item that is none, ValueError for a name no browser's Host
    header gives)."""
    api = _Api(store if store is not None else SessionStore())
    routes = [
        _route("/", api.index, query=None),
        _route("/static/{name}", api.static, query=None),
        _route("/api/options", api.options),
        _route("/api/new", api.new, "POST"),
        _route("/api/state", api.state, query=("resume",)),
        _route("/api/play", api.play, "POST"),
        _route("/api/undo", api.undo, "POST"),
        _route("/api/legal", api.legal, query=("cards", "at", "hand_id")),
        _route("/api/hint", api.hint, query=("at", "hand_id")),
        _route("/api/watch", api.watch, "POST"),
        _route("/api/replay/record", api.replay_record, "POST"),
        _route("/api/replay/npz", api.replay_npz, "POST", query=("game", "seed", "rules")),
        _route("/api/replay/{step}", api.replay_step),
    ]
    app = Starlette(routes=routes, exception_handlers={ApiError: _api_error, HTTPException: _http_error})
    app.router.redirect_slashes = False  # /api/options/ is no route: a JSON 404, not an empty 307
    # Read as the app is made: the Guard is made at the first request, where a refusal of
    # a name would be each request's 500.
    app.add_middleware(Guard, hosts=answered_names(hosts, "hosts"), headers=_HEADERS)
    return app


__all__ = ["create_app"]
