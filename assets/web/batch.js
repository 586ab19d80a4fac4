// Answer many calls at once, and filter and order the queue, on the gatehouse web page. Loaded
// before app.js, whose rendering calls the hooks below (queueShown, inOrder, markBox,
// renderBatch). Every string from the console is set as text (textContent), never as markup.
"use strict";

const marked = new Set();  // ids marked for one batch answer
let batchKind = null;      // "allow", "note", "always", "deny" or null
let batchListed = [];      // the ids the box listed as getting the answer

// The queue's order, as the console's O: arrival, or the least time left first (each call's own
// deadline, which is shorter where its agent kills the hook sooner); equal times keep arrival.
let byTimeLeft = false;

function inOrder(dialogs) {
  if (!byTimeLeft) return dialogs;
  return dialogs.map((d, i) => [d, i])
    .sort((a, b) => (a[0].left_ms - b[0].left_ms) || (a[1] - b[1]))
    .map(([d]) => d);
}

function toggleOrder() {
  byTimeLeft = !byTimeLeft;
  $("order").textContent = byTimeLeft ? "order: time left" : "order: arrival";
  $("order").setAttribute("aria-pressed", byTimeLeft ? "true" : "false");
  renderQueue();
}

// Whether a call passes the filter: a piece of its agent, session, tool or command.
function queueShown(d) {
  const f = $("filter").value.trim().toLowerCase();
  if (!f) return true;
  return [d.agent, d.session, d.tool, firstLine(d)]
    .some((x) => String(x || "").toLowerCase().includes(f));
}

// The checkbox that marks call d, for its row in the queue.
function markBox(d) {
  const box = el("input", null, "mark");
  box.type = "checkbox";
  box.checked = marked.has(d.id);
  box.setAttribute("aria-label", "mark #" + d.id + " for one answer to many");
  box.addEventListener("click", (e) => e.stopPropagation());
  box.addEventListener("change", () => toggle(d.id, box.checked));
  return box;
}

function toggle(id, on) {
  if (on) marked.add(id); else marked.delete(id);
  renderBatch();
  if (batchKind) previewBatch();
}

// The batch bar: how many are marked, the answers, and the box while one is chosen.
function renderBatch() {
  if (!state) return;
  const open = new Set(state.dialogs.map((d) => d.id));
  const before = marked.size;
  for (const id of [...marked]) if (!open.has(id)) marked.delete(id);
  // A marked call answered elsewhere leaves the list: it is asked for again.
  if (marked.size !== before && batchKind && marked.size > 0) previewBatch();
  $("mark-call").checked = marked.has(focused);
  $("batch").hidden = marked.size === 0 && !$("batch-said").textContent;
  $("batch-count").textContent = marked.size + " marked";
  $("batch-buttons").hidden = marked.size === 0 || batchKind !== null;
  if (marked.size === 0 && batchKind) closeBatch();
}

function describe(id) {
  const d = state.dialogs.find((x) => x.id === id);
  return "#" + id + (d ? " " + d.agent + " · " + firstLine(d) : "");
}

function openBatch(kind) {
  batchKind = kind;
  $("batch-said").textContent = "";
  $("batch-box").hidden = false;
  $("batch-text").hidden = kind !== "note" && kind !== "deny";
  $("batch-label").textContent = {
    allow: "Allow each marked call once",
    note: "Allow each with this note for its model",
    always: "Allow each, and what its own “always” proposes for its session",
    deny: "Deny each with this reason (empty: “denied by user”)",
  }[kind];
  $("batch-text").value = "";
  renderBatch();
  previewBatch();
}

function closeBatch() {
  batchKind = null;
  batchListed = [];
  $("batch-box").hidden = true;
  $("batch-plan").replaceChildren();
  renderBatch();
}

// Which marked calls would get the answer and which are left out and why, as the console works
// it out, listed before Send.
let previewing = 0;
async function previewBatch() {
  if (!batchKind || marked.size === 0) return;
  const asked = ++previewing;
  const reply = await api("/api/batch",
    { ids: [...marked], answer: batchKind, text: $("batch-text").value, preview: true });
  if (asked !== previewing || !batchKind) return;
  if (!reply.ok) { $("batch-said").textContent = reply.data.error || "refused"; return; }
  batchListed = reply.data.included;
  const lines = [el("li", batchListed.length + " of " + marked.size + " marked get " + reply.data.answer + ":")];
  for (const id of batchListed) lines.push(el("li", "✓ " + describe(id), "included"));
  for (const left of reply.data.left) lines.push(el("li", "– " + describe(left.id) + ": " + left.why, "left"));
  $("batch-plan").replaceChildren(...lines);
  $("batch-send").disabled = batchListed.length === 0;
}

async function sendBatch() {
  if (!batchKind || batchListed.length === 0) return;
  const reply = await api("/api/batch",
    { ids: batchListed, answer: batchKind, text: $("batch-text").value });
  if (!reply.ok) { $("batch-said").textContent = reply.data.error || "refused"; return; }
  for (const id of reply.data.answered) marked.delete(id);
  $("batch-said").textContent = reply.data.said;
  closeBatch();
}

// The filter changed: the call shown follows it (app.js's keepFocusShown), then the page.
function followFilter() {
  if (!state) return;
  keepFocusShown();
  renderQueue();
  renderCall();
  renderBatch();
}

function wireBatch() {
  $("filter").addEventListener("input", followFilter);
  $("order").addEventListener("click", toggleOrder);
  $("filter").addEventListener("keydown", (e) => {
    if (e.key === "Escape") { $("filter").value = ""; followFilter(); }
  });
  $("mark-call").addEventListener("change", () => { if (focused !== null) toggle(focused, $("mark-call").checked); });
  for (const kind of ["allow", "note", "always", "deny"]) {
    $("batch-" + kind).addEventListener("click", () => openBatch(kind));
  }
  $("batch-clear").addEventListener("click", () => { marked.clear(); closeBatch(); renderQueue(); });
  $("batch-cancel").addEventListener("click", closeBatch);
  $("batch-text").addEventListener("input", previewBatch);
  $("batch-box").addEventListener("submit", (e) => { e.preventDefault(); sendBatch(); });
}
