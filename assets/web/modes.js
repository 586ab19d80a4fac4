// Modes beside the global one, on the page: the global mode for a while (with what is left
// of it), a call's session or agent given its own mode, and how long an "always" lasts. The
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

  // The "always" box offers how long it lasts.
  function openedBox(kind) {
    const lasts = $("lasts");
    lasts.hidden = kind !== "always";
    if (lasts.hidden) return;
    lasts.replaceChildren(option("", "while the console runs"),
      ...((state.beside || {}).whiles || []).filter((s) => s <= 3600)
        .map((s) => option(s, "for " + whileText(s))));
  }

  function lastsSecs() {
    const lasts = $("lasts");
    return lasts.hidden || !lasts.value ? null : Number(lasts.value);
  }

  window.gatehouseModes = { renderBeside, renderOwn, openedBox, lastsSecs };
})();
