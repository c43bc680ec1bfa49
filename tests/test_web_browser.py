"""The web app in a real browser: Debian's headless Chromium, driven by Selenium through
Debian's chromedriver, against a uvicorn server on 127.0.0.1 (no other network traffic,
no browser download). Skipped, saying why, where Selenium, Chromium or chromedriver is
missing."""

from __future__ import annotations

import json
import pathlib
import shutil
import socket
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import doudizhu as dz

pytest.importorskip("starlette", reason="the [web] extra (starlette) is not installed")
uvicorn = pytest.importorskip("uvicorn", reason="the [web] extra (uvicorn) is not installed")
webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed")

from selenium.common.exceptions import WebDriverException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.remote.webdriver import WebDriver  # noqa: E402
from selenium.webdriver.remote.webelement import WebElement  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

from doudizhu.web import create_app  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
if CHROMIUM is None or CHROMEDRIVER is None:
    pytest.skip("Debian's chromium and chromium-driver are not installed", allow_module_level=True)


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    """A uvicorn server in a thread, on a port of 127.0.0.1 bound before it starts."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(), log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)
    sock.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[WebDriver]:
    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1200,1000",
                     "--no-first-run", "--disable-extensions", "--disable-background-networking",
                     "--disable-component-update", "--disable-sync", "--metrics-recording-only",
                     "--disable-default-apps", "--disable-client-side-phishing-detection", "--no-pings"):
        options.add_argument(argument)
    assert CHROMIUM is not None and CHROMEDRIVER is not None
    options.binary_location = CHROMIUM
    try:  # the driver's path given: Selenium Manager never looks for (or downloads) one
        driver = webdriver.Chrome(service=webdriver.ChromeService(executable_path=CHROMEDRIVER), options=options)
    except WebDriverException as error:
        pytest.skip(f"headless Chromium does not start here: {error.msg}")
    yield driver
    driver.quit()


@pytest.fixture
def page(browser: WebDriver, base_url: str) -> WebDriver:
    browser.delete_all_cookies()
    browser.get(base_url + "/")
    wait(browser, lambda b: b.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "true")
    return browser


def wait(browser: WebDriver, condition: Callable[[WebDriver], Any], timeout: float = 10) -> Any:
    return WebDriverWait(browser, timeout, poll_frequency=0.02).until(condition)


def text_of(browser: WebDriver, element_id: str) -> str:
    return browser.find_element(By.ID, element_id).text


def hand(browser: WebDriver) -> list[WebElement]:
    return browser.find_elements(By.CSS_SELECTOR, "#hand g.card")


def ranks(browser: WebDriver, selector: str) -> list[str]:
    """The ranks of the cards ``selector`` finds, in one round trip (not one a card)."""
    script = "return [...document.querySelectorAll(arguments[0])].map((g) => g.dataset.rank || '');"
    found: list[str] = browser.execute_script(script, selector)
    return found


def hand_text(browser: WebDriver) -> str:
    return "".join(ranks(browser, "#hand g.card"))


def api_state(browser: WebDriver) -> dict[str, Any]:
    """The server's state of this browser's hand, fetched by the page (its session cookie)."""
    script = "const done = arguments[0]; fetch('/api/state').then((r) => r.json()).then(done);"
    state: dict[str, Any] = browser.execute_async_script(script)
    return state


def click_cards(browser: WebDriver, cards: str) -> None:
    """Selects ``cards`` by clicking them in the hand, one card element for each."""
    wanted = list(cards)
    for card, rank in zip(hand(browser), ranks(browser, "#hand g.card")):
        if rank in wanted:
            card.click()
            wanted.remove(rank)
    assert not wanted, f"{cards} are not all in the hand {hand_text(browser)}"
    assert len(browser.find_elements(By.CSS_SELECTOR, "#hand g.card.selected")) == len(cards)


def start_hand(browser: WebDriver, seed: int, bots: str = "heuristic") -> None:
    browser.find_element(By.ID, "seed").send_keys(str(seed))
    for select in browser.find_elements(By.CSS_SELECTOR, "#bot-choices select"):
        select.find_element(By.CSS_SELECTOR, f"option[value='{bots}']").click()
    browser.find_element(By.ID, "new").click()
    wait(browser, lambda b: f"seed {seed}" in text_of(b, "message"))


def test_play_a_whole_hand_by_clicking(page: WebDriver) -> None:
    start_hand(page, seed=42, bots="random")
    assert hand_text(page) == str(dz.Game(seed=42).hand(0))
    assert [" ".join(s.text.split()) for s in page.find_elements(By.CSS_SELECTOR, "#opponents .seat-label")] == [
        "seat 1 (random) bidding 17 cards", "seat 2 (random) bidding 17 cards"]
    page.find_element(By.CSS_SELECTOR, "#choices button[data-action='bid 3']").click()
    wait(page, lambda b: "landlord" in text_of(b, "me-label") and len(hand(b)) == 20)
    assert "kitty" in text_of(page, "kitty") and len(page.find_elements(By.CSS_SELECTOR, "#kitty g.card")) == 3
    for _ in range(60):
        if text_of(page, "result"):
            break
        moves = len(api_state(page)["log"])
        page.find_element(By.ID, "hint").click()
        wait(page, lambda b: b.find_elements(By.ID, "play-hint"))
        hint = page.find_element(By.ID, "play-hint").text
        page.find_element(By.ID, "clear").click()  # the hint selected its cards: select them by hand instead
        if hint == "pass":
            page.find_element(By.ID, "pass").click()
        else:
            click_cards(page, hint)
            page.find_element(By.ID, "play").click()
        wait(page, lambda b, moves=moves: len(api_state(b)["log"]) > moves)
    state = api_state(page)
    assert state["phase"] == "over" and "Payouts" in text_of(page, "result")
    game = dz.Game(seed=42)
    for entry in state["log"]:
        game.step(entry["text"])
    assert game.result is not None and state["result"]["payouts"] == list(game.result.payouts)
    assert ("landlord wins" in text_of(page, "result")) == game.result.landlord_won
    page.find_element(By.ID, "undo").click()  # back to your last turn of the hand
    wait(page, lambda b: not text_of(b, "result") and api_state(b)["phase"] == "playing")


def test_an_illegal_selection_is_explained_and_nothing_changes(page: WebDriver) -> None:
    start_hand(page, seed=42)
    page.find_element(By.CSS_SELECTOR, "#choices button[data-action='bid 3']").click()
    wait(page, lambda b: len(hand(b)) == 20)
    page.find_element(By.ID, "play").click()
    wait(page, lambda b: "Select cards first" in text_of(b, "message"))
    click_cards(page, "34")
    page.find_element(By.ID, "play").click()
    wait(page, lambda b: "Not allowed" in text_of(b, "message"))
    assert "'34' is no legal combination here" in text_of(page, "message")
    assert len(hand(page)) == 20 and api_state(page)["log"] == [{"seat": 0, "text": "bid 3"}]
    page.find_element(By.ID, "show-legal").click()
    wait(page, lambda b: b.find_elements(By.CSS_SELECTOR, "#legal .legal-play"))
    script = "return [...document.querySelectorAll('#legal .legal-play')].map((b) => b.textContent);"
    listed = page.execute_script(script)
    game = dz.Game(seed=42)
    game.bid(3)
    assert listed == [str(action) for action in game.legal_actions()]


def _open_replay(page: WebDriver, record: dict[str, Any]) -> None:
    page.find_element(By.ID, "tab-replay").click()
    box = page.find_element(By.ID, "record-text")
    page.execute_script("arguments[0].value = arguments[1];", box, json.dumps(record))  # typing it would take long
    page.find_element(By.ID, "open-record").click()


def _seat_cards(page: WebDriver) -> list[str]:
    seats = len(page.find_elements(By.CSS_SELECTOR, "#replay-seats .seat"))
    return ["".join(ranks(page, f"#replay-seats .seat[data-seat='{seat}'] g.card")) for seat in range(seats)]


def test_load_a_record_and_step_through_it(page: WebDriver) -> None:
    game = next(g for g in (dz.playout(dz.Game(seed=s), "heuristic", 1) for s in range(20, 60)) if g.redeals == 0)
    record = game.to_record()
    steps = len(record["actions"])

    def at(step: int) -> list[str]:
        return [str(h) for h in (lambda g: [g.hand(s) for s in range(3)])(
            dz.Game.from_record({**record, "actions": record["actions"][:step]}))]

    _open_replay(page, record)
    wait(page, lambda b: f"step 0 of {steps}" in text_of(b, "step-label"))
    assert _seat_cards(page) == at(0) and text_of(page, "next").startswith("next: seat 0")
    for step in (1, 2, 3):
        page.find_element(By.ID, "forward").click()
        wait(page, lambda b, step=step: f"step {step} of {steps}" in text_of(b, "step-label"))
    assert _seat_cards(page) == at(3)
    page.find_element(By.ID, "back").click()
    wait(page, lambda b: f"step 2 of {steps}" in text_of(b, "step-label"))
    assert _seat_cards(page) == at(2)
    page.find_element(By.ID, "end").click()
    wait(page, lambda b: f"step {steps} of {steps}" in text_of(b, "step-label"))
    assert game.result is not None and "Payouts" in text_of(page, "replay-result")
    assert _seat_cards(page) == at(steps) and page.find_element(By.ID, "forward").get_attribute("disabled")
    page.find_element(By.ID, "first").click()
    wait(page, lambda b: f"step 0 of {steps}" in text_of(b, "step-label"))


def test_a_bad_record_and_a_saved_selfplay_game(page: WebDriver, tmp_path: pathlib.Path) -> None:
    _open_replay(page, {"format": "doudizhu.record", "version": 1})
    wait(page, lambda b: "unsupported record version" in text_of(b, "replay-message"))
    result = dz.selfplay(5, policy="heuristic", seed=2, record=True)
    path = tmp_path / "games.npz"
    result.save(path)
    page.find_element(By.ID, "npz-file").send_keys(str(path))
    game = page.find_element(By.ID, "npz-game")
    game.clear()
    game.send_keys("4")
    page.find_element(By.ID, "npz-seed").send_keys("2")
    page.find_element(By.ID, "open-npz").click()
    wait(page, lambda b: text_of(b, "step-label").startswith("selfplay game 4: step 0 of"))
    page.find_element(By.ID, "end").click()
    wait(page, lambda b: "Payouts" in text_of(b, "replay-result"))
    payouts = ", ".join(f"seat {s}{' (landlord)' if s == result.landlord[4] else ''} {p:+d}"
                        for s, p in enumerate(result.payouts[4]))
    assert payouts.replace("+0", "0") in text_of(page, "replay-result")
