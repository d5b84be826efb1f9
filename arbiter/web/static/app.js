// The companion's page: the live board pushed by the server, the player's controls and private
// panel (with a player's link), and the history of games. Plain script, no build step, nothing
// fetched from anywhere but this server. Text from the server is always set as text, never as
// HTML; only the board's SVG, drawn by the server from the board's geometry, is inserted as markup.
"use strict";

const tokenMatch = location.pathname.match(/^\/p\/([A-Za-z0-9_-]{8,64})$/);
const TOKEN = tokenMatch ? tokenMatch[1] : null;
const ownerMatch = location.pathname.match(/^\/setup\/([A-Za-z0-9_-]{8,64})$/);
const OWNER = ownerMatch ? ownerMatch[1] : null;
const $ = (id) => document.getElementById(id);
let view = null;          // the latest public view
let clockBase = 0;        // performance.now() when the clocks arrived

function swatch(css) {
  const s = document.createElement("span");
  s.className = "swatch";
  s.style.background = css;
  return s;
}

// Server-Sent Events read through fetch, so a player's token travels in a header, not the URL.
async function follow(path, onData, headers) {
  for (;;) {
    try {
      const response = await fetch(path, { headers: headers || {}, cache: "no-store" });
      if (response.status === 401 || response.status === 404) return;
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      let buffer = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let cut;
        while ((cut = buffer.indexOf("\n\n")) >= 0) {
          const chunk = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const data = chunk.split("\n").filter((l) => l.startsWith("data: ")).map((l) => l.slice(6)).join("\n");
          if (data) onData(JSON.parse(data));
        }
      }
    } catch (e) { /* the server went away: try again shortly */ }
    await new Promise((r) => setTimeout(r, 1000));
  }
}

function clockText(left) {
  if (left === null) return "∞";
  left = Math.max(0, left);
  const m = Math.floor(Math.ceil(left) / 60), s = Math.ceil(left) % 60;
  return `${m}:${String(s).padStart(2, "0")}`;
}

function drawClocks() {
  const box = $("clocks");
  box.replaceChildren();
  if (!view || !view.clocks) return;
  const gone = (performance.now() - clockBase) / 1000;
  for (const c of view.clocks) {
    const d = document.createElement("span");
    d.className = "clock" + (c.running ? " running" : "");
    d.append(swatch(c.css), clockText(c.left === null ? null : c.left - (c.running ? gone : 0)));
    d.dataset.player = c.player;
    box.append(d);
  }
}

function show(v) {
  view = v;
  clockBase = performance.now();
  if (!v.live) {
    $("nogame").hidden = false;
    $("game").hidden = true;
    return;
  }
  $("nogame").hidden = true;
  $("game").hidden = false;
  $("title").textContent = "arbiter · " + v.title;
  document.title = "arbiter · " + v.title;
  $("board").innerHTML = v.board;
  const said = $("said");
  said.textContent = v.said ? v.said.message : "";
  said.className = "said " + (v.said ? v.said.kind : "");
  said.dataset.kind = v.said ? v.said.kind : "";
  const turn = $("turn");
  turn.replaceChildren();
  if (v.over) turn.append(v.result || "The game is over.");
  else if (v.to_move) turn.append(swatch(v.to_move.css), `${cap(v.to_move.colour)} to move (${v.to_move.phase})`);
  drawClocks();
  const caps = v.captures.filter((c) => c.n > 0).map((c) => `${c.n} by ${c.colour}`);
  $("captures").textContent = (caps.length ? "Taken so far: " + caps.join(", ") : "") + (v.stacks ? " · Stacks: " + v.stacks : "");
  $("secretswaiting").textContent = v.secrets_waiting.length
    ? "Waiting for a secret step from player " + v.secrets_waiting.join(", ") + " (typed on their own page)." : "";
  $("health").hidden = !v.health;
  $("health").textContent = v.health;
  const moves = $("moves");
  moves.replaceChildren(...v.moves.map((m, i) => {
    const li = document.createElement("li");
    li.textContent = m;
    if (i === v.moves.length - 1) li.className = "lastmove";
    return li;
  }));
  $("messages").replaceChildren(...v.messages.slice().reverse().map((m) => {
    const li = document.createElement("li");
    li.textContent = m.message;
    li.className = m.kind;
    return li;
  }));
  if (TOKEN) showControls(v.controls);
}

function cap(s) { return s ? s[0].toUpperCase() + s.slice(1) : s; }

function showControls(c) {
  $("controls").hidden = false;
  $("confirm").disabled = !c.confirm;
  $("confirm").textContent = c.confirm || "Confirm";
  $("menu").disabled = !c.menu;
  $("menu").textContent = c.menu === "next reading" ? "Next reading" : "Menu / hint";
  const box = $("choices");
  box.hidden = !c.choose.length;
  box.replaceChildren(...c.choose.map((words, i) => {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = `${i + 1}. ${words}`;
    b.dataset.choose = i;
    b.addEventListener("click", () => send("/api/control", { action: "choose", index: i }));
    return b;
  }));
}

async function send(path, body, token, errorBox) {
  const err = errorBox || $("controlerror");
  try {
    const r = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json", "X-Arbiter-Token": token || TOKEN },
                                  body: JSON.stringify(body) });
    if (!r.ok) {
      const data = await r.json().catch(() => ({}));
      err.textContent = data.error || `refused (${r.status})`;
      err.hidden = false;
      return false;
    }
    err.hidden = true;
    return true;
  } catch (e) {
    err.textContent = "The Pi does not answer.";
    err.hidden = false;
    return false;
  }
}

function showPrivate(p) {
  $("private").hidden = !(p.asks || p.tells || p.refused);
  $("me").textContent = `player ${p.player} (${p.colour})`;
  $("role").textContent = `player ${p.player} (${p.colour})`;
  $("secretform").hidden = !p.asks;
  $("asks").textContent = p.asks || "";
  $("tells").textContent = p.tells || "";
  $("refused").hidden = !p.refused;
  $("refused").textContent = p.refused ? "Not taken: " + p.refused : "";
}

// ------------------------------------------------------------------ history
let replay = null;

async function getJSON(path) {
  const r = await fetch(path, { cache: "no-store" });
  if (!r.ok) throw new Error((await r.json().catch(() => ({}))).error || r.status);
  return r.json();
}

async function loadHistory() {
  const body = $("games").tBodies[0];
  try {
    const { games } = await getJSON("/api/games");
    body.replaceChildren(...games.map((g) => {
      const tr = document.createElement("tr");
      const cells = g.error ? [g.name, "", "", "", g.error]
        : [g.date.replace("T", " ").slice(0, 16), g.game, g.players, g.steps, g.result];
      for (const c of cells) { const td = document.createElement("td"); td.textContent = c; tr.append(td); }
      tr.dataset.name = g.name;
      if (!g.error) tr.addEventListener("click", () => openGame(g.name));
      return tr;
    }));
  } catch (e) {
    body.replaceChildren();
  }
}

async function openGame(name) {
  const g = await getJSON("/api/games/" + encodeURIComponent(name));
  replay = { name, n: g.moves.length, of: g.moves.length, game: g };
  $("replay").hidden = false;
  $("replaytitle").textContent = `${g.game} · ${g.date.replace("T", " ").slice(0, 16)} · ${g.result}`;
  $("download").href = "/api/games/" + encodeURIComponent(name) + "/record";
  await stepTo(replay.n);
}

async function stepTo(n) {
  if (!replay) return;
  n = Math.max(0, Math.min(replay.of, n));
  const b = await getJSON(`/api/games/${encodeURIComponent(replay.name)}/board/${n}`);
  replay.n = n;
  $("replayboard").innerHTML = b.board;
  $("replaystep").textContent = `${n} of ${b.of}` + (b.move ? ` · ${b.move}` : "") + (b.to_move ? ` · ${b.to_move} to move` : "");
}

// ------------------------------------------------------------------ setup (the owner's page)
let catalogue = [];

async function loadCatalogue() {
  catalogue = (await getJSON("/api/catalogue")).games;
  const choice = $("gamechoice");
  const options = () => catalogue.map((g) => {
    const o = document.createElement("option");
    o.value = g.name;
    o.textContent = g.name;
    return o;
  });
  choice.replaceChildren(...options());
  $("calgame").replaceChildren(...options());
  showOptions();
}

function showOptions() {
  const g = catalogue.find((x) => x.name === $("gamechoice").value);
  if (!g) return;
  $("gamesummary").textContent = `${g.summary} (${g.players} players)`;
  $("gameoptions").replaceChildren(...g.options.map((o) => {
    const label = document.createElement("label");
    const input = document.createElement("input");
    input.dataset.option = o.name;
    input.dataset.kind = o.kind;
    if (o.kind === "bool") { input.type = "checkbox"; input.checked = !!o.default; }
    else { input.type = o.kind === "str" ? "text" : "number"; input.value = o.default === null ? "" : o.default; }
    label.append(input, " " + o.name.replaceAll("_", " ") + ": " + o.help);
    return label;
  }));
}

async function setupStatus() {
  const r = await fetch("/api/setup", { headers: { "X-Arbiter-Token": OWNER }, cache: "no-store" });
  if (!r.ok) return;
  const s = await r.json();
  $("running").hidden = !s.running;
  $("newgame").hidden = s.running;
  $("runninggame").textContent = s.running ? `A game of ${s.game} is being refereed.` : "";
  $("setuplast").textContent = s.last ? "Last: " + s.last : "";
  $("links").replaceChildren(...s.links.map((l) => {
    const f = document.createElement("figure");
    const qr = document.createElement("div");
    qr.innerHTML = l.qr;
    const a = document.createElement("a");
    a.href = l.path;
    a.textContent = `Player ${l.player} (${l.colour})`;
    const cap = document.createElement("figcaption");
    cap.append(a);
    f.append(qr, cap);
    return f;
  }));
  $("unfinished").replaceChildren(...s.unfinished.map((u) => {
    const li = document.createElement("li");
    li.textContent = `${u.game} · ${u.date.replace("T", " ").slice(0, 16)} · ${u.steps} steps`;
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = "Resume";
    b.disabled = s.running;
    b.addEventListener("click", () => setupSend("/api/setup/resume", { name: u.name }));
    li.append(b);
    return li;
  }));
}

async function setupSend(path, body) {
  await send(path, body, OWNER, $("setuperror"));
  setTimeout(setupStatus, 300);
}

// ------------------------------------------------------------------ calibration (the owner's page)
let calStep = null;

async function ownerPicture(path, img) {
  const r = await fetch(path, { headers: { "X-Arbiter-Token": OWNER }, cache: "no-store" });
  if (!r.ok) return false;
  const url = URL.createObjectURL(await r.blob());
  if (img.src.startsWith("blob:")) URL.revokeObjectURL(img.src);
  img.src = url;
  return true;
}

function showCalibration(c) {
  $("calsteps").hidden = !c.active;
  if (!c.active) return;
  if (!calStep) ownerPicture("/api/calibrate/picture.jpg", $("calcamera"));
  $("calsaid").textContent = c.said.join("\n");
  $("caltake").hidden = c.step === "done";
  $("caltake").textContent = c.step === "empty" ? "Take the empty board" : "Take the pieces";
  $("callayoutbox").hidden = c.step !== "pieces";
  if (c.step === "pieces" && calStep !== "pieces") ownerPicture("/api/calibrate/layout.png", $("callayout"));
  $("caloverlaybox").hidden = !c.overlay;
  if (c.overlay) ownerPicture("/api/calibrate/overlay.png", $("caloverlay"));
  calStep = c.step;
}

async function calibrationStatus() {
  const r = await fetch("/api/calibrate", { headers: { "X-Arbiter-Token": OWNER }, cache: "no-store" });
  if (r.ok) showCalibration(await r.json());
}

async function calibrationSend(path, body) {
  const err = $("calerror");
  $("caltake").disabled = true;
  try {
    const r = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json", "X-Arbiter-Token": OWNER },
                                  body: JSON.stringify(body) });
    const data = await r.json().catch(() => ({}));
    err.hidden = r.ok;
    err.textContent = r.ok ? "" : (data.error || `refused (${r.status})`);
    if (r.ok) showCalibration(data);
  } finally {
    $("caltake").disabled = false;
  }
}

function chosenOptions() {
  const out = {};
  for (const input of document.querySelectorAll("#gameoptions input")) {
    const k = input.dataset.kind;
    out[input.dataset.option] = k === "bool" ? input.checked : (k === "str" ? input.value : Number(input.value));
  }
  return out;
}

// ------------------------------------------------------------------ start
document.addEventListener("DOMContentLoaded", () => {
  for (const t of document.querySelectorAll(".tab")) {
    t.addEventListener("click", () => {
      for (const u of document.querySelectorAll(".tab")) u.classList.toggle("on", u === t);
      for (const p of document.querySelectorAll(".pane")) p.hidden = p.id !== t.dataset.tab;
      if (t.dataset.tab === "history") loadHistory();
    });
  }
  for (const b of document.querySelectorAll("#controls button")) {
    b.addEventListener("click", () => send("/api/control", { action: b.dataset.action }));
  }
  $("secretform").addEventListener("submit", async (e) => {
    e.preventDefault();
    const box = $("secret");
    if (await send("/api/secret", { text: box.value })) box.value = "";
  });
  $("first").addEventListener("click", () => stepTo(0));
  $("prev").addEventListener("click", () => stepTo(replay.n - 1));
  $("next").addEventListener("click", () => stepTo(replay.n + 1));
  $("last").addEventListener("click", () => stepTo(replay.of));
  $("role").textContent = TOKEN ? "player" : (OWNER ? "owner" : "spectator");
  if (OWNER) {
    $("setuptab").hidden = false;
    loadCatalogue();
    setupStatus();
    setInterval(setupStatus, 2000);
    $("gamechoice").addEventListener("change", showOptions);
    $("stop").addEventListener("click", () => setupSend("/api/setup/stop", {}));
    $("calibrate").addEventListener("submit", (e) => {
      e.preventDefault();
      calibrationSend("/api/calibrate/begin", { game: $("calgame").value, source: $("calsource").value.trim() });
    });
    $("caltake").addEventListener("click", () => calibrationSend("/api/calibrate/take", {}));
    calibrationStatus();
    setInterval(() => {
      if (!$("setup").hidden && calStep && calStep !== "done") ownerPicture("/api/calibrate/picture.jpg", $("calcamera"));
    }, 1500);
    $("newgame").addEventListener("submit", (e) => {
      e.preventDefault();
      const clock = $("clockchoice").value.trim();
      setupSend("/api/setup/start", { game: $("gamechoice").value, options: chosenOptions(),
                                      reader: $("readerchoice").value, clock: clock || null });
    });
  }
  if (TOKEN) {
    follow("/api/private/events", showPrivate, { "X-Arbiter-Token": TOKEN });
  }
  follow("/api/events", show);
  setInterval(drawClocks, 250);
});
