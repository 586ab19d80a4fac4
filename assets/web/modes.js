// Modes beside the global one, on the page: the global mode for a while (with what is left
// of it), a call's session or agent given its own mode, and where and how long an "always"
// lasts. The
// server checks everything again (allow-all asks to be confirmed; only the offered whiles).
"use strict";

(function () {
  const MODES = ["allow-all", "allow-read", "auto", "auto+mcp", "block-all", "plan"];

  function whileText(secs) {
    return secs % 3600 === 0 ? secs / 3600 + " h" : secs / 60 + " min";
  }

  function option(value, text) {
    const o = document.createElement("option");
    o.value = value;
    o.textContent = text;
    return o;
  }

  async function confirmed(path, body, mode) {
    let reply = await api(path, body);
    if (!reply.ok && reply.data.confirm && mode === "allow-all"
      && window.confirm(reply.data.confirm + "?")) {
      reply = await api(path, Object.assign({ confirm: true }, body));
    }
    if (!reply.ok) $("answer-error").textContent = reply.data.error || ("refused (" + reply.status + ")");
  }

  // What is left of the global mode's while, and a control to set one.
  function renderBeside(snapshot) {
    const beside = snapshot.beside || {};
    const box = $("mode-while");
    const timer = beside.timer;
    const parts = [];
    if (timer) {
      const mins = Math.ceil(timer.secs_left / 60);
      parts.push(document.createTextNode(timer.mode + " for " + mins + " min more, then " + timer.back_to + ". "));
    }
    const mode = document.createElement("select");
    mode.setAttribute("aria-label", "mode for a while");
    MODES.forEach((m) => mode.append(option(m, m)));
    mode.value = "auto";
    const secs = document.createElement("select");
    secs.setAttribute("aria-label", "for how long");
    (beside.whiles || []).forEach((s) => secs.append(option(s, "for " + whileText(s))));
    if (secs.options.length > 1) secs.value = secs.options[1].value;
    const go = el("button", "Set for a while");
    go.addEventListener("click", () => confirmed("/api/mode-while",
      { mode: mode.value, secs: Number(secs.value) }, mode.value));
    parts.push(mode, secs, go);
    box.replaceChildren(...parts);
  }

  // The call's session or agent: its own mode, and a control to give one.
  function renderOwn(d) {
    const own = ((state.beside || {}).own || {})[String(d.id)];
    const box = $("own-mode");
    const said = own ? "this " + own.of + "'s own mode: " + own.mode + " (not the global " + state.mode + ")"
      : "this session follows the global mode";
    const whom = document.createElement("select");
    whom.setAttribute("aria-label", "whose mode");
    whom.append(option("session", "this session"), option("agent", "every session of this agent"));
    const mode = document.createElement("select");
    mode.setAttribute("aria-label", "its mode");
    mode.append(option("", "the global mode"));
    MODES.forEach((m) => mode.append(option(m, m)));
    const go = el("button", "Give it this mode");
    go.addEventListener("click", () => confirmed("/api/scope-mode",
      { id: d.id, whom: whom.value, mode: mode.value || null }, mode.value));
    box.replaceChildren(document.createTextNode(said + ". "), whom, mode, go);
  }

  // The "always" box offers where it lasts (the scopes the console says this call can have)
  // and how long; the server checks both again.
  function openedBox(kind) {
    const scope = $("always-scope");
    scope.hidden = $("lasts").hidden = kind !== "always";
    if (kind !== "always") return;
    const d = current();
    const choices = (d && d.always.choices) || { scopes: ["session"], whiles: [] };
    const words = { session: "for this agent session", everyone: "for everyone, saved",
      project: "for this project (" + choices.project + "), saved" };
    scope.replaceChildren(...choices.scopes.map((s) => option(s, words[s])));
    scope.onchange = () => { fillLasts(choices); window.gatehouseAlwaysChanged(); };
    fillLasts(choices);
  }

  // A session's always lasts while the console runs; a saved one always, or until it quits.
  function fillLasts(choices) {
    const saved = $("always-scope").value !== "session";
    const lasts = $("lasts");
    lasts.replaceChildren(option("", saved ? "always" : "while the console runs"),
      ...choices.whiles.map((s) => option(s, "for " + whileText(s))),
      ...(saved ? [option("quit", "until the console quits (kept in its memory only)")] : []));
  }

  // What the "always" box chose, as /api/answer takes it.
  function alwaysChoice() {
    const lasts = $("lasts").value;
    return {
      scope: $("always-scope").value || "session",
      lasts_secs: lasts && lasts !== "quit" ? Number(lasts) : null,
      until_quit: lasts === "quit",
    };
  }

  window.gatehouseModes = { renderBeside, renderOwn, openedBox, alwaysChoice };
})();
