(function () {
  "use strict";
  const $ = (s) => document.querySelector(s);
  function el(tag, attrs, ...kids) {
    const n = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "text") n.textContent = v;
      else if (k === "style") n.style.cssText = v; // the CSP (style-src 'self') refuses style attributes, not the CSSOM
      else if (k.startsWith("on")) n.addEventListener(k.slice(2), v);
      else n.setAttribute(k, v === true ? "" : String(v));
    }
    for (const c of kids.flat()) if (c !== null && c !== undefined && c !== false) n.append(c instanceof Node ? c : String(c));
    return n;
  }

  let statusTimer = null;
  function status(text, kind) {
    const s = $("#status");
    s.textContent = text || "";
    s.dataset.kind = kind || "info";
    clearTimeout(statusTimer);
    if (text && kind !== "error") statusTimer = setTimeout(() => { s.textContent = ""; }, 4000);
  }

  const key = new URLSearchParams(location.hash.slice(1)).get("key");
  if (!key) {
    $("#key-panel").hidden = false;
    $("#key-form").addEventListener("submit", (ev) => {
      ev.preventDefault();
      const k = $("#key-input").value.trim();
      if (k) { location.hash = "key=" + encodeURIComponent(k); location.reload(); }
    });
    return;
  }
  window.addEventListener("hashchange", () => location.reload());

  async function api(method, path, body) {
    const r = await fetch(path, {
      method,
      headers: Object.assign({ Authorization: "Bearer " + key }, body ? { "Content-Type": "application/json" } : {}),
      body: body ? JSON.stringify(body) : undefined,
      cache: "no-store",
    });
    let data = null;
    try { data = await r.json(); } catch (e) { data = null; }
    return { status: r.status, data: data || {} };
  }

  function refusal(r) {
    const d = r.data || {};
    if (r.status === 401) return "The lobby refused the key (" + (d.error || r.status) + "): open the address fray serve printed.";
    return (d.message || "the server answered " + r.status) + (d.error ? " (" + d.error + ")" : "");
  }

  // ------------------------------------------------------------ lists

  async function loadGames() {
    const r = await api("GET", "/api/games");
    if (r.status !== 200) { status(refusal(r), "error"); return; }
    $("#games-panel").hidden = false;
    const games = r.data.games || [];
    $("#no-games").hidden = games.length > 0;
    $("#games tbody").replaceChildren(...games.slice().reverse().map((g) => el("tr", { "data-game": g.game },
      el("td", { class: "num", text: g.game }),
      el("td", {}, el("b", { text: g.title || "(untitled)" }), el("br"), el("span", { class: "muted", text: g.encounter || "" })),
      el("td", { text: g.ruleset }),
      el("td", { class: "num", text: g.steps }),
      el("td", {}, g.open ? el("span", { class: "tag", text: "open" }) : null, g.open ? " " : null,
        g.over && !/^over\b/i.test(g.position || "") ? "over" + (g.position ? ": " : "") : "", g.position || ""),
      el("td", { class: "actions" },
        g.open
          ? [el("button", { type: "button", "data-open-game": g.game, onclick: () => showTable(g.game) }, "Links"), " ",
             el("button", { type: "button", class: "danger", "data-close-game": g.game, onclick: () => closeTable(g.game) }, "Close")]
          : el("button", { type: "button", "data-open-game": g.game, onclick: () => openTable({ game: g.game }) }, g.over ? "Open (over)" : "Open")))));
  }

  async function loadEncounters() {
    const r = await api("GET", "/api/encounters");
    if (r.status !== 200) { status(refusal(r), "error"); return; }
    $("#new-panel").hidden = false;
    const list = r.data.encounters || [];
    const sel = $("#encounter");
    const groups = new Map();
    for (const e of list) {
      const dir = e.includes("/") ? e.slice(0, e.lastIndexOf("/")) : "";
      if (!groups.has(dir)) groups.set(dir, []);
      groups.get(dir).push(e);
    }
    sel.replaceChildren(el("option", { value: "", text: list.length ? "pick an encounter…" : "no encounter files found" }),
      ...[...groups].map(([dir, es]) => el("optgroup", { label: dir || "." }, ...es.map((e) => el("option", { value: e, text: e.slice(e.lastIndexOf("/") + 1) })))));
  }

  // ------------------------------------------------------------ opening a table

  let pendingStart = null; // {body, faces, want}

  async function openTable(body) {
    status("Opening…");
    $("#open").disabled = true;
    let r;
    try { r = await api("POST", "/api/tables", body); } finally { $("#open").disabled = false; }
    if (r.status === 422 && r.data.error === "needs-dice" && r.data.dice) {
      pendingStart = { body, faces: body.faces || [], want: r.data.dice };
      askStartDice();
      status("");
      return;
    }
    if (r.status !== 200) {
      if (pendingStart && r.data.error === "bad-dice") { askStartDice(); status(refusal(r), "error"); return; }
      status(refusal(r), "error");
      return;
    }
    pendingStart = null;
    $("#start-dice").hidden = true;
    status("");
    showLinks(r.data);
    loadGames();
  }

  function askStartDice() {
    const p = pendingStart, w = p.want;
    const box = $("#start-dice");
    const draw = w.kind === "draw";
    const n = w.count || 1;
    const input = el("input", { id: "start-faces", inputmode: "numeric", autocomplete: "off", placeholder: draw ? "the card drawn" : n + " number" + (n > 1 ? "s" : "") + " from 1 to " + w.sides });
    box.replaceChildren(el("div", { class: "dice" },
      el("p", {}, "The fight's start needs dice: ", el("b", { text: draw ? "draw " + (n === 1 ? "a card" : n + " cards") : "roll " + n + "d" + w.sides }), w.why ? " for " + w.why : "", "."),
      p.faces.length ? el("p", { class: "muted", text: "Faces so far: " + p.faces.join(" ") }) : null,
      draw && w.cards ? el("p", { class: "cards-left" }, "In the deck: ", ...w.cards.map((c) => el("button", { type: "button", class: "dcard", onclick: () => { input.value = (input.value + " " + c).trim(); } }, String(c)))) : null,
      el("div", { class: "command-form" }, input,
        el("button", { id: "start-send", type: "button", class: "primary", onclick: sendStartDice }, "Send the faces"),
        el("button", { type: "button", onclick: () => { pendingStart = null; box.hidden = true; } }, "Cancel"))));
    input.addEventListener("keydown", (ev) => { if (ev.key === "Enter") { ev.preventDefault(); sendStartDice(); } });
    box.hidden = false;
    input.focus();
  }

  function sendStartDice() {
    const p = pendingStart, w = p.want;
    const faces = $("#start-faces").value.split(/[\s,]+/).filter(Boolean).map(Number);
    const n = w.count || 1;
    if (faces.length !== n || faces.some((x) => !Number.isInteger(x))) { status("Type " + n + " whole number" + (n > 1 ? "s" : "") + ".", "error"); return; }
    if (w.kind !== "draw" && w.sides && faces.some((x) => x < 1 || x > w.sides)) { status("Each face is from 1 to " + w.sides + ".", "error"); return; }
    openTable(Object.assign({}, p.body, { faces: p.faces.concat(faces) }));
  }

  $("#new-table").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const body = {};
    const file = $("#encounter-file").files[0];
    if (file) {
      if (file.size > 60 * 1024) { status("That file is too large to send (at most about 60 KiB).", "error"); return; }
      body.encounter_text = await file.text();
      body.name = file.name;
    } else if ($("#encounter").value) body.encounter = $("#encounter").value;
    else { status("Pick an encounter, or a file.", "error"); return; }
    const seed = $("#seed").value.trim();
    if (seed) {
      if (!/^\d+$/.test(seed)) { status("The seed is a whole number.", "error"); return; }
      body.seed = Number(seed);
    }
    body.dice = document.querySelector('input[name="dice"]:checked').value;
    const ai = $("#ai").value.split(/[\s,]+/).filter(Boolean);
    if (ai.length) body.ai = ai;
    pendingStart = null;
    openTable(body);
  });

  $("#encounter-file").addEventListener("change", () => { if ($("#encounter-file").files[0]) $("#encounter").value = ""; });
  $("#encounter").addEventListener("change", () => { if ($("#encounter").value) $("#encounter-file").value = ""; });

  async function showTable(game) {
    const r = await api("GET", "/api/tables/" + game);
    if (r.status !== 200) { status(refusal(r), "error"); return; }
    showLinks(r.data);
  }

  async function closeTable(game) {
    if (!confirm("Close table " + game + "? The game stays saved; everyone at it is told.")) return;
    const r = await api("DELETE", "/api/tables/" + game);
    if (r.status !== 200 && r.status !== 204) { status(refusal(r), "error"); return; }
    status("Table " + game + " closed.");
    if ($("#opened-panel").dataset.game === String(game)) $("#opened-panel").hidden = true;
    loadGames();
  }

  function showLinks(t) {
    const panel = $("#opened-panel");
    panel.hidden = false;
    panel.dataset.game = t.game;
    $("#opened-title").textContent = "Table " + t.game + ": " + (t.title || "") + " (" + t.ruleset + (t.dice === "typed" ? ", typed dice" : "") + ")";
    const links = (t.links || []).map((l) => Object.assign({}, l, { abs: new URL(l.url, location.href).href }));
    const gm = links.find((l) => l.seat === "gm");
    $("#gm-open").replaceChildren(...(gm
      ? [el("a", { class: "button primary", href: gm.abs, target: "_blank", rel: "noopener noreferrer", "data-open-link": "gm" }, "Open the GM's table"),
         el("button", { type: "button", "data-copy-link": "gm", onclick: (ev) => copy(gm.abs, ev.currentTarget) }, "Copy the GM's link")]
      : [el("span", { class: "muted", text: "This table has no GM seat link." })]));
    $("#opened").replaceChildren(...links.filter((l) => l.seat !== "gm").map((l) => el("li", { "data-link": l.seat },
      el("span", { class: "lseat", text: l.seat }),
      el("span", { class: "lurl muted", text: (l.ai ? "AI plays · " : "") + l.abs.replace(/#.*$/, "#token=…") }),
      el("button", { type: "button", "data-copy-link": l.seat, onclick: (ev) => copy(l.abs, ev.currentTarget) }, "Copy link"),
      el("a", { class: "button", href: l.abs, target: "_blank", rel: "noopener noreferrer", "data-open-link": l.seat }, "Open"))));
    panel.scrollIntoView({ block: "start", behavior: "smooth" });
  }

  function copy(text, btn) {
    const done = () => { const old = btn.textContent; btn.textContent = "Copied"; setTimeout(() => { btn.textContent = old; }, 1500); };
    const fallback = () => {
      const t = el("textarea", { readonly: true, style: "position:fixed;left:-9999px;top:0" });
      t.value = text; document.body.append(t); t.select();
      let ok = false;
      try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
      t.remove();
      if (ok) done(); else status("Copy did not work here: use Open and copy the address.", "error");
    };
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(text).then(done, fallback);
    else fallback();
  }

  loadGames();
  loadEncounters();
})();
