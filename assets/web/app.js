// The gatehouse web console. Every string from the console is set as text (textContent),
// never as markup. The device token lives in this browser's localStorage and goes in an
// Authorization header on every request: no cookie carries it.
"use strict";

const TOKEN = "gatehouse-token";
const ARMING_MS = 400;
const $ = (id) => document.getElementById(id);

let state = null;        // the last snapshot
let received = 0;        // when it came, for the ages
let focused = null;      // the id of the call shown
let armedAt = 0;         // answers are taken from this time on
let boxKind = null;      // "note", "always", "deny", "edit", "plan" or null
let confirmed = false;   // a broad pattern was shown and sent again
let answered = [];       // this device's last answers, newest first

function token() { return localStorage.getItem(TOKEN); }

function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = String(text);
  if (cls) e.className = cls;
  return e;
}

function status(text) { $("status").textContent = text; }

function showUnpaired(why) {
  $("paired").hidden = true;
  $("unpaired").hidden = false;
  $("pair-error").textContent = why || "";
  status("not paired");
}

async function api(path, body) {
  const response = await fetch(path, {
    method: body === undefined ? "GET" : "POST",
    headers: Object.assign({ "Content-Type": "application/json" },
      token() ? { "Authorization": "Bearer " + token() } : {}),
    body: body === undefined ? undefined : JSON.stringify(body),
    cache: "no-store",
  });
  let data = {};
  try { data = await response.json(); } catch (e) { data = {}; }
  if (response.status === 401) {
    localStorage.removeItem(TOKEN);
    showUnpaired(data.error);
  }
  return { ok: response.ok, status: response.status, data };
}

function deviceName() {
  const ua = navigator.userAgent;
  if (/iPhone/.test(ua)) return "iPhone";
  if (/iPad/.test(ua)) return "iPad";
  if (/Android/.test(ua)) return "Android phone";
  if (/Headless/.test(ua)) return "headless browser";
  return "browser";
}

async function pairFromLink() {
  const match = location.hash.match(/^#pair=([0-9a-f]+)$/);
  if (!match) return;
  // The code leaves the address bar at once: it is good once, and not for the history.
  history.replaceState(null, "", "/");
  const reply = await api("/api/pair", { code: match[1], name: deviceName() });
  if (reply.ok) {
    localStorage.setItem(TOKEN, reply.data.token);
  } else {
    localStorage.removeItem(TOKEN);
    showUnpaired(reply.data.error || "pairing failed");
    return "failed";
  }
}

// The live updates: server-sent events read through fetch, so the token travels in a header.
async function follow() {
  while (token()) {
    try {
      const response = await fetch("/api/events", {
        headers: { "Authorization": "Bearer " + token() }, cache: "no-store",
      });
      if (response.status === 401) {
        localStorage.removeItem(TOKEN);
        showUnpaired("this device was unpaired: open a new link from `gatehouse pair`");
        return;
      }
      if (!response.ok || !response.body) throw new Error("status " + response.status);
      status("live");
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let end;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = block.split("\n").filter((l) => l.startsWith("data:"))
            .map((l) => l.slice(5).replace(/^ /, "")).join("\n");
          if (data) render(JSON.parse(data));
        }
      }
    } catch (e) { /* shown below, then tried again */ }
    if (!token()) return;
    status("reconnecting…");
    await new Promise((r) => setTimeout(r, 2000));
  }
  showUnpaired();
}

function left(ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  return (s < 60 ? s + " s" : Math.floor(s / 60) + " min") + " left";
}

function firstLine(d) {
  const p = d.preview;
  const text = p.kind === "shell" ? p.line : p.kind === "plan" ? p.text
    : p.path || (p.kind === "mcp" ? p.server + " " + p.tool : p.input);
  return (text || d.tool).split("\n")[0];
}

function render(snapshot) {
  state = snapshot;
  received = Date.now();
  $("unpaired").hidden = true;
  $("paired").hidden = false;
  $("device").textContent = snapshot.device;
  renderModes();
  if (window.gatehouseModes) window.gatehouseModes.renderBeside(snapshot);
  keepFocusShown();
  renderQueue();
  renderCall();
  renderBatch();
}

// The focused call is always one the filter shows: when it hides the focused call, focus
// moves to the first call it shows, or to none, so the page never answers a call it hides.
// A call shown again is focused anew, and arms again.
function keepFocusShown() {
  if (current()) return;
  const first = inOrder(state.dialogs).find(queueShown);
  focus(first ? first.id : null);
}

function renderModes() {
  const box = $("modes");
  box.replaceChildren(...state.modes.map((mode) => {
    const b = el("button", mode, "mode-" + mode);
    b.setAttribute("aria-pressed", mode === state.mode ? "true" : "false");
    b.addEventListener("click", () => setMode(mode));
    return b;
  }));
}

async function setMode(mode, confirm) {
  if (mode === "allow-all" && !confirm) { $("confirm-mode").hidden = false; return; }
  $("confirm-mode").hidden = true;
  await api("/api/mode", { mode, confirm: !!confirm });
}

// The other waiting calls: the one shown below is not drawn twice.
function renderQueue() {
  const now = Date.now() - received;
  $("empty").hidden = state.dialogs.length > 0;
  const all = inOrder(state.dialogs.filter((d) => d.id !== focused));
  const others = all.filter(queueShown);
  $("queue-title").hidden = all.length === 0;
  $("queue-title").textContent = "Also waiting (" + (others.length === all.length ? "" : others.length + " of ") + all.length + ")";
  $("queue").replaceChildren(...others.map((d) => {
    const li = el("li");
    const top = el("div", null, "line");
    top.append(el("span", d.agent + " · " + d.tool), el("span", left(d.left_ms - now), "meta"));
    // A call whose session or agent has its own mode says so, as the console's queue does.
    const own = ((state.beside || {}).own || {})[String(d.id)];
    if (own) top.append(el("span", "[" + own.mode + "]", "own-mode-mark"));
    top.prepend(markBox(d));
    li.append(top, el("div", firstLine(d), "subject"),
      el("div", d.cwd + " · session " + d.session.slice(0, 8), "meta"));
    li.addEventListener("click", () => { focus(d.id); renderQueue(); renderCall(); renderBatch(); });
    return li;
  }));
}

function focus(id) {
  if (id === focused) return;
  focused = id;
  armedAt = Date.now() + ARMING_MS;
  closeBox();
  setTimeout(renderButtons, ARMING_MS + 10);
}

// The call shown below the queue: the focused one, and only while the filter shows it.
function current() {
  const d = state && state.dialogs.find((x) => x.id === focused);
  return d && queueShown(d) ? d : null;
}

function renderSubject(d) {
  const p = d.preview;
  const parts = [];
  if (p.kind === "shell") {
    parts.push(el("pre", p.line));
  } else if (p.kind === "write") {
    parts.push(el("p", "writes " + p.path, "meta"), el("pre", p.content));
  } else if (p.kind === "diff") {
    const diff = el("pre", null, "diff");
    diff.append(...p.lines.map(([tag, line]) => el("div", line, tag)));
    parts.push(el("p", "edits " + p.path + (p.in_context ? "" : " (file not read)"), "meta"), diff);
  } else if (p.kind === "plan") {
    // The plan whole, in a block that scrolls on its own (pre's max-height).
    parts.push(el("p", "the agent's plan, for your approval" + (p.file ? " (kept in " + p.file + ")" : ""), "meta"),
      el("pre", p.text, "plan"));
  } else if (p.kind === "mcp") {
    parts.push(el("p", "MCP server " + p.server + ", tool " + p.tool, "meta"), el("pre", p.arguments));
  } else {
    parts.push(el("pre", p.input));
  }
  $("subject").replaceChildren(...parts);
}

function renderCall() {
  const d = current();
  $("call").hidden = !d;
  const waiting = state ? state.dialogs.length : 0;
  $("all-hidden").hidden = !!d || waiting === 0;
  if (!d) {
    $("all-hidden").textContent = "No call matches the filter “" + $("filter").value.trim() + "”: "
      + waiting + (waiting === 1 ? " call waits" : " calls wait")
      + " behind it, and nothing can be answered until one is shown. Clear the filter (Esc) to see them.";
    return;
  }
  $("call-title").textContent = "#" + d.id + " " + d.agent + " · " + d.tool;
  $("call-where").textContent = d.cwd + " · session " + d.session + " · " + d.class +
    " · " + left(d.left_ms - (Date.now() - received));
  $("call-description").hidden = !d.description;
  $("call-description").textContent = d.description ? "“" + d.description + "”" : "";
  renderSubject(d);
  $("why").textContent = d.preview.kind === "shell" ? "why it asks: " + d.preview.why : "why it asks: " + d.why;
  $("assessment").textContent = d.classifier ? "classifier: " + d.classifier : "";
  $("allow").textContent = d.caps.grant ? "Allow" : "Allow (the agent may still ask)";
  const plan = d.preview.kind === "plan";
  if (plan) $("allow").textContent = "Approve the plan…";
  $("note").hidden = d.caps.note === "none" || plan;
  $("always").hidden = plan;
  $("edit").hidden = !d.edit;
  renderButtons();
  if (window.gatehouseModes) window.gatehouseModes.renderOwn(d);
}

function renderButtons() {
  const armed = Date.now() >= armedAt;
  for (const id of ["allow", "note", "always", "deny", "edit", "send"]) $(id).disabled = !armed;
}

function openBox(kind) {
  const d = current();
  if (!d) return;
  boxKind = kind;
  confirmed = false;
  $("box").hidden = false;
  $("answer-error").textContent = "";
  const text = $("text");
  if (kind === "deny") {
    $("box-label").textContent = d.caps.reason ? "Reason (the model reads it)" : "Reason (the model only learns it was blocked)";
    text.value = "";
    $("send").textContent = "Deny";
    // Writing an answer claims the call: a classifier's late verdict no longer counts.
    api("/api/claim", { id: d.id });
  } else if (kind === "note") {
    $("box-label").textContent = d.caps.note === "user" ? "Note (only you see it)" : "Note for the model";
    text.value = "";
    $("send").textContent = "Allow with note";
    api("/api/claim", { id: d.id });
  } else if (kind === "edit") {
    $("box-label").textContent = "Edit the command, then allow the edited line once";
    text.value = d.edit;
    $("send").textContent = "Allow edited";
    api("/api/claim", { id: d.id });
  } else if (kind === "plan") {
    openPlanBox(d);
    api("/api/claim", { id: d.id });
  } else {
    $("box-label").textContent = "Always allow (" + d.always.kind + "): where and how long below";
    text.value = d.always.pattern;
    $("send").textContent = "Always allow";
  }
  // One set of buttons at a time: the box's own send and cancel.
  $("buttons").hidden = true;
  $("box-hint").textContent = kind === "always" && d.always.matches
    ? "As proposed it allows " + d.always.matches + "; an edit is checked again when sent."
      + (d.always.caveat ? " Note: " + d.always.caveat + "." : "")
    : "";
  if (kind === "edit") judgeEdit();
  if (window.gatehouseModes) window.gatehouseModes.openedBox(kind);
  text.focus();
}

// The edited line judged afresh: its class and what sending it will do.
let judging = 0;
async function judgeEdit() {
  const d = current();
  if (!d || boxKind !== "edit") return;
  const asked = ++judging;
  const reply = await api("/api/judge", { id: d.id, text: $("text").value });
  if (asked !== judging || boxKind !== "edit") return;
  $("box-hint").textContent = reply.ok
    ? (reply.data.refused ? "REFUSED " : "") + reply.data.class + ": " + reply.data.why + " — " + reply.data.end
    : (reply.data.error || "");
}

// A plan's approve box: a note for the model, and the mode the console moves to once the plan
// is approved (out of plan mode it starts on allow-read, elsewhere on staying).
function openPlanBox(d) {
  $("box-label").textContent = "Approve the plan, with a note for the model (optional)";
  $("text").value = "";
  $("send").textContent = "Approve";
  const select = $("plan-mode");
  const keep = el("option", "stay in " + state.mode);
  keep.value = "";
  const others = state.modes.filter((m) => m !== state.mode).map((m) => {
    const o = el("option", "then switch to " + m);
    o.value = m;
    return o;
  });
  select.replaceChildren(keep, ...others);
  select.value = state.mode === "plan" ? "allow-read" : "";
  $("plan-choice").hidden = false;
}

function closeBox() {
  boxKind = null;
  $("plan-choice").hidden = true;
  $("box").hidden = true;
  $("buttons").hidden = false;
  $("answer-error").textContent = "";
}

// What this device answered, newest first: a confirmation and a short history.
function remember(answer, d) {
  const word = { allow: "allowed", note: "allowed with a note", always: "always allowed", deny: "denied", edit: "allowed edited", plan: "approved the plan" }[answer];
  answered.unshift(word + " #" + d.id + " · " + d.agent + " · " + firstLine(d));
  answered = answered.slice(0, 5);
  $("history-title").hidden = false;
  $("history").replaceChildren(...answered.map((line) => el("li", line)));
}

async function send(answer, text) {
  const d = current();
  if (!d || Date.now() < armedAt) return;
  const body = { id: d.id, answer, text: text || "", confirm: confirmed };
  if (answer === "plan") body.mode = $("plan-mode").value || null;
  if (answer === "always" && window.gatehouseModes) Object.assign(body, window.gatehouseModes.alwaysChoice());
  const reply = await api("/api/answer", body);
  if (reply.ok) { closeBox(); remember(answer, d); return; }
  if (reply.data.confirm) {
    confirmed = true;
    $("box-hint").textContent = reply.data.confirm + ". Send again to allow it, or edit.";
    return;
  }
  $("answer-error").textContent = reply.data.error || ("refused (" + reply.status + ")");
}

// The always box's scope changed: a warning about a broad pattern no longer stands.
window.gatehouseAlwaysChanged = () => { confirmed = false; $("box-hint").textContent = ""; };

function wire() {
  wireBatch();
  $("allow").addEventListener("click", () => {
    const d = current();
    if (d && d.preview.kind === "plan") openBox("plan"); else send("allow");
  });
  $("plan-mode").addEventListener("change", () => { confirmed = false; });
  $("note").addEventListener("click", () => openBox("note"));
  $("always").addEventListener("click", () => openBox("always"));
  $("deny").addEventListener("click", () => openBox("deny"));
  $("edit").addEventListener("click", () => openBox("edit"));
  $("cancel").addEventListener("click", closeBox);
  $("text").addEventListener("input", () => {
    confirmed = false;
    $("box-hint").textContent = "";
    if (boxKind === "edit") judgeEdit();
  });
  $("box").addEventListener("submit", (e) => { e.preventDefault(); if (boxKind) send(boxKind, $("text").value); });
  $("confirm-allow-all").addEventListener("click", () => setMode("allow-all", true));
  $("cancel-allow-all").addEventListener("click", () => { $("confirm-mode").hidden = true; });
  $("forget").addEventListener("click", () => { localStorage.removeItem(TOKEN); showUnpaired(); });
  setInterval(() => { if (state && token()) renderQueue(); }, 1000);
}

// One stream at a time: a link pasted into a tab already following pairs without a second.
let following = false;
async function followOnce() {
  if (following) return;
  following = true;
  try { await follow(); } finally { following = false; }
}

async function main() {
  wire();
  // A pairing link pasted into a tab already on the page changes only its hash.
  window.addEventListener("hashchange", async () => {
    if (await pairFromLink() === "failed") return;
    if (token()) followOnce();
  });
  if (await pairFromLink() === "failed") return;
  if (!token()) { showUnpaired(); return; }
  followOnce();
}

main();
