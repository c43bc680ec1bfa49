// The page: a card table over the JSON API (doudizhu/web/app.py). Every rule is the
// server's; this script only draws the states it answers and sends what was chosen.
"use strict";

const $ = (id) => document.getElementById(id);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
let options = null;

async function api(method, path, body, raw) {
  const init = { method, headers: {} };
  if (raw !== undefined) {
    init.body = raw;
    init.headers["Content-Type"] = "application/octet-stream";
  } else if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers["Content-Type"] = "application/json";
  }
  const response = await fetch(path, init);
  if (response.status === 204) return null;  // nothing to answer (no hand to resume)
  const data = await response.json();
  if (!response.ok) {
    const error = new Error(data.error || response.statusText);
    error.status = response.status;
    error.choices = data.choices || [];
    error.cards = data.cards;  // with choices: the cards they spend, as a person reads them
    throw error;
  }
  return data;
}

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function button(text, className, onClick) {
  const node = el("button", className, text);
  node.type = "button";
  node.addEventListener("click", onClick);
  return node;
}

// Card pictures come from the server's SVG renderer (one <g class="card"> per card).
function picture(svg, className) {
  const holder = el("div", className || "cards");
  holder.innerHTML = svg;
  return holder;
}

// A face-up hand: one picture a card, laid out (and wrapped) by the stylesheet.
function handOf(faces, mine) {
  const holder = el("div", "hand" + (mine ? " mine" : ""));
  holder.innerHTML = faces.join("");
  return holder;
}

function say(target, text, isError) {
  const box = $(target);
  box.replaceChildren();
  box.textContent = text || "";
  box.classList.toggle("error", Boolean(isError));
}

const kindName = (kind) => kind.replaceAll("_", " ");  // as render.kind_label writes it

// ------------------------------------------------------------------ shared drawing
function seatLabel(name, seat) {
  const label = el("div", "seat-label");
  // One class a role ("peasant or partner" is no peasant, nor the landlord's partner).
  label.append(el("span", "name", name), el("span", "role " + seat.role.replaceAll(" ", "-"), seat.role),
               el("span", "count", seat.count + (seat.count === 1 ? " card" : " cards")));
  return label;
}

// A seat's latest action, in front of it: its cards, or what it said ("Pass", "bid 2"),
// and where a network chose it, the network's top choices with their values.
function spot(latest, fresh) {
  const box = el("div", "spot" + (fresh ? " fresh" : ""));
  if (!latest) return box;
  if (latest.svg) {
    box.append(picture(latest.svg), el("div", "label", `${latest.label} (${kindName(latest.kind)})`));
  } else {
    box.append(el("span", "said", latest.kind === "pass" ? "Pass" : latest.label));
  }
  if (latest.thinking) {
    const list = el("ol", "thinking");
    list.title = "the network's top choices and their values";
    for (const choice of latest.thinking) {
      const item = el("li", "", choice.label + " ");
      item.append(el("span", "value", (choice.value > 0 ? "+" : "") + choice.value.toFixed(3)));
      list.append(item);
    }
    box.append(el("div", "caption", "network's view:"), list);
  }
  return box;
}

function seatBox(seat, fresh) {
  const box = el("div", "seat" + (seat.to_move ? " to-move" : ""));
  box.dataset.seat = seat.seat;
  box.append(seatLabel(seat.name, seat));
  box.append(seat.faces ? handOf(seat.faces, false) : picture(seat.svg, "backs"));
  box.append(spot(seat.latest, fresh === seat.seat));
  return box;
}

function stakeText(state) {
  let text;
  if (state.phase === "bidding" || (state.result && state.result.void)) {
    text = `${state.phase} · ${state.stake}`;  // "high bid 2", "stake 6 so far" (call and rob), a void hand's
  } else if (state.phase === "partner") {
    text = `base ${state.base} · the landlord plays alone or names a partner`;
  } else if (state.each_for_self) {
    text = `${state.phase} · ${state.stake} · ${state.bombs_text}`;
  } else {
    // Once over, the settlement's multiplier: a spring or a start bonus doubles it at the end.
    const multiplier = state.result ? state.result.multiplier : state.multiplier;
    text = `${state.phase} · stake: base ${state.base} × ${multiplier} · ${state.bombs_text}`;
  }
  if (state.wild) text += ` · wild: ${state.wild}`;  // "the 5s", or "the 5s and 9s"
  if (state.redeals) text += ` · redealt ${state.redeals}×`;
  return text;
}

function drawCentre(state, lastId, kittyId, name) {
  const last = $(lastId);
  if (state.last) last.textContent = `to beat: ${state.last.label} (${kindName(state.last.kind)}) by ${name(state.last.by)}`;
  else if (state.phase !== "playing") last.textContent = "";
  else if (state.lead_rank) last.textContent = `${name(state.to_move)} to lead: the first lead holds a ${state.lead_rank}`;
  else last.textContent = `${name(state.to_move)} to lead`;
  if (state.phase === "over") last.textContent = "";  // the result says how it ended
  const kitty = state.kitty;  // none under rules without one (sanren)
  const named = kitty.set_aside ? "set aside" : "kitty";  // Run Fast's cards left out of the deal
  $(kittyId).replaceChildren(...(kitty.size ? [el("div", "caption", kitty.face_up ? named : `${named} (face down)`),
                                               picture(kitty.svg)] : []));
}

function resultText(state, name) {
  const r = state.result;
  if (!r) return "";
  if (r.void) return "Nobody bid: the hand is void.";
  const payoutText = r.payouts.map((p, seat) => `${name(seat)} ${p > 0 ? "+" : ""}${p}`).join(", ");
  if (r.winner !== null) return `${name(r.winner)} went out first. Payouts: ${payoutText} (${r.scoring}).`;
  const extras = [];
  if (r.spring) extras.push("spring");
  if (r.anti_spring) extras.push("anti-spring");
  // Each kind of start bonus doubles once, whoever holds it (rules.md): one entry a kind.
  for (const kind of new Set(r.start_bonuses.map((bonus) => bonus.name))) {
    const holders = r.start_bonuses.filter((bonus) => bonus.name === kind).map((bonus) => name(bonus.seat));
    extras.push(`start bonus: ${kind} (${holders.join(" and ")})`);
  }
  if (r.capped) extras.push(`capped at ${r.multiplier}`);
  const landlordSide = r.partner === null ? "landlord wins" : `landlord and ${name(r.partner)} win`;
  return `The ${r.landlord_won ? landlordSide : "peasants win"}: base ${r.base} × ${r.multiplier}` +
         (extras.length ? ` (${extras.join(", ")})` : "") + `. Payouts: ${payoutText}.`;
}

// The other seats in table order: the one who plays before you on the left, after you on the right.
function othersInOrder(state, mine) {
  return state.seats.filter((s) => s.seat !== mine).sort((a, b) => b.seat - a.seat);
}

// ------------------------------------------------------------------ playing
let playState = null;
let replying = false;  // the bots' replies are being shown one at a time: no input meanwhile

function seatName(seat) {
  if (seat === null || seat === undefined) return "";
  return playState.seats[seat].name;
}

function handCards() {
  return [...document.querySelectorAll("#hand g.card")];
}

function selectedCards() {
  return handCards().filter((g) => g.classList.contains("selected")).map((g) => g.dataset.rank).join("");
}

function selectCards(text) {
  const wanted = [...text];
  for (const g of handCards()) {
    const i = wanted.indexOf(g.dataset.rank);
    g.classList.toggle("selected", i >= 0);
    if (i >= 0) wanted.splice(i, 1);
  }
}

// The element ``id`` made like ``model`` (its class and content), kept in place.
function refill(id, model, extraClass) {
  const target = $(id);
  target.className = model.className + (extraClass ? " " + extraClass : "");
  target.replaceChildren(...model.childNodes);
  return target;
}

// One frame of the table: the final state of a reply (with its buttons), or a position
// on the way to it (``busy``: the bots' replies are still being shown).
function drawPlay(state, busy, fresh) {
  playState = state;
  $("table").hidden = false;
  const me = state.seats[state.human];
  const over = state.phase === "over";
  $("opponents").replaceChildren(...othersInOrder(state, state.human).map((s) => seatBox(s, fresh)));
  $("status").textContent = stakeText(state) + (over || busy ? "" : " · your turn");
  drawCentre(state, "last", "kitty", seatName);
  refill("my-spot", spot(me.latest, fresh === state.human), "mine");
  refill("me-label", seatLabel("you", me));
  document.querySelector(".me").classList.toggle("to-move", !over && !busy);
  const hand = refill("hand", handOf(me.faces || [], !over && !busy));
  for (const g of hand.querySelectorAll("g.card")) {
    g.addEventListener("click", () => { if (!replying) g.classList.toggle("selected"); });
  }
  $("choices").replaceChildren(...(busy ? [] : state.choices).map((text) => {
    const choice = button(text, "choice", () => act(text));
    choice.dataset.action = text;
    return choice;
  }));
  $("play").disabled = busy || state.phase !== "playing";
  $("pass").disabled = busy || !state.can_pass;
  $("hint").disabled = $("show-legal").disabled = busy || over;
  $("undo").disabled = busy || !state.can_undo;
  $("legal").replaceChildren();
  // The seed of a deal the server drew comes once the hand is over (it tells every card).
  const again = over && state.seed !== null ? ` Seed ${state.seed} deals this hand again.` : "";
  $("result").textContent = resultText(state, seatName) + again;
  $("log").replaceChildren(...state.log.map((a) => el("li", "", `${seatName(a.seat)}: ${a.label}`)));
}

// The pause after one frame of a reply: a pace in milliseconds, or until "Next" is pressed.
function pause(pace) {
  if (pace !== "step") return sleep(Number(pace));
  return new Promise((resolve) => {
    const next = button("Next reply", "", resolve);
    next.id = "next-reply";
    say("message", "");
    $("message").append(next);
    next.focus();
  });
}

const lastActor = (state) => (state.log.length ? state.log[state.log.length - 1].seat : null);

// Brings what the person acts on next into view on a short screen: the hand's buttons on
// their turn (the hand just above them), the result once the hand is over.
function keepInView(state) {
  const target = state.phase === "over" ? $("result") : $("play").parentElement;
  target.scrollIntoView({ block: "nearest" });
}

let replyShown = 0;  // the newest reply's number: an older one still being shown stops

// A reply: your action and each bot's after it, one frame a pace apart, then the table.
async function showReply(state) {
  const mine = ++replyShown;
  const pace = $("pace").value;
  const frames = pace === "0" ? [] : state.frames;
  replying = frames.length > 0;
  for (const frame of frames) {
    drawPlay({ ...state, ...frame }, true, lastActor(frame));  // a frame is the table alone: the rest is the reply's
    await pause(pace);
    if (mine !== replyShown) return;  // a new hand was dealt meanwhile: its reply draws the table
  }
  if (replying) say("message", "");
  replying = false;
  drawPlay(state, false, lastActor(state));
  keepInView(state);
}

let sending = false;  // an action is on its way: a second click is not a second action

// What an action is chosen on, for the server to check: the hand and its actions so far.
const chosenOn = () => ({ at: playState.log.length, hand_id: playState.hand_id });

// The hand moved on without this page (a second click, another tab): the server's state,
// drawn, with why nothing was done.
async function catchUp(error) {
  try {
    drawPlay(await api("GET", "/api/state"), false, null);
  } catch (ignored) {
    // no hand any more: the message below says what happened
  }
  say("message", error.message, true);
}

async function act(text) {
  if (replying || sending) return;
  sending = true;
  const redeals = playState.redeals;
  let state;
  try {
    // `at` and `hand_id`: the state it was chosen on; the server refuses it on any other (409)
    state = await api("POST", "/api/play", { action: text, ...chosenOn() });
  } catch (error) {
    if (error.status === 409) await catchUp(error);
    else offerReadings(text, error);
    return;
  } finally {
    sending = false;
  }
  say("message", "");
  await showReply(state);
  // Nobody bid: a fresh hand in front of you, which the status line's count alone would not tell.
  if (playState === state && state.redeals > redeals) say("message", "Nobody bid: the cards were dealt again.");
}

// Refused cards that legal plays spend (a wild card's reading, or several readings): the
// person picks one of them; anything else is the engine's reason.
function offerReadings(text, error) {
  if (!error.choices.length) {
    say("message", "Not allowed: " + error.message, true);
    return;
  }
  say("message", `Play ${error.cards} as: `);
  for (const choice of error.choices) {
    $("message").append(button(`${choice.label} (${kindName(choice.kind)})`, "reading", () => act(choice.text)), " ");
  }
}

async function newHand(event) {
  event.preventDefault();
  if (sending) return;  // one deal at a time: a second click while one is on its way deals nothing
  // The keys play the table from here: the seed field or the button would keep them.
  if (document.activeElement && document.activeElement.closest("#setup")) document.activeElement.blur();
  const bots = [...document.querySelectorAll("#bot-choices select")].map((s) => s.value);
  const body = { rules: $("rules").value, bots };
  if ($("seed").value.trim() !== "") body.seed = $("seed").value.trim();  // a string: exact up to 2**64-1
  let state;
  sending = true;
  try {
    state = await api("POST", "/api/new", body);
  } catch (error) {
    // Beside the form that asked: before a first hand the table (and its message line) is hidden.
    say("setup-message", error.message, true);
    return;
  } finally {
    sending = false;
  }
  say("setup-message", "");
  say("message", state.seed === null ? "New hand." : `New hand, seed ${state.seed}.`);
  await showReply(state);
}

// The legal plays (within the selection, if there is one), grouped by kind, each group
// opened on demand: a hand with wild cards has thousands, of which the server sends the
// first of each kind and their count.
function legalGroup(group, open) {
  const box = el("details");
  box.append(el("summary", "kind", `${kindName(group.kind)} (${group.count})`));
  const fill = () => {
    if (box.dataset.filled) return;
    box.dataset.filled = "true";
    for (const action of group.actions) {
      box.append(button(action.label, "legal-play", () => act(action.text)));
    }
    const more = group.count - group.actions.length;
    if (more > 0) box.append(el("div", "caption", `and ${more} more: select cards to see only the plays they make`));
  };
  box.addEventListener("toggle", fill);
  if (open) {
    box.open = true;
    fill();
  }
  return box;
}

// A question about the state this page shows (legal plays, a hint): asked on another (a
// second tab moved the hand on) the server answers 409, and the page catches up.
async function ask(path, query) {
  const params = new URLSearchParams({ ...query, ...chosenOn() });
  try {
    return await api("GET", `${path}?${params}`);
  } catch (error) {
    if (error.status === 409) await catchUp(error);
    else say("message", error.message, true);
    return null;
  }
}

async function showLegal() {
  const selection = selectedCards();
  const data = await ask("/api/legal", selection ? { cards: selection } : {});
  if (data === null) return;
  const total = data.groups.reduce((sum, group) => sum + group.count, 0);
  const heading = selection ? `${total} plays with the selected cards:` : `${total} legal plays:`;
  $("legal").replaceChildren(el("div", "caption", heading), ...data.groups.map((g) => legalGroup(g, total <= 200)));
}

async function hint() {
  const data = await ask("/api/hint", {});
  if (data === null || data.hint === null) return;
  // The cards the hint spends: its text up to a reading ("5777=7777", "333444555666/AIRPLANE/3").
  if (playState.phase === "playing" && data.hint.text !== "pass") selectCards(data.hint.text.split(/[=/]/)[0]);
  say("message", "Hint: ");
  const play = button(data.hint.label, "choice", () => act(data.hint.text));
  play.id = "play-hint";
  play.dataset.action = data.hint.text;
  $("message").append(play);
}

async function undo() {
  if (replying || sending) return;
  sending = true;
  try {
    // As for a play: a second press on the same state takes back nothing more (409)
    drawPlay(await api("POST", "/api/undo", chosenOn()), false, null);
    say("message", "Undone.");
  } catch (error) {
    if (error.status === 409) await catchUp(error);
    else say("message", error.message, true);
  } finally {
    sending = false;
  }
}

function playSelected() {
  const cards = selectedCards();
  if (cards === "") say("message", "Select cards first (click them, or type their ranks), or pass.", true);
  else act(cards);
}

function clearSelection() {
  selectCards("");
  say("message", "");
  $("legal").replaceChildren();
}

// Keyboard play: a rank's key picks one more card of it (all picked: puts them back).
const RANK_KEYS = { "0": "T", t: "T", j: "J", q: "Q", k: "K", a: "A", b: "B", r: "R" };

function pickRank(rank) {
  const cards = handCards().filter((g) => g.dataset.rank === rank);
  const free = cards.find((g) => !g.classList.contains("selected"));
  if (free) free.classList.add("selected");
  else for (const g of cards) g.classList.remove("selected");
}

function onKey(event) {
  if ($("panel-play").hidden || !playState || replying || event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.target.closest("input, select, textarea, summary")) return;
  const key = event.key.toLowerCase();
  // A focused button takes Enter and Space as a press; the other keys play the table.
  if (event.target.closest("button") && (key === "enter" || key === " ")) return;
  const bid = document.querySelector(`#choices button[data-action="bid ${key}"]`);
  const partner = document.querySelector(`#choices button[data-action="${key === "a" ? "alone" : "partner " + key}"]`);
  const press = (id) => { if (!$(id).disabled) $(id).click(); };
  const auctionPass = document.querySelector('#choices button[data-action="bid 0"]');
  if (playState.phase === "bidding" && bid) bid.click();
  else if (playState.phase === "partner" && partner) partner.click();
  else if (key === "p" && auctionPass) auctionPass.click();  // the classic auction's pass
  else if (key === "enter") press("play");
  else if (key === "p") press("pass");
  else if (key === "h") press("hint");
  else if (key === "u") press("undo");
  else if (key === "escape") clearSelection();
  else if (playState.phase === "playing" && (RANK_KEYS[key] || /^[2-9]$/.test(key))) pickRank(RANK_KEYS[key] || key);
  else return;
  event.preventDefault();
}

// ------------------------------------------------------------------ watching and replaying
let replayState = null;
let autoplaying = null;  // the running autoplay (a fresh object each Play, so a stopped one never resumes)

function replayName(seat) {
  if (seat === null || seat === undefined || !replayState) return "";
  const role = replayState.landlord === seat ? " (landlord)" : replayState.partner === seat ? " (partner)" : "";
  return replayState.seats[seat].name + role;
}

function drawReplay(state) {
  replayState = state;
  $("replay").hidden = false;
  $("step-label").textContent = `${state.source}: step ${state.step} of ${state.steps}`;
  $("next").textContent = state.next ? `next: ${replayName(state.next.seat)} ${state.next.label}` : "the end";
  $("replay-status").textContent = stakeText(state);
  $("replay-seats").replaceChildren(...state.seats.map((s) => seatBox(s, lastActor(state))));
  drawCentre(state, "replay-last", "replay-kitty", replayName);
  $("replay-result").textContent = resultText(state, replayName);
  $("first").disabled = $("back").disabled = state.step === 0;
  $("forward").disabled = $("end").disabled = state.step === state.steps;
  $("autoplay").disabled = state.step === state.steps && !autoplaying;
}

async function replayCall(promise) {
  try {
    drawReplay(await promise);
    say("replay-message", "");
  } catch (error) {
    stopAutoplay();
    say("replay-message", error.message, true);
  }
}

function goTo(step) {
  if (!replayState) return Promise.resolve();
  return replayCall(api("GET", `/api/replay/${Math.max(0, Math.min(replayState.steps, step))}`));
}

function stopAutoplay() {
  autoplaying = null;
  $("autoplay").textContent = "Play";
}

// Autoplay: one action a beat until the end, Pause, or another step button.
async function toggleAutoplay() {
  if (autoplaying) {
    stopAutoplay();
    return;
  }
  const run = {};
  autoplaying = run;
  $("autoplay").textContent = "Pause";
  if (replayState.step === replayState.steps) await goTo(0);
  while (autoplaying === run && replayState.step < replayState.steps) {
    await sleep(Number($("speed").value));
    if (autoplaying === run) await goTo(replayState.step + 1);
  }
  if (autoplaying !== run) return;  // paused, or stepped: that button drew the table
  stopAutoplay();
  drawReplay(replayState);
}

function stepTo(target) {
  stopAutoplay();
  goTo(target());
}

async function openRecord(event) {
  event.preventDefault();
  stopAutoplay();
  const file = $("record-file").files[0];
  const text = file ? await file.text() : $("record-text").value;
  let record;
  try {
    record = JSON.parse(text);
  } catch (error) {
    say("replay-message", "That is not JSON: " + error.message, true);
    return;
  }
  replayCall(api("POST", "/api/replay/record", record));
}

async function openNpz(event) {
  event.preventDefault();
  stopAutoplay();
  const file = $("npz-file").files[0];
  if (!file) {
    say("replay-message", "Choose a .npz file first.", true);
    return;
  }
  const query = new URLSearchParams({ game: $("npz-game").value || "0", rules: $("npz-rules").value });
  if ($("npz-seed").value.trim() !== "") query.set("seed", $("npz-seed").value.trim());
  replayCall(api("POST", "/api/replay/npz?" + query, undefined, await file.arrayBuffer()));
}

function watch(event) {
  event.preventDefault();
  stopAutoplay();
  const bots = [...document.querySelectorAll("#watch-bots select")].map((s) => s.value);
  const body = { rules: $("watch-rules").value, bots };
  if ($("watch-seed").value.trim() !== "") body.seed = $("watch-seed").value.trim();
  replayCall(api("POST", "/api/watch", body));
}

// ------------------------------------------------------------------ setup
function fillPresets(select) {
  select.replaceChildren(...options.presets.map((name) => {
    const option = el("option", "", name);
    option.value = name;
    return option;
  }));
  select.value = "standard";
}

function botSelects(target, rules, everySeat) {
  const seats = options.seats[rules];
  const selects = [];
  for (let seat = everySeat ? 0 : 1; seat < seats; seat++) {
    const label = el("label", "", `seat ${seat} `);
    const select = el("select");
    select.id = `${target}-${seat}`;
    for (const name of options.playable[rules]) {  // a network is offered only where it plays
      const option = el("option", "", name);
      option.value = name;
      select.append(option);
    }
    select.value = options.default_bot;
    label.append(select);
    selects.push(label);
  }
  $(target).replaceChildren(...selects);
}

function showPanel(name) {
  for (const tab of document.querySelectorAll(".tab")) tab.classList.toggle("active", tab.dataset.panel === name);
  $("panel-play").hidden = name !== "play";
  $("panel-replay").hidden = name !== "replay";
}

// A reload, or a second tab: the hand this session is playing, if any (null: none yet).
async function resume() {
  try {
    // resume=1: no hand yet is 204, not a 404 the browser would report as an error
    const state = await api("GET", "/api/state?resume=1");
    if (state !== null) drawPlay(state, false, null);
  } catch (error) {
    say("message", error.message, true);
  }
}

async function start() {
  options = await api("GET", "/api/options");
  for (const id of ["rules", "watch-rules", "npz-rules"]) fillPresets($(id));
  botSelects("bot-choices", "standard", false);
  botSelects("watch-bots", "standard", true);
  $("rules").addEventListener("change", () => botSelects("bot-choices", $("rules").value, false));
  $("watch-rules").addEventListener("change", () => botSelects("watch-bots", $("watch-rules").value, true));
  for (const tab of document.querySelectorAll(".tab")) tab.addEventListener("click", () => showPanel(tab.dataset.panel));
  $("setup").addEventListener("submit", newHand);
  $("play").addEventListener("click", playSelected);
  $("pass").addEventListener("click", () => act("pass"));
  $("clear").addEventListener("click", clearSelection);
  $("hint").addEventListener("click", hint);
  $("show-legal").addEventListener("click", showLegal);
  $("undo").addEventListener("click", undo);
  document.addEventListener("keydown", onKey);
  // A double click's second click (detail 2) is not a second action, even when the first
  // one's answer came back before it: caught on the way down, before a button's handler.
  // "Next reply" only shows the next frame: two quick clicks there step twice.
  $("table").addEventListener("click", (event) => {
    const pressed = event.target.closest("button");
    if (event.detail > 1 && pressed && pressed.id !== "next-reply") event.stopPropagation();
  }, true);
  // A button clicked keeps the focus, and then Enter would press it again and the keys
  // that play would be ignored: a mouse click (detail > 0; a key's click has 0) lets go.
  document.addEventListener("click", (event) => {
    const pressed = event.target.closest("button");
    if (pressed && event.detail > 0) pressed.blur();
  });
  $("watch-form").addEventListener("submit", watch);
  $("record-form").addEventListener("submit", openRecord);
  $("npz-form").addEventListener("submit", openNpz);
  $("first").addEventListener("click", () => stepTo(() => 0));
  $("back").addEventListener("click", () => stepTo(() => replayState.step - 1));
  $("forward").addEventListener("click", () => stepTo(() => replayState.step + 1));
  $("end").addEventListener("click", () => stepTo(() => replayState.steps));
  $("autoplay").addEventListener("click", toggleAutoplay);
  await resume();
  document.body.dataset.ready = "true";  // for the browser tests: the options are in
}

document.addEventListener("DOMContentLoaded", start);
