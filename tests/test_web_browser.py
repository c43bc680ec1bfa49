"""The web app in a real browser: Debian's headless Chromium, driven by Selenium through
Debian's chromedriver, against a uvicorn server on 127.0.0.1 (no other network traffic,
no browser download), at a desktop's size and a phone's. Cards are clicked where a person
clicks them, on the corner each leaves visible. Skipped, saying why, where Selenium,
Chromium or chromedriver is missing.

With ``DOUDIZHU_SCREENSHOTS`` naming a folder, the whole hand played by clicking saves the
finished table there at each size (docs/images/ holds the ones the guide shows)."""

from __future__ import annotations

import json
import os
import pathlib
import re
import shutil
import socket
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from helpers import sixty_four_fold

import doudizhu as dz

pytest.importorskip("starlette", reason="the [web] extra (starlette) is not installed")
uvicorn = pytest.importorskip("uvicorn", reason="the [web] extra (uvicorn) is not installed")
webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed")

from selenium.common.exceptions import StaleElementReferenceException, WebDriverException  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.remote.webdriver import WebDriver  # noqa: E402
from selenium.webdriver.remote.webelement import WebElement  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

from doudizhu.web import create_app, views  # noqa: E402

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
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})  # the console, for errors
    try:  # the driver's path given: Selenium Manager never looks for (or downloads) one
        driver = webdriver.Chrome(service=webdriver.ChromeService(executable_path=CHROMEDRIVER), options=options)
    except WebDriverException as error:
        pytest.skip(f"headless Chromium does not start here: {error.msg}")
    yield driver
    driver.quit()


SIZES = {"desktop": (1280, 720), "phone": (390, 844)}


@pytest.fixture(params=list(SIZES))
def size(request: pytest.FixtureRequest) -> str:
    name: str = request.param
    return name


def open_page(browser: WebDriver, base_url: str, size: str) -> WebDriver:
    """The page at a viewport of exactly that size (a phone's: touch, as a phone has)."""
    width, height = SIZES[size]
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": size == "phone"})
    browser.delete_all_cookies()
    browser.get(base_url + "/")
    wait(browser, lambda b: b.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "true")
    return browser


@pytest.fixture
def page(browser: WebDriver, base_url: str) -> WebDriver:
    return open_page(browser, base_url, "desktop")


@pytest.fixture
def sized_page(browser: WebDriver, base_url: str, size: str) -> WebDriver:
    return open_page(browser, base_url, size)


def wait(browser: WebDriver, condition: Callable[[WebDriver], Any], timeout: float = 10) -> Any:
    # The page redraws the table as replies come: an element read as it goes is read again.
    return WebDriverWait(browser, timeout, poll_frequency=0.02,
                         ignored_exceptions=(StaleElementReferenceException,)).until(condition)


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


def tap(browser: WebDriver, card: WebElement) -> None:
    """Clicks a card on its visible corner (the next card covers the rest of it)."""
    offset = -card.rect["width"] / 2 + 8
    ActionChains(browser).move_to_element_with_offset(card, int(offset), 0).click().perform()


def click_cards(browser: WebDriver, cards: str) -> None:
    """Selects ``cards`` by clicking them in the hand, one card element for each."""
    wanted = list(cards)
    for card, rank in zip(hand(browser), ranks(browser, "#hand g.card")):
        if rank in wanted:
            tap(browser, card)
            wanted.remove(rank)
    assert not wanted, f"{cards} are not all in the hand {hand_text(browser)}"
    assert len(browser.find_elements(By.CSS_SELECTOR, "#hand g.card.selected")) == len(cards)


def choose(browser: WebDriver, select_id: str, value: str) -> None:
    browser.find_element(By.CSS_SELECTOR, f"#{select_id} option[value='{value}']").click()


def start_hand(browser: WebDriver, seed: int | str, bots: str = "heuristic", rules: str = "standard",
               pace: str = "0") -> None:
    choose(browser, "rules", rules)
    browser.find_element(By.ID, "seed").send_keys(str(seed))
    for select in browser.find_elements(By.CSS_SELECTOR, "#bot-choices select"):
        select.find_element(By.CSS_SELECTOR, f"option[value='{bots}']").click()
    choose(browser, "pace", pace)
    browser.find_element(By.ID, "new").click()
    wait(browser, lambda b: f"seed {seed}" in text_of(b, "message"))


def fits_the_width(browser: WebDriver) -> bool:
    """No sideways scroll: the page is no wider than the viewport."""
    script = "return document.documentElement.scrollWidth <= document.documentElement.clientWidth;"
    return bool(browser.execute_script(script))


def every_card_can_be_tapped(browser: WebDriver) -> bool:
    """Each card of the hand is what a tap on its corner reaches, and lies within the viewport."""
    script = """
        return [...document.querySelectorAll('#hand g.card')].every((g) => {
          const box = g.getBoundingClientRect();
          const hit = document.elementFromPoint(box.left + 8, box.top + box.height / 2);
          return hit !== null && hit.closest('g.card') === g && box.right <= window.innerWidth;
        });"""
    return bool(browser.execute_script(script))


def spot_text(browser: WebDriver, seat: int) -> str:
    """What the page shows in front of a seat: its cards' ranks low to high (they are drawn
    main part first), or what it said."""
    spot = "#my-spot" if seat == 0 else f"#opponents .seat[data-seat='{seat}'] .spot"
    cards = "".join(sorted(ranks(browser, f"{spot} g.card"), key="3456789TJQKA2BR".index))
    return cards or browser.find_element(By.CSS_SELECTOR, spot).text


def shown_as_latest(latest: dict[str, Any] | None) -> str:
    if latest is None:
        return ""
    if latest["svg"]:
        return re.split("[=/]", latest["text"])[0]  # the cards spent: the text up to a reading
    return "Pass" if latest["kind"] == "pass" else latest["label"]


def test_play_a_whole_hand_by_clicking(sized_page: WebDriver, size: str) -> None:
    page = sized_page
    start_hand(page, seed=42, bots="random", pace="step")
    assert hand_text(page) == str(dz.Game(seed=42).hand(0)) and fits_the_width(page)
    assert [" ".join(s.text.split()) for s in page.find_elements(By.CSS_SELECTOR, "#opponents .seat-label")] == [
        "seat 2 (random) bidding 17 cards", "seat 1 (random) bidding 17 cards"]  # before you on the left
    page.find_element(By.CSS_SELECTOR, "#choices button[data-action='bid 3']").click()
    wait(page, lambda b: "landlord" in text_of(b, "me-label") and len(hand(b)) == 20)
    assert len(page.find_elements(By.CSS_SELECTOR, "#kitty g.card")) == 3
    assert fits_the_width(page) and every_card_can_be_tapped(page)
    first = True
    for _ in range(60):
        if text_of(page, "result"):
            break
        moves = len(api_state(page)["log"])
        page.find_element(By.ID, "hint").click()
        wait(page, lambda b: b.find_elements(By.ID, "play-hint"))
        hint = page.find_element(By.ID, "play-hint").get_attribute("data-action")
        page.find_element(By.ID, "clear").click()  # the hint selected its cards: select them by hand instead
        assert text_of(page, "message") == ""
        if hint == "pass":
            page.find_element(By.ID, "pass").click()
        else:
            click_cards(page, hint)
            page.find_element(By.ID, "play").click()
        if first:  # the replies one at a time: your play, then each bot's as you step on
            wait(page, lambda b: b.find_elements(By.ID, "next-reply"))
            assert spot_text(page, 0) == hint and page.find_element(By.ID, "play").get_attribute("disabled")
            while page.find_elements(By.ID, "next-reply"):
                page.find_element(By.ID, "next-reply").click()
            choose(page, "pace", "0")
            first = False
        wait(page, lambda b, moves=moves: len(api_state(b)["log"]) > moves and not b.find_elements(By.ID, "next-reply"))
        state = api_state(page)
        if state["phase"] != "over":  # after the bots answer, each seat's latest action in front of it
            wait(page, lambda b, state=state: all(spot_text(b, seat["seat"]) == shown_as_latest(seat["latest"])
                                                  for seat in state["seats"]))
    state = api_state(page)
    assert state["phase"] == "over" and "Payouts" in text_of(page, "result") and fits_the_width(page)
    game = dz.Game(seed=42)
    for entry in state["log"]:
        game.step(entry["text"])
    assert game.result is not None and state["result"]["payouts"] == list(game.result.payouts)
    assert ("landlord wins" in text_of(page, "result")) == game.result.landlord_won
    folder = os.environ.get("DOUDIZHU_SCREENSHOTS")
    if folder:
        page.execute_script("window.scrollTo(0, document.getElementById('table').offsetTop - 8);")
        page.save_screenshot(str(pathlib.Path(folder) / f"table-{size}.png"))
    # Every hand shown, undo ends with the hand; the seed deals it again.
    assert page.find_element(By.ID, "undo").get_attribute("disabled")
    assert "Seed 42 deals this hand again." in text_of(page, "result")


def test_the_persons_own_seat_is_framed_on_its_turn(page: WebDriver) -> None:
    # Bot seats were framed on their turn and the person's never: on a phone the status
    # line saying "your turn" had scrolled out of view.
    start_hand(page, seed=42)
    wait(page, lambda b: b.find_elements(By.CSS_SELECTOR, "#choices button[data-action='bid 3']"))
    assert "to-move" in page.find_element(By.CSS_SELECTOR, ".me").get_attribute("class")
    page.find_element(By.CSS_SELECTOR, "#choices button[data-action='bid 3']").click()
    wait(page, lambda b: len(hand(b)) == 20)
    assert "to-move" in page.find_element(By.CSS_SELECTOR, ".me").get_attribute("class")
    # The log's numbers sit inside their column: outside it they fell on the column before.
    assert page.execute_script("return getComputedStyle(document.querySelector('.log')).listStylePosition") == "inside"


def test_an_illegal_selection_is_explained_and_cleared(page: WebDriver) -> None:
    start_hand(page, seed=42)
    page.find_element(By.CSS_SELECTOR, "#choices button[data-action='bid 3']").click()
    wait(page, lambda b: len(hand(b)) == 20)
    page.find_element(By.ID, "play").click()
    wait(page, lambda b: "Select cards first" in text_of(b, "message"))
    click_cards(page, "34")
    page.find_element(By.ID, "play").click()
    wait(page, lambda b: "Not allowed" in text_of(b, "message"))
    assert "'34' is no legal combination here" in text_of(page, "message")  # as typed: the person's input
    assert len(hand(page)) == 20 and api_state(page)["log"] == [{"seat": 0, "text": "bid 3", "label": "bid 3"}]
    page.find_element(By.ID, "clear").click()
    assert text_of(page, "message") == "" and not page.find_elements(By.CSS_SELECTOR, "#hand g.card.selected")
    page.find_element(By.ID, "show-legal").click()
    wait(page, lambda b: b.find_elements(By.CSS_SELECTOR, "#legal .legal-play"))
    script = "return [...document.querySelectorAll('#legal .legal-play')].map((b) => b.textContent);"
    listed = page.execute_script(script)
    game = dz.Game(seed=42)
    game.bid(3)
    assert listed == [views.action_label(action, game.rules) for action in game.legal_actions()]


def test_a_wild_play_is_chosen_by_its_reading(sized_page: WebDriver) -> None:
    page = sized_page
    start_hand(page, seed=0, rules="laizi")  # the Ks are wild, and you hold one
    assert ranks(page, "#hand g.card.wild") == ["K"] and "wild: the Ks" in text_of(page, "status")
    page.find_element(By.CSS_SELECTOR, "#choices button[data-action='bid 3']").click()
    wait(page, lambda b: len(hand(b)) == 20 and "landlord" in text_of(b, "me-label"))
    page.find_element(By.ID, "show-legal").click()  # 500 plays: in groups, opened one at a time
    wait(page, lambda b: "legal plays:" in text_of(b, "legal"))
    assert len(page.find_elements(By.CSS_SELECTOR, "#legal .legal-play")) == 0
    click_cards(page, "3K")
    page.find_element(By.ID, "show-legal").click()  # only what the selected cards can make
    wait(page, lambda b: "plays with the selected cards" in text_of(b, "legal"))
    page.find_element(By.ID, "play").click()
    wait(page, lambda b: b.find_elements(By.CSS_SELECTOR, "#message .reading"))
    readings = page.find_elements(By.CSS_SELECTOR, "#message .reading")
    assert [r.text for r in readings] == ["3 K as 3 3 (pair)"] and fits_the_width(page)
    assert text_of(page, "message").startswith("Play 3 K as:")
    readings[0].click()
    wait(page, lambda b: api_state(b)["log"][1]["text"] == "3K=33")
    wait(page, lambda b: "3 K as 3 3" in b.find_element(By.ID, "my-spot").text)
    assert ranks(page, "#my-spot g.card.wild") == ["K"]


def test_play_at_the_keyboard(page: WebDriver) -> None:
    start_hand(page, seed=42)
    body = page.find_element(By.TAG_NAME, "body")
    body.send_keys("3")  # bidding: a digit bids
    wait(page, lambda b: len(hand(b)) == 20)
    body.send_keys("h")
    wait(page, lambda b: b.find_elements(By.ID, "play-hint"))
    hint = page.find_element(By.ID, "play-hint").get_attribute("data-action")
    body.send_keys(Keys.ESCAPE)
    assert not page.find_elements(By.CSS_SELECTOR, "#hand g.card.selected")
    body.send_keys("".join("0" if rank == "T" else rank.lower() for rank in hint))
    assert "".join(ranks(page, "#hand g.card.selected")) == hint
    body.send_keys(Keys.ENTER)
    wait(page, lambda b: len(api_state(b)["log"]) > 2)
    assert api_state(page)["log"][1] == {"seat": 0, "text": hint, "label": " ".join(hint).replace("T", "10")}
    body.send_keys("u")
    wait(page, lambda b: len(api_state(b)["log"]) == 1)


def in_view(browser: WebDriver, element_id: str) -> bool:
    """The element lies wholly within the viewport as it is scrolled (to a pixel: boxes
    fall on fractions of one)."""
    script = """const box = document.getElementById(arguments[0]).getBoundingClientRect();
                return box.top >= -1 && box.bottom <= window.innerHeight + 1;"""
    return bool(browser.execute_script(script, element_id))


def test_a_phone_brings_your_buttons_and_then_the_result_into_view(browser: WebDriver, base_url: str) -> None:
    # At 360x640 the bid buttons lay 300 px below the screen when a hand began, unscrolled.
    page = open_page(browser, base_url, "phone")
    page.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                         {"width": 360, "height": 640, "deviceScaleFactor": 1, "mobile": True})
    start_hand(page, seed=1)
    wait(page, lambda b: in_view(b, "choices") and in_view(b, "pass"))
    page.find_element(By.CSS_SELECTOR, "#choices button[data-action='bid 3']").click()
    wait(page, lambda b: len(hand(b)) == 20 and in_view(b, "play"))
    while not text_of(page, "result"):
        page.find_element(By.ID, "hint").click()
        wait(page, lambda b: b.find_elements(By.ID, "play-hint"))
        moves = len(api_state(page)["log"])
        page.find_element(By.ID, "play-hint").click()
        wait(page, lambda b, moves=moves: len(api_state(b)["log"]) > moves)
    wait(page, lambda b: in_view(b, "result"))


def test_a_phone_needs_no_sideways_scroll_for_four_seats_or_the_replay_forms(browser: WebDriver,
                                                                              base_url: str) -> None:
    page = open_page(browser, base_url, "phone")
    page.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                         {"width": 360, "height": 640, "deviceScaleFactor": 1, "mobile": True})
    start_hand(page, seed=3, bots="fast_heuristic", rules="four_partner")  # "seat 1 (fast_heuristic)" ran over
    assert fits_the_width(page)
    page.find_element(By.ID, "tab-replay").click()  # the record's text area made the page 388 px wide
    assert fits_the_width(page)


def test_a_new_hand_dealt_while_replies_are_shown_is_the_one_drawn(page: WebDriver) -> None:
    # The replies of the hand before went on drawing it over the new one, whose first action
    # was then refused as if another tab had dealt it.
    start_hand(page, seed=1)
    page.find_element(By.CSS_SELECTOR, "#choices button[data-action='bid 3']").click()
    wait(page, lambda b: len(hand(b)) == 20)
    choose(page, "pace", "1800")
    page.find_element(By.ID, "hint").click()
    wait(page, lambda b: b.find_elements(By.ID, "play-hint"))
    page.find_element(By.ID, "play-hint").click()
    wait(page, lambda b: len(hand(b)) < 20)  # your play shown, the bots' replies 1.8 s apart
    choose(page, "pace", "0")
    page.find_element(By.ID, "seed").clear()
    page.find_element(By.ID, "seed").send_keys("7")
    page.find_element(By.ID, "new").click()
    wait(page, lambda b: "seed 7" in text_of(b, "message") and hand_text(b) == str(dz.Game(seed=7).hand(0)))
    time.sleep(4)  # past the replies the hand before had left to show
    assert hand_text(page) == str(dz.Game(seed=7).hand(0)) and "bidding" in text_of(page, "status")
    page.find_element(By.CSS_SELECTOR, "#choices button[data-action='bid 3']").click()
    wait(page, lambda b: len(api_state(b)["log"]) >= 1 and len(hand(b)) == 20)
    assert "Not allowed" not in text_of(page, "message") and "reload" not in text_of(page, "message")


def test_the_keys_play_after_a_deal_typed_at_the_keyboard_and_name_a_partner(page: WebDriver) -> None:
    choose(page, "rules", "four_partner")
    choose(page, "pace", "0")
    seed = page.find_element(By.ID, "seed")
    seed.send_keys("4", Keys.ENTER)  # the deal asked from the seed field: the focus left there took the keys
    wait(page, lambda b: "seed 4" in text_of(b, "message"))
    body = page.find_element(By.TAG_NAME, "body")
    body.send_keys("3")
    wait(page, lambda b: api_state(b)["phase"] != "bidding")
    assert seed.get_attribute("value") == "4"
    assert api_state(page)["phase"] == "partner"  # you bid 3 and won the auction: a digit names your partner
    body.send_keys("2")
    wait(page, lambda b: api_state(b)["phase"] == "playing")
    assert [entry["text"] for entry in api_state(page)["log"]][-1] == "partner 2"


def test_a_redeal_is_said(page: WebDriver) -> None:
    start_hand(page, seed=5)  # nobody bids on this deal: it is dealt again
    before = hand_text(page)
    page.find_element(By.CSS_SELECTOR, "#choices button[data-action='bid 0']").click()
    wait(page, lambda b: text_of(b, "message") == "Nobody bid: the cards were dealt again.")
    assert "redealt 1" in text_of(page, "status") and hand_text(page) != before


def test_a_seed_up_to_2_64_minus_1_starts_that_deal(page: WebDriver) -> None:
    for seed in (2**64 - 1, 2**53 + 1):
        start_hand(page, seed=seed)
        assert hand_text(page) == str(dz.Game(seed=seed).hand(0))
        page.find_element(By.ID, "seed").clear()


def test_a_refused_first_deal_says_why_beside_the_form(page: WebDriver) -> None:
    # The refusal went to the table's message line, hidden until a hand is drawn: the
    # click showed nothing at all.
    page.find_element(By.ID, "seed").send_keys(str(2**64))
    page.find_element(By.ID, "new").click()
    wait(page, lambda b: "seed must be in 0..2**64-1" in text_of(b, "setup-message"))
    assert not page.find_element(By.ID, "table").is_displayed()
    page.find_element(By.ID, "seed").clear()
    start_hand(page, seed=3)
    assert text_of(page, "setup-message") == ""


def test_the_networks_choices_are_shown_in_watched_hands_not_beside_your_hidden_opponents(page: WebDriver) -> None:
    # In a hand of yours they told what an opponent's face-down hand still held.
    start_hand(page, seed=5, bots="neural")
    page.find_element(By.CSS_SELECTOR, "#choices button[data-action='bid 3']").click()
    wait(page, lambda b: len(hand(b)) == 20)
    click_cards(page, str(dz.Game(seed=5).hand(0))[0])
    page.find_element(By.ID, "play").click()
    wait(page, lambda b: len(hand(b)) == 19 and "your turn" in text_of(b, "status"))
    assert all(seat["latest"] is not None for seat in api_state(page)["seats"][1:])  # both replied
    assert not page.find_elements(By.CSS_SELECTOR, "#opponents .thinking li")
    page.find_element(By.ID, "tab-replay").click()
    for select in page.find_elements(By.CSS_SELECTOR, "#watch-bots select"):
        select.find_element(By.CSS_SELECTOR, "option[value='neural']").click()
    page.find_element(By.ID, "watch-seed").send_keys("3")
    page.find_element(By.ID, "watch").click()
    wait(page, lambda b: "step 0 of" in text_of(b, "step-label"))
    for step in range(1, 7):
        page.find_element(By.ID, "forward").click()
        wait(page, lambda b, step=step: f"step {step} of" in text_of(b, "step-label"))
    script = "const done = arguments[0]; fetch('/api/replay/6').then((r) => r.json()).then(done);"
    state = page.execute_async_script(script)
    shown = [seat for seat in state["seats"] if seat["latest"] and seat["latest"]["thinking"]]
    assert shown  # every hand of a watched one is face up
    for seat in shown:
        items = page.find_elements(By.CSS_SELECTOR, f"#replay-seats .seat[data-seat='{seat['seat']}'] .thinking li")
        assert [i.text for i in items] == [f"{c['label']} {c['value']:+.3f}" for c in seat["latest"]["thinking"]]


def test_a_double_click_is_one_action(page: WebDriver) -> None:
    # At once pace a double click on Pass passed twice (the second in the next trick): the
    # page took the second click while the first was on its way, and the server played
    # whatever it was sent.
    start_hand(page, seed=1)  # seat 2 wins the auction and leads 3334
    page.find_element(By.CSS_SELECTOR, "#choices button[data-action='bid 0']").click()
    wait(page, lambda b: api_state(b)["phase"] == "playing"
         and not b.find_element(By.ID, "pass").get_attribute("disabled"))
    before = len(api_state(page)["log"])
    ActionChains(page).double_click(page.find_element(By.ID, "pass")).perform()
    wait(page, lambda b: len(api_state(b)["log"]) > before)
    time.sleep(0.3)  # room for a second action, were one sent
    log = api_state(page)["log"][before:]
    assert [entry["text"] for entry in log if entry["seat"] == 0] == ["pass"]


def test_a_double_press_of_undo_takes_back_one_action(page: WebDriver) -> None:
    # Two undos sent at once on one state took back two turns: the page sent the second
    # while the first was on its way, and the server undid whatever it was asked to.
    mine = act_twice(page)
    ActionChains(page).double_click(page.find_element(By.ID, "undo")).perform()
    wait(page, lambda b: len(api_state(b)["log"]) == mine[1])
    time.sleep(0.3)  # room for a second undo, were one taken
    assert len(api_state(page)["log"]) == mine[1]  # the first action of seat 0 stands


def test_a_double_clicks_second_click_after_the_answer_does_nothing(page: WebDriver) -> None:
    # A loaded machine answered the first click of a double click on Undo before the browser
    # delivered the second, which then took back a second turn (seen on CI).
    mine = act_twice(page)
    click = "arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true, detail: arguments[1]}));"
    undo = page.find_element(By.ID, "undo")
    page.execute_script(click, undo, 1)
    wait(page, lambda b: text_of(b, "message") == "Undone.")  # the first click's answer is in
    assert len(api_state(page)["log"]) == mine[1]
    page.execute_script(click, undo, 2)
    time.sleep(0.3)  # room for a second undo, were one taken
    assert len(api_state(page)["log"]) == mine[1]


def act_twice(page: WebDriver) -> list[int]:
    """Seat 0 bids and plays the hint (seed 42): the places of its two actions in the log."""
    start_hand(page, seed=42)
    body = page.find_element(By.TAG_NAME, "body")
    body.send_keys("1")  # a bid the bots answer
    wait(page, lambda b: len(api_state(b)["log"]) >= 1 and not b.find_element(By.ID, "undo").get_attribute("disabled"))
    body.send_keys("h")
    wait(page, lambda b: b.find_elements(By.ID, "play-hint") or api_state(b)["phase"] != "playing")
    if page.find_elements(By.ID, "play-hint"):
        page.find_element(By.ID, "play-hint").click()
    wait(page, lambda b: sum(entry["seat"] == 0 for entry in api_state(b)["log"]) == 2
         and not b.find_element(By.ID, "undo").get_attribute("disabled"))
    return [i for i, entry in enumerate(api_state(page)["log"]) if entry["seat"] == 0]


def test_two_quick_clicks_on_next_reply_step_two_frames(page: WebDriver) -> None:
    # The double-click guard took the second of two quick "Next reply" clicks (detail 2)
    # for a repeated action: stepping through replies, it showed one frame for two clicks.
    start_hand(page, seed=42, bots="random", pace="step")
    page.find_element(By.CSS_SELECTOR, "#choices button[data-action='bid 1']").click()
    click = "arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true, detail: arguments[1]}));"
    first = wait(page, lambda b: b.find_elements(By.ID, "next-reply"))[0]
    page.execute_script(click, first, 1)
    second = wait(page, lambda b: [n for n in b.find_elements(By.ID, "next-reply") if n != first])[0]
    page.execute_script(click, second, 2)
    wait(page, lambda b: all(n not in (first, second) for n in b.find_elements(By.ID, "next-reply")))  # stepped on


def test_a_watched_hand_autoplays_to_the_end(sized_page: WebDriver) -> None:
    page = sized_page
    page.find_element(By.ID, "tab-replay").click()
    page.find_element(By.ID, "watch-seed").send_keys("3")
    page.find_element(By.ID, "watch").click()
    wait(page, lambda b: "step 0 of" in text_of(b, "step-label"))
    steps = int(text_of(page, "step-label").split(" of ")[1])
    choose(page, "speed", "250")
    page.find_element(By.ID, "autoplay").click()
    wait(page, lambda b: text_of(b, "autoplay") == "Pause")
    wait(page, lambda b: f"step {steps} of {steps}" in text_of(b, "step-label"), timeout=60)
    wait(page, lambda b: text_of(b, "autoplay") == "Play")
    assert "Payouts" in text_of(page, "replay-result") and fits_the_width(page)
    where = step_buttons(page)
    page.find_element(By.ID, "back").click()  # the step buttons stay put as the step label changes
    wait(page, lambda b: f"step {steps - 1} of {steps}" in text_of(b, "step-label"))
    assert step_buttons(page) == where


def step_buttons(page: WebDriver) -> list[tuple[float, float, float]]:
    return [(r["x"], r["y"], r["width"]) for r in (page.find_element(By.ID, name).rect
                                                   for name in ("first", "back", "autoplay", "forward", "end"))]


def _open_replay(page: WebDriver, record: dict[str, Any]) -> None:
    page.find_element(By.ID, "tab-replay").click()
    box = page.find_element(By.ID, "record-text")
    page.execute_script("arguments[0].value = arguments[1];", box, json.dumps(record))  # typing it would take long
    page.find_element(By.ID, "open-record").click()


def _seat_cards(page: WebDriver) -> list[str]:
    seats = len(page.find_elements(By.CSS_SELECTOR, "#replay-seats .seat"))
    return ["".join(ranks(page, f"#replay-seats .seat[data-seat='{seat}'] .hand g.card")) for seat in range(seats)]


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


def test_keys_play_after_a_mouse_click(page: WebDriver) -> None:
    # A clicked button kept the focus: a digit then bid nothing, and Enter pressed the
    # button again (New hand dealt anew; Pass passed where the selection was to be played).
    start_hand(page, seed=42)  # New hand clicked with the mouse
    ActionChains(page).send_keys("3").perform()
    wait(page, lambda b: len(hand(b)) == 20)
    page.find_element(By.ID, "hint").click()
    wait(page, lambda b: b.find_elements(By.ID, "play-hint"))
    hint = page.find_element(By.ID, "play-hint").get_attribute("data-action")
    ActionChains(page).send_keys(Keys.ENTER).perform()  # plays the hint's selected cards
    wait(page, lambda b: len(api_state(b)["log"]) > 1)
    assert api_state(page)["log"][:2] == [{"seat": 0, "text": "bid 3", "label": "bid 3"},
                                          {"seat": 0, "text": hint, "label": " ".join(hint).replace("T", "10")}]


def test_a_reload_shows_the_hand_and_an_older_tab_catches_up(page: WebDriver) -> None:
    start_hand(page, seed=7)
    page.refresh()
    wait(page, lambda b: b.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "true")
    assert page.find_element(By.ID, "table").is_displayed() and hand_text(page) == str(dz.Game(seed=7).hand(0))
    # Another tab of this session deals seed 8: this page's bid is refused, and it shows seed 8.
    dealt = page.execute_async_script(
        "const done = arguments[0]; fetch('/api/new', {method: 'POST', headers: {'Content-Type': 'application/json'}, "
        "body: JSON.stringify({seed: 8})}).then((r) => r.json()).then(done);")
    page.find_element(By.CSS_SELECTOR, "#choices button[data-action='bid 3']").click()
    wait(page, lambda b: "a new hand was dealt" in text_of(b, "message"))
    wait(page, lambda b: hand_text(b) == str(dz.Game(seed=8).hand(0)))
    assert api_state(page)["log"] == dealt["log"]  # the bid was not played on the new hand
    # A hint asked on the state a page shows: another tab's play moves the hand on, and the
    # hint (which offered "pass" on this page's lead) catches the page up instead.
    page.find_element(By.CSS_SELECTOR, "#choices button[data-action='bid 3']").click()
    wait(page, lambda b: api_state(b)["phase"] == "playing")
    page.execute_async_script(
        "const done = arguments[0]; fetch('/api/play', {method: 'POST', headers: {'Content-Type': 'application/json'}, "
        "body: JSON.stringify({action: '" + str(dz.Game(seed=8).hand(0))[0] + "'})}).then(done);")
    page.find_element(By.ID, "hint").click()
    wait(page, lambda b: "the hand has moved on" in text_of(b, "message"))
    wait(page, lambda b: len(b.find_elements(By.CSS_SELECTOR, "#log li")) == len(api_state(b)["log"]))
    # Without a session (a restarted server) both questions say so, where they showed nothing.
    page.delete_all_cookies()
    for button in ("hint", "show-legal"):
        page.find_element(By.ID, button).click()
        wait(page, lambda b: "no game in this session" in text_of(b, "message"))
        page.execute_script("document.getElementById('message').textContent = ''")


TIMES = "\N{MULTIPLICATION SIGN}"


def test_the_status_at_the_end_says_the_settled_stake(page: WebDriver) -> None:
    # A spring doubles at the end: the status said base 3 TIMES 1 beside a result of base 3
    # TIMES 2 (spring).
    page.find_element(By.ID, "tab-replay").click()
    for seat, bot in enumerate(("heuristic", "random", "random")):
        choose(page, f"watch-bots-{seat}", bot)
    page.find_element(By.ID, "watch-seed").send_keys("195")
    page.find_element(By.ID, "watch").click()
    wait(page, lambda b: "step 0 of" in text_of(b, "step-label"))
    page.find_element(By.ID, "end").click()
    wait(page, lambda b: "Payouts" in text_of(b, "replay-result"))
    settled = re.search(rf"base (\d+) {TIMES} (\d+) \(spring\)", text_of(page, "replay-result"))
    assert settled, text_of(page, "replay-result")
    assert f"stake: base {settled.group(1)} {TIMES} {settled.group(2)} \N{MIDDLE DOT}" in text_of(page, "replay-status")


def test_the_status_and_badges_say_where_a_call_and_rob_or_a_void_hand_stands(page: WebDriver) -> None:
    # The status read 'high bid: none yet' after a call and two robs, and 'base 0 x 1' for a
    # void hand; a void hand's 'no landlord' badge took the landlord's colour.
    robbed = dz.Game(seed=5, rules=dz.Rules(bidding="call_rob", call_base=3))
    for word in ("call", "rob", "rob"):
        robbed.step(word)
    _open_replay(page, robbed.to_record())
    page.find_element(By.ID, "end").click()
    wait(page, lambda b: "bidding \N{MIDDLE DOT} stake 12 so far" in text_of(b, "replay-status"))
    void = dz.Game(seed=0, rules=dz.Rules(max_redeals=0, redeal_when_nobody_bids=False))
    for _ in range(3):
        void.step("bid 0")
    assert void.phase == "over" and void.landlord is None
    _open_replay(page, void.to_record())
    page.find_element(By.ID, "end").click()
    wait(page, lambda b: "over \N{MIDDLE DOT} no stake: the hand is void" in text_of(b, "replay-status"))
    badges = page.find_elements(By.CSS_SELECTOR, "#replay-seats .role")
    assert [badge.get_attribute("class") for badge in badges] == ["role no-landlord"] * 3
    capped = sixty_four_fold(dz.Rules(max_multiplier=8))
    _open_replay(page, capped.to_record())
    page.find_element(By.ID, "end").click()
    wait(page, lambda b: f"base 1 {TIMES} 8 (spring, capped at 8)" in text_of(b, "replay-result"))


def test_the_console_shows_no_error_from_loading_to_a_hand_played(browser: WebDriver, base_url: str) -> None:
    # The first load asked for the state of a hand there was not yet, and Chrome reported
    # its 404 as a failed resource.
    browser.get_log("browser")  # what earlier tests left
    page = open_page(browser, base_url, "desktop")
    start_hand(page, seed=42)
    page.find_element(By.TAG_NAME, "body").send_keys("1")
    wait(page, lambda b: len(api_state(b)["log"]) >= 1)
    page.refresh()  # a hand to resume: the state is drawn again
    wait(page, lambda b: b.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "true"
         and not b.find_element(By.ID, "table").get_attribute("hidden"))
    errors = [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]
    assert errors == []
