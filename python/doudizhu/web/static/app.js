// The page: forms and buttons over the JSON API (doudizhu/web/app.py). Every rule is the
// server's; this script only draws the state it answers and sends what was clicked.
"use strict";

const $ = (id) => document.getElementById(id);
let options = null;
let replayState = null;

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
  const data = await response.json();
  if (!response.ok) {
    const error = new Error(data.error || response.statusText);
    error.choices = data.choices || [];
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

// Card pictures come from the server's SVG renderer (one <g class="card"> per card).
function picture(svg) {
  const holder = el("div", "cards");
  holder.innerHTML = svg;
  return holder;
}

function say(target, text, isError) {
  const box = $(target);
  box.replaceChildren();
  box.textContent = text || "";
  box.classList.toggle("error", Boolean(isError));
}

// ------------------------------------------------------------------ shared drawing
function seatBox(seat) {
  const box = el("div", "seat" + (seat.to_move ? " to-move" : ""));
  box.dataset.seat = seat.seat;
  const label = el("div", "seat-label");
  label.append(el("span", "name", seat.name), el("span", "role " + seat.role, seat.role),
               el("span", "count", seat.count + " cards"));
  box.append(label, picture(seat.svg));
  return box;
}

function stakeText(state) {
  const bombs = state.bombs + state.rockets;
  let text = `${state.phase} · stake: base ${state.base} × ${state.multiplier}` +
             ` · ${bombs} bomb${bombs === 1 ? "" : "s"}`;
  if (state.wild) text += ` · wild: ${state.wild}`;  // "the 5s", or "the 5s and 9s"
  if (state.redeals) text += ` · redealt ${state.redeals}×`;
  return text;
}

function drawMiddle(state, lastId, kittyId, name) {
  const last = $(lastId);
  last.replaceChildren();
  if (state.last) {
    last.append(el("div", "caption", `last play: ${state.last.text} (${state.last.kind}) by ${name(state.last.by)}`),
                picture(state.last.svg));
  } else if (state.phase === "playing") {
    last.append(el("div", "caption", `${name(state.to_move)} to lead`));
  }
  const kitty = $(kittyId);
  kitty.replaceChildren(el("div", "caption", state.kitty.public ? "kitty" : "kitty (face down)"),
                        picture(state.kitty.svg));
}

function resultText(state, name) {
  const r = state.result;
  if (!r) return "";
  if (r.void) return "Nobody bid: the hand is void.";
  const extras = [];
  if (r.spring) extras.push("spring");
  if (r.anti_spring) extras.push("anti-spring");
  for (const bonus of r.start_bonuses) extras.push(`start bonus: ${bonus.name} (seat ${bonus.seat})`);
  const payouts = r.payouts.map((p, seat) => `${name(seat)} ${p > 0 ? "+" : ""}${p}`).join(", ");
  return `The ${r.landlord_won ? "landlord wins" : "peasants win"}: base ${r.base} × ${r.multiplier}` +
         (extras.length ? ` (${extras.join(", ")})` : "") + `. Payouts: ${payouts}.`;
}

// ------------------------------------------------------------------ playing
let playState = null;

function seatName(seat) {
  if (seat === null || seat === undefined) return "";
  return playState.seats[seat].name;
}

function selectedCards() {
  return [...document.querySelectorAll("#hand g.card.selected")].map((g) => g.dataset.rank).join("");
}

function selectCards(text) {
  const wanted = [...text.split("=")[0]];
  for (const g of document.querySelectorAll("#hand g.card")) {
    const i = wanted.indexOf(g.dataset.rank);
    g.classList.toggle("selected", i >= 0);
    if (i >= 0) wanted.splice(i, 1);
  }
}

function drawPlay(state) {
  playState = state;
  $("table").hidden = false;
  const me = state.seats[state.human];
  $("opponents").replaceChildren(...state.seats.filter((s) => s.seat !== state.human).map(seatBox));
  $("status").textContent = stakeText(state) + (state.phase === "over" ? "" : " · your turn");
  drawMiddle(state, "last", "kitty", seatName);
  $("me-label").replaceChildren(el("span", "name", "you"), el("span", "role " + me.role, me.role),
                                el("span", "count", me.count + " cards"));
  const hand = $("hand");
  hand.replaceChildren(picture(me.svg));
  for (const g of hand.querySelectorAll("g.card")) {
    g.addEventListener("click", () => { g.classList.toggle("selected"); });
  }
  const choices = $("choices");
  choices.replaceChildren(...state.choices.map((text) => {
    const button = el("button", "choice", text);
    button.type = "button";
    button.dataset.action = text;
    button.addEventListener("click", () => act(text));
    return button;
  }));
  const playing = state.phase === "playing";
  $("play").disabled = !playing;
  $("pass").disabled = !state.can_pass;
  $("hint").disabled = $("show-legal").disabled = state.phase === "over";
  $("undo").disabled = !state.can_undo;
  $("legal").replaceChildren();
  $("result").textContent = resultText(state, seatName);
  $("log").replaceChildren(...state.log.map((a) => el("li", "", `${seatName(a.seat)}: ${a.text}`)));
}

async function act(text) {
  try {
    drawPlay(await api("POST", "/api/play", { action: text }));
    say("message", "");
  } catch (error) {
    say("message", "Not allowed: " + error.message, true);
    for (const choice of error.choices || []) {
      const button = el("button", "choice", choice);
      button.type = "button";
      button.addEventListener("click", () => act(choice));
      $("message").append(" ", button);
    }
  }
}

async function newHand(event) {
  event.preventDefault();
  const bots = [...document.querySelectorAll("#bot-choices select")].map((s) => s.value);
  const body = { rules: $("rules").value, bots };
  if ($("seed").value !== "") body.seed = Number($("seed").value);
  try {
    drawPlay(await api("POST", "/api/new", body));
    say("message", `New hand, seed ${playState.seed}.`);
  } catch (error) {
    say("message", error.message, true);
  }
}

async function showLegal() {
  const data = await api("GET", "/api/legal");
  const box = $("legal");
  box.replaceChildren();
  for (const group of data.groups) {
    const row = el("div", "group");
    row.append(el("span", "kind", group.kind + ":"));
    for (const text of group.actions) {
      const button = el("button", "legal-play", text);
      button.type = "button";
      button.addEventListener("click", () => act(text));  // plays it: wild readings ("9992=9999") included
      row.append(button);
    }
    box.append(row);
  }
}

async function hint() {
  const data = await api("GET", "/api/legal");
  if (data.hint === null) return;
  if (playState.phase === "playing" && data.hint !== "pass") selectCards(data.hint);
  say("message", "Hint: ");
  const button = el("button", "choice", data.hint);
  button.type = "button";
  button.id = "play-hint";
  button.addEventListener("click", () => act(data.hint));
  $("message").append(button);
}

async function undo() {
  try {
    drawPlay(await api("POST", "/api/undo"));
    say("message", "Undone.");
  } catch (error) {
    say("message", error.message, true);
  }
}

// ------------------------------------------------------------------ watching and replaying
function replayName(seat) {
  if (seat === null || seat === undefined || !replayState) return "";
  return replayState.seats[seat].name + (replayState.landlord === seat ? " (landlord)" : "");
}

function drawReplay(state) {
  replayState = state;
  $("replay").hidden = false;
  $("step-label").textContent = `${state.source}: step ${state.step} of ${state.steps}`;
  $("next").textContent = state.next ? `next: ${replayName(state.next.seat)} ${state.next.text}` : "the end";
  $("replay-status").textContent = stakeText(state);
  $("replay-seats").replaceChildren(...state.seats.map(seatBox));
  drawMiddle(state, "replay-last", "replay-kitty", replayName);
  $("replay-result").textContent = resultText(state, replayName);
  $("first").disabled = $("back").disabled = state.step === 0;
  $("forward").disabled = $("end").disabled = state.step === state.steps;
}

async function replayCall(promise) {
  try {
    drawReplay(await promise);
    say("replay-message", "");
  } catch (error) {
    say("replay-message", error.message, true);
  }
}

function goTo(step) {
  if (!replayState) return;
  replayCall(api("GET", `/api/replay/${Math.max(0, Math.min(replayState.steps, step))}`));
}

async function openRecord(event) {
  event.preventDefault();
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
  const file = $("npz-file").files[0];
  if (!file) {
    say("replay-message", "Choose a .npz file first.", true);
    return;
  }
  const query = new URLSearchParams({ game: $("npz-game").value || "0", rules: $("npz-rules").value });
  if ($("npz-seed").value !== "") query.set("seed", $("npz-seed").value);
  replayCall(api("POST", "/api/replay/npz?" + query, undefined, await file.arrayBuffer()));
}

function watch(event) {
  event.preventDefault();
  const bots = [...document.querySelectorAll("#watch-bots select")].map((s) => s.value);
  const body = { rules: $("watch-rules").value, bots };
  if ($("watch-seed").value !== "") body.seed = Number($("watch-seed").value);
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
    for (const name of options.bots) {
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

async function start() {
  options = await api("GET", "/api/options");
  for (const id of ["rules", "watch-rules", "npz-rules"]) fillPresets($(id));
  botSelects("bot-choices", "standard", false);
  botSelects("watch-bots", "standard", true);
  $("rules").addEventListener("change", () => botSelects("bot-choices", $("rules").value, false));
  $("watch-rules").addEventListener("change", () => botSelects("watch-bots", $("watch-rules").value, true));
  for (const tab of document.querySelectorAll(".tab")) tab.addEventListener("click", () => showPanel(tab.dataset.panel));
  $("setup").addEventListener("submit", newHand);
  $("play").addEventListener("click", () => {
    const cards = selectedCards();
    if (cards === "") say("message", "Select cards first (click them), or pass.", true);
    else act(cards);
  });
  $("pass").addEventListener("click", () => act("pass"));
  $("clear").addEventListener("click", () => selectCards(""));
  $("hint").addEventListener("click", hint);
  $("show-legal").addEventListener("click", showLegal);
  $("undo").addEventListener("click", undo);
  $("watch-form").addEventListener("submit", watch);
  $("record-form").addEventListener("submit", openRecord);
  $("npz-form").addEventListener("submit", openNpz);
  $("first").addEventListener("click", () => goTo(0));
  $("back").addEventListener("click", () => goTo(replayState.step - 1));
  $("forward").addEventListener("click", () => goTo(replayState.step + 1));
  $("end").addEventListener("click", () => goTo(replayState.steps));
  document.body.dataset.ready = "true";  // for the browser tests: the options are in
}

document.addEventListener("DOMContentLoaded", start);
