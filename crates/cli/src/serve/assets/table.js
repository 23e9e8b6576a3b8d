// fray's table page: one seat's view of one table, over the websocket of docs/serve-protocol.md.
// Plain script, no build step, no dependency; the server embeds it as it is.
//
// Selectors (stable, for tests and for people reading the page):
//   #title, #where            the game's title; ruleset, seat, round and phase
//   #conn[data-conn]          the connection: connecting | live | reconnecting | closed
//   #banner                   the fight's outcome, or "the table was closed"
//   #map svg                  the battlefield; svg[data-kind="grid"|"zones"]
//   [data-square="x,y"]       a square of a grid (its cell); .can when a choice belongs to it
//   [data-zone="ford"]        a zone's box; .can when a choice belongs to it
//   [data-border="a|b"]       the link between two zones (its line); .can likewise
//   [data-token="korrin"]     a combatant's token on the map (.acting, .out, .can)
//   #unplaced [data-unplaced="id"]  combatants without a place
//   #order li[data-order="id"]      the turn order (.acting, .out)
//   #prompt, #deciding        the decision now, and which seats still decide ([data-deciding="seat"])
//   #timer                    a declaration timer's countdown ([data-seconds] as armed)
//   #choices                  the legal answers while it is this seat's decision
//   [data-choice="attack biffer"]   one answer's button (.hl when a map click points at it)
//   #choices [data-verb="stance"]   a row of answers sharing their first word(s)
//   #choices details.group[data-key="move ‹square›"]  many answers differing in a square, folded
//   #choices details.more     the rarely meant answers, folded under "more…"
//   #command-form, #command, #send   the free-text command box
//   #dice, #dice-faces, #dice-send, #dice-cancel, [data-dice-card="7"]   typed dice
//   #menu [data-menu-choice="..."]  the small menu of a map click with several answers
//   #cards article[data-card="id"]  a combatant's card; [data-gauge="name"], [data-status="name"]
//   #extra                    the ruleset's own `extra` view, folded
//   #log li                   the seat's log, one line each
//   #seats li[data-seat="name"]     the table's seats (AI, clients)
//   #gm-panel                 the GM's controls (only for the GM):
//     #undo, #redo, #end-fight, #ruling-form, #ruling, #rule,
//     [data-seat-ai="monsters"] (aria-pressed = AI on), #links li[data-link="seat"],
//     [data-copy-link="seat"], [data-open-link="seat"]
//   #status[data-kind="error"|"info"]  the last error or notice
//
// Map clicks: a choice belongs to the square written `x,y` among its words (after the first),
// to each combatant whose id is one of its words (or part of an `id,id` list), to each zone
// whose id is one, and to the border `a|b` of two zones. A click on a place with one choice
// sends it; with several it opens #menu; either way the buttons light up (.hl). A token's own
// choices come first; a token with none passes the click to its square, zone or border.
//
// The seat's token is read from location.hash (#token=...), sent only in `hello`, and kept
// nowhere else: never in a URL sent to the server, never in storage, never in the console.

(function () {
  "use strict";

  // ---------------------------------------------------------------- small helpers

  const SVGNS = "http://www.w3.org/2000/svg";

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    setAttrs(node, attrs);
    append(node, children);
    return node;
  }

  function sv(tag, attrs, ...children) {
    const node = document.createElementNS(SVGNS, tag);
    setAttrs(node, attrs);
    append(node, children);
    return node;
  }

  function setAttrs(node, attrs) {
    if (!attrs) return;
    for (const [k, v] of Object.entries(attrs)) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") node.setAttribute("class", v);
      else if (k === "style") node.style.cssText = v; // the CSP (style-src 'self') refuses style attributes, not the CSSOM
      else if (k === "text") node.textContent = v;
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v === true ? "" : String(v));
    }
  }

  function append(node, children) {
    for (const c of children.flat(Infinity)) {
      if (c === null || c === undefined || c === false) continue;
      node.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
  }

  const $ = (sel) => document.querySelector(sel);

  // Replaces a node's children (null, false and nested arrays allowed, as in el()).
  function put(node, ...children) {
    node.replaceChildren();
    append(node, children);
  }

  function words(s) {
    return String(s).replace(/[-_]+/g, " ");
  }

  // ---------------------------------------------------------------- state

  const token = new URLSearchParams(location.hash.slice(1)).get("token");

  const st = {
    ws: null,
    welcome: null,
    frame: null, // the last state frame
    board: null, // the last board seen
    log: [],
    nextId: Date.now(),
    busy: null, // id of the command waiting for its answer
    dice: null, // typed dice being asked: {mode: "command"|"ai", text, faces, tryFaces, want, id}
    closed: false, // the table was closed, or the token refused: no reconnecting
    retry: 0,
    retryTimer: null,
    openDetails: new Set(),
    highlight: new Set(),
    layoutKey: null,
    layout: null,
  };

  function newId() {
    // Larger than every id sent before, by this page or an earlier load of it.
    st.nextId = Math.max(st.nextId + 1, Date.now());
    return st.nextId;
  }

  // ---------------------------------------------------------------- status line

  let statusTimer = null;
  function status(text, kind) {
    const s = $("#status");
    s.textContent = text || "";
    s.dataset.kind = kind || "info";
    s.hidden = !text;
    clearTimeout(statusTimer);
    if (text && kind !== "error") statusTimer = setTimeout(() => { s.hidden = true; }, 4000);
  }

  function banner(text, kind) {
    const b = $("#banner");
    b.textContent = text || "";
    b.dataset.kind = kind || "info";
    b.hidden = !text;
  }

  function setConn(state, text) {
    const c = $("#conn");
    c.dataset.conn = state;
    c.textContent = text;
  }

  // ---------------------------------------------------------------- connection

  function connect() {
    if (!token) {
      setConn("closed", "no token");
      banner("This page needs a join link: its address ends in #token=…. Ask the GM for yours.", "error");
      return;
    }
    clearTimeout(st.retryTimer);
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(scheme + "//" + location.host + "/ws");
    st.ws = ws;
    setConn(st.retry ? "reconnecting" : "connecting", st.retry ? "reconnecting…" : "connecting…");
    ws.onopen = () => {
      ws.send(JSON.stringify({ type: "hello", token: token }));
    };
    ws.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch (e) { return; }
      onMessage(msg);
    };
    ws.onclose = () => {
      if (st.ws !== ws) return;
      st.ws = null;
      st.busy = null;
      if (st.closed) { setConn("closed", "closed"); return; }
      const wait = Math.min(10000, 500 * Math.pow(2, st.retry));
      st.retry += 1;
      setConn("reconnecting", "reconnecting…");
      st.retryTimer = setTimeout(connect, wait);
    };
  }

  function send(msg) {
    if (!st.ws || st.ws.readyState !== WebSocket.OPEN) {
      status("Not connected: the message was not sent. Reconnecting…", "error");
      return null;
    }
    msg.id = newId();
    st.ws.send(JSON.stringify(msg));
    return msg.id;
  }

  function onMessage(msg) {
    switch (msg.type) {
      case "welcome": return onWelcome(msg);
      case "state": return onState(msg);
      case "ok": return onOk(msg);
      case "error": return onError(msg);
      case "closed":
        st.closed = true;
        document.body.classList.add("table-closed");
        banner("The table was closed" + (msg.message ? ": " + msg.message : "."), "closed");
        setConn("closed", "closed");
        if (st.ws) st.ws.close();
        return;
      default: return;
    }
  }

  function onWelcome(w) {
    st.welcome = w;
    st.retry = 0;
    st.log = [];
    put($("#log"));
    st.dice = null;
    setConn("live", "live");
    document.title = (w.title || "fray") + " · " + w.seat;
    $("#title").textContent = w.title || "fray";
    $("#gm-panel").hidden = !w.gm;
    document.body.classList.toggle("is-gm", !!w.gm);
    if ($("#banner").dataset.kind === "error") banner("");
  }

  function onOk(m) {
    if (st.busy !== null && m.id === st.busy) st.busy = null;
    if (st.dice && st.dice.id === m.id) { st.dice = null; renderDice(); }
    if ($("#status").dataset.kind === "error") status("");
    renderChoicesBusy();
  }

  function onError(e) {
    const mine = e.id !== null && e.id !== undefined && e.id === st.busy;
    if (mine) st.busy = null;
    renderChoicesBusy();
    if (e.code === "bad-token" || e.code === "no-table") {
      st.closed = true;
      document.body.classList.add("table-closed");
      banner(e.code === "bad-token" ? "This join link is not (or no longer) valid." : "The table was closed.", "error");
      setConn("closed", "closed");
      if (st.ws) st.ws.close();
      return;
    }
    if (st.dice && e.id === st.dice.id) {
      if (e.code === "needs-dice" && e.dice) {
        // The faces sent so far were taken; ask for the next roll.
        st.dice.faces = st.dice.tryFaces;
        st.dice.want = e.dice;
        st.dice.id = null;
        renderDice();
        status("");
        return;
      }
      if (e.code === "bad-dice") {
        st.dice.id = null; // ask again for the same roll, with the faces that were good
        renderDice();
        status(e.message || "Those faces cannot be: type them again.", "error");
        return;
      }
      st.dice = null;
      renderDice();
    } else if (e.code === "needs-dice" && e.dice && st.lastCommand && e.id === st.lastCommand.id) {
      st.dice = { mode: "command", text: st.lastCommand.text, faces: [], tryFaces: [], want: e.dice, id: null };
      renderDice();
      status("");
      return;
    }
    let text = e.message || e.code;
    if (e.code && e.message) text = e.message + " (" + e.code + (e.rule_code ? ", " + e.rule_code : "") + ")";
    status(text, "error");
  }

  // ---------------------------------------------------------------- sending

  function sendCommand(text) {
    text = String(text).trim();
    if (!text) return;
    closeMenu();
    if (st.dice && st.dice.mode === "command") { st.dice = null; renderDice(); }
    const id = send({ type: "command", text: text });
    if (id === null) return;
    st.busy = id;
    st.lastCommand = { id: id, text: text };
    renderChoicesBusy();
  }

  function sendDice(faces) {
    const d = st.dice;
    const all = d.faces.concat(faces);
    let id;
    if (d.mode === "ai") id = send({ type: "ai-faces", faces: all });
    else id = send({ type: "command", text: d.text, faces: all });
    if (id === null) return;
    d.tryFaces = all;
    d.id = id;
    if (d.mode === "command") { st.busy = id; st.lastCommand = { id: id, text: d.text }; }
    renderDice();
  }

  // ---------------------------------------------------------------- the state frame

  function onState(f) {
    if (f.board) st.board = f.board;
    const from = typeof f.log_from === "number" ? f.log_from : st.log.length;
    const lines = Array.isArray(f.log) ? f.log : [];
    const logEl = $("#log");
    const atBottom = logEl.scrollHeight - logEl.scrollTop - logEl.clientHeight < 40;
    if (from === 0 || from < st.log.length) {
      st.log.length = Math.min(st.log.length, from);
      while (logEl.children.length > st.log.length) logEl.lastElementChild.remove();
    }
    for (const line of lines) {
      st.log.push(line);
      logEl.append(el("li", { text: line }));
    }
    if (atBottom || from === 0) logEl.scrollTop = logEl.scrollHeight;

    st.frame = f;
    st.highlight.clear();
    closeMenu();
    render();
  }

  function render() {
    const f = st.frame;
    if (!f || !f.view) return;
    const v = f.view;
    index(v);
    renderHeader(v);
    renderOutcome(v);
    renderPrompt(f, v);
    renderChoices(f);
    renderMap(v);
    renderOrder(v);
    renderSeats(f);
    renderCards(v);
    renderGm(f);
    renderAiDice(f);
  }

  // Lookups for the current view and board.
  const ix = { byId: new Map(), sides: [], label: new Map(), zones: new Map(), choiceKeys: new Map(), keyChoices: new Map() };

  function index(v) {
    ix.byId = new Map(v.combatants.map((c) => [c.id, c]));
    ix.sides = [];
    for (const c of v.combatants) if (!ix.sides.includes(c.side)) ix.sides.push(c.side);
    for (const id of v.order) if (!ix.byId.has(id) && !ix.sides.includes(id)) ix.sides.push(id);
    ix.board = st.board || guessBoard(v);
    ix.zones = new Map();
    if (ix.board && ix.board.kind === "zones") for (const z of ix.board.zones || []) ix.zones.set(z.id, z);
    ix.label = tokenLabels(v.combatants);
    // Which map places each choice belongs to.
    ix.choiceKeys = new Map();
    ix.keyChoices = new Map();
    const p = st.frame.pending;
    const choices = p && p.mine ? p.choices || [] : [];
    for (const ch of choices) {
      const keys = placeKeys(ch.text);
      ix.choiceKeys.set(ch.text, keys);
      for (const k of keys) {
        if (!ix.keyChoices.has(k)) ix.keyChoices.set(k, []);
        ix.keyChoices.get(k).push(ch);
      }
    }
  }

  // The places a choice's words name: "sq:3,4", "tok:korrin", "zone:ford", "border:bank|ford".
  function placeKeys(text) {
    const keys = [];
    const ws = String(text).split(/\s+/).slice(1); // the first word is the verb
    for (const w of ws) {
      if (/^-?\d+,-?\d+$/.test(w)) { keys.push("sq:" + w); continue; }
      if (w.includes("|")) {
        const parts = w.split("|");
        if (parts.length === 2 && ix.zones.has(parts[0]) && ix.zones.has(parts[1])) keys.push("border:" + borderKey(parts));
        continue;
      }
      for (const part of w.split(",")) {
        if (ix.byId.has(part)) keys.push("tok:" + part);
        if (ix.zones.has(part)) keys.push("zone:" + part);
      }
    }
    return Array.from(new Set(keys));
  }

  function borderKey(zs) {
    return zs.slice().sort().join("|");
  }

  function sideIndex(side) {
    const i = ix.sides.indexOf(side);
    return i < 0 ? 0 : i % 6;
  }

  function nameOf(id) {
    const c = ix.byId.get(id);
    return c ? c.name : words(id);
  }

  // Short labels for tokens: initials, with the id's number where names repeat.
  function tokenLabels(cs) {
    const base = new Map();
    for (const c of cs) {
      const ini = c.name.split(/\s+/).filter((w) => /^[\p{L}\p{N}]/u.test(w)).map((w) => w[0].toUpperCase());
      base.set(c.id, (ini.length > 1 ? ini[0] + ini[ini.length - 1] : (c.name.slice(0, 2))).slice(0, 2));
    }
    const count = new Map();
    for (const b of base.values()) count.set(b, (count.get(b) || 0) + 1);
    const out = new Map();
    for (const c of cs) {
      let l = base.get(c.id);
      if (count.get(l) > 1) {
        const m = c.id.match(/(\d+)$/);
        l = m ? l[0] + m[1] : c.id.slice(0, 3);
      }
      out.set(c.id, l);
    }
    return out;
  }

  function placeText(p) {
    if (!p) return "not on the map";
    if (p.kind === "square") return p.x + "," + p.y + (p.elevation ? " (elevation " + p.elevation + ")" : "");
    if (p.kind === "zone") { const z = ix.zones.get(p.zone); return z ? z.name : p.zone; }
    if (p.kind === "border") return "between " + p.zones.map((id) => (ix.zones.get(id) || { name: id }).name).join(" and ");
    return "";
  }

  // ---------------------------------------------------------------- header, outcome, prompt

  function renderHeader(v) {
    const w = st.welcome || {};
    const bits = [v.ruleset, "seat " + v.seat + (w.gm ? " (GM)" : "")];
    $("#where").textContent = bits.join(" · ");
    $("#round").textContent = v.round ? "round " + v.round + (v.phase ? " · " + words(v.phase) : "") : (v.phase ? words(v.phase) : "before the first round");
  }

  function renderOutcome(v) {
    if (st.closed) return;
    if (v.outcome) {
      const w = v.outcome.winner;
      banner("The fight is over: " + (w ? words(w) + " win" : "a draw") + " (" + words(v.outcome.reason) + ").", "over");
    } else if ($("#banner").dataset.kind === "over") banner("");
  }

  function renderPrompt(f, v) {
    const p = f.pending;
    const prompt = $("#prompt");
    const dec = $("#deciding");
    document.body.classList.toggle("my-turn", !!(p && p.mine));
    if (!p) {
      prompt.textContent = v.outcome ? "The fight is over." : "Nothing to decide.";
      dec.textContent = "";
      return;
    }
    put(prompt,
      p.mine ? el("span", { class: "badge you", text: "your decision" }) : null,
      el("span", { text: p.prompt || (v.deciding && v.deciding.text) || "" }),
      f.timer ? el("span", { id: "timer", class: "badge", "data-seconds": String(f.timer.seconds) }) : null
    );
    startTimer(f.timer);
    const seats = p.deciding && p.deciding.length ? p.deciding : (v.deciding ? v.deciding.seats : []);
    const detail = v.deciding && v.deciding.text && v.deciding.text !== p.prompt ? v.deciding.text : "";
    const who = seats.length > 1 ? "Still deciding: " : "Deciding: ";
    put(dec,
      detail ? el("span", { class: "detail", text: detail }) : null,
      el("span", { class: "who" }, who, seats.map((s, i) => [i ? ", " : "", el("b", { "data-deciding": s, text: s })]),
        !p.mine && seats.length ? el("span", { class: "muted", text: " — waiting" }) : null)
    );
  }

  // A declaration timer (Murdham's chaos of combat): the server plays the timer's command when
  // it runs out; the page only counts down from the frame that armed it.
  let timerTick = null;
  function startTimer(t) {
    if (timerTick) { clearInterval(timerTick); timerTick = null; }
    const badge = $("#timer");
    if (!t || !badge) return;
    const end = Date.now() + t.seconds * 1000;
    const show = () => {
      const left = Math.max(0, Math.ceil((end - Date.now()) / 1000));
      badge.textContent = left + " s to declare";
      if (!left && timerTick) { clearInterval(timerTick); timerTick = null; }
    };
    show();
    timerTick = setInterval(show, 250);
  }

  // ---------------------------------------------------------------- choices

  function renderChoices(f) {
    const box = $("#choices");
    // keep folded groups as the person left them
    for (const d of box.querySelectorAll("details[data-key]")) {
      if (d.open) st.openDetails.add(d.dataset.key); else st.openDetails.delete(d.dataset.key);
    }
    const p = f.pending;
    const list = p && p.mine ? p.choices || [] : [];
    const dl = $("#choice-list");
    put(dl, ...list.slice(0, 500).map((c) => el("option", { value: c.text })));
    put(box);
    if (!list.length) { box.hidden = true; return; }
    box.hidden = false;
    const common = list.filter((c) => !c.rare);
    const rare = list.filter((c) => c.rare);
    box.append(...choiceGroups(common));
    if (rare.length) {
      const d = el("details", { class: "more", "data-key": "more" }, el("summary", { text: "more… (" + rare.length + ")" }), el("div", { class: "choice-list" }, ...choiceGroups(rare)));
      d.open = st.openDetails.has("more");
      box.append(d);
    }
    renderChoicesBusy();
  }

  // Choices that differ only in a square are folded into one group when there are many; other
  // choices sharing their first word (three or more) are one row of short buttons under it.
  function choiceGroups(list) {
    const isSq = (w) => /^-?\d+,-?\d+$/.test(w);
    const byTemplate = new Map();
    for (const c of list) {
      const key = c.text.split(/\s+/).map((w) => (isSq(w) ? "‹square›" : w)).join(" ");
      if (!byTemplate.has(key)) byTemplate.set(key, []);
      byTemplate.get(key).push(c);
    }
    const folded = new Set();
    for (const [key, g] of byTemplate) if (g.length >= 6 && key.includes("‹square›")) folded.add(key);
    const byVerb = new Map();
    for (const c of list) {
      const key = c.text.split(/\s+/).map((w) => (isSq(w) ? "‹square›" : w)).join(" ");
      if (folded.has(key)) continue;
      const verb = c.text.split(/\s+/)[0];
      if (!byVerb.has(verb)) byVerb.set(verb, []);
      byVerb.get(verb).push(c);
    }
    const out = [];
    const done = new Set();
    for (const c of list) {
      const key = c.text.split(/\s+/).map((w) => (isSq(w) ? "‹square›" : w)).join(" ");
      if (folded.has(key)) {
        if (done.has(key)) continue;
        done.add(key);
        const g = byTemplate.get(key);
        const d = el("details", { class: "group", "data-key": key },
          el("summary", {}, el("span", { class: "c-text", text: key }), el("span", { class: "c-note", text: g.length + " squares · or tap the map" })),
          el("div", { class: "choice-list" }, ...g.map((x) => choiceButton(x))));
        d.open = st.openDetails.has(key);
        out.push(d);
        continue;
      }
      const verb = c.text.split(/\s+/)[0];
      const g = byVerb.get(verb);
      if (g.length < 3 || g.some((x) => x.text === verb)) { out.push(choiceButton(c)); continue; }
      if (done.has("verb:" + verb)) continue;
      done.add("verb:" + verb);
      // a long row is split by its second word too (Hallowed Earth's `declare <who> ...`)
      const rows = new Map();
      for (const x of g) {
        const w2 = x.text.split(/\s+/)[1] || "";
        const k = g.length > 8 && w2 && !isSq(w2) ? verb + " " + w2 : verb;
        if (!rows.has(k)) rows.set(k, []);
        rows.get(k).push(x);
      }
      if (rows.size > g.length / 2) { rows.clear(); rows.set(verb, g); }
      for (const [label, xs] of rows) {
        out.push(el("div", { class: "verb-group" + (label.length > 10 ? " wide" : ""), "data-verb": label },
          el("span", { class: "verb", text: label }),
          el("div", { class: "pills" }, ...xs.map((x) => choiceButton(x, x.text.slice(label.length).trim() || x.text)))));
      }
    }
    return out;
  }

  function choiceButton(c, short) {
    return el("button", {
      type: "button", class: "choice" + (short ? " pill" : "") + (st.highlight.has(c.text) ? " hl" : ""), "data-choice": c.text,
      title: short ? c.text : null, "aria-label": c.text + (c.note ? ": " + c.note : ""),
      onclick: () => sendCommand(c.text),
    }, el("span", { class: "c-text", text: short || c.text }), c.note ? el("span", { class: "c-note", text: c.note }) : null);
  }

  let busyTimer = null;
  function renderChoicesBusy() {
    const busy = st.busy !== null;
    // never locked for long, even if an answer is lost
    clearTimeout(busyTimer);
    if (busy) busyTimer = setTimeout(() => { st.busy = null; renderChoicesBusy(); }, 8000);
    document.body.classList.toggle("busy", busy);
    for (const b of document.querySelectorAll("#choices button, #menu button")) b.disabled = busy;
  }

  function highlightChoices(chs) {
    st.highlight = new Set(chs.map((c) => c.text));
    for (const b of document.querySelectorAll("#choices [data-choice]")) b.classList.toggle("hl", st.highlight.has(b.dataset.choice));
    const first = document.querySelector("#choices .hl");
    if (first && first.offsetParent) first.scrollIntoView({ block: "nearest", behavior: "smooth" });
  }

  // ---------------------------------------------------------------- map clicks

  function choicesAt(keys) {
    for (const k of keys) {
      const chs = ix.keyChoices.get(k);
      if (chs && chs.length) return chs;
    }
    return [];
  }

  function clickPlace(keys, ev) {
    const f = st.frame;
    if (!f || !f.pending || !f.pending.mine) return;
    const chs = choicesAt(keys);
    if (!chs.length) { highlightChoices([]); return; }
    highlightChoices(chs);
    if (chs.length === 1) sendCommand(chs[0].text);
    else openMenu(chs, ev);
    ev.stopPropagation();
  }

  function openMenu(chs, ev) {
    const m = $("#menu");
    put(m,
      ...chs.map((c) => el("button", {
        type: "button", role: "menuitem", "data-menu-choice": c.text, onclick: () => sendCommand(c.text),
      }, el("span", { class: "c-text", text: c.text }), c.note ? el("span", { class: "c-note", text: c.note }) : null)),
      el("button", { type: "button", class: "menu-cancel", text: "cancel", onclick: closeMenu })
    );
    m.hidden = false;
    const w = m.offsetWidth, h = m.offsetHeight;
    const x = Math.max(8, Math.min(ev.clientX + 8, window.innerWidth - w - 8));
    const y = Math.max(8, Math.min(ev.clientY + 8, window.innerHeight - h - 8));
    m.style.left = x + "px";
    m.style.top = y + "px";
    renderChoicesBusy();
    const first = m.querySelector("button");
    if (first) first.focus({ preventScroll: true });
  }

  function closeMenu() {
    const m = $("#menu");
    if (m && !m.hidden) { m.hidden = true; put(m); }
  }

  document.addEventListener("click", (ev) => {
    const m = $("#menu");
    if (!m.hidden && !m.contains(ev.target)) closeMenu();
  });
  document.addEventListener("keydown", (ev) => { if (ev.key === "Escape") closeMenu(); });

  // ---------------------------------------------------------------- the map

  // Without a board from the server, a plain one guessed from where the combatants stand:
  // the squares around them, or their zones with the links their borders show.
  function guessBoard(v) {
    const places = v.combatants.map((c) => c.place).filter(Boolean);
    const sq = places.filter((p) => p.kind === "square");
    if (sq.length) {
      const xs = sq.map((p) => p.x), ys = sq.map((p) => p.y);
      const cells = [];
      for (let x = Math.min(...xs) - 1; x <= Math.max(...xs) + 1; x++)
        for (let y = Math.min(...ys) - 1; y <= Math.max(...ys) + 1; y++) cells.push({ x, y, elevation: null, terrain: [] });
      return { kind: "grid", cells, areas: [], guessed: true };
    }
    const zs = [], links = [], seen = new Set();
    for (const p of places) {
      const ids = p.kind === "zone" ? [p.zone] : p.kind === "border" ? p.zones : [];
      for (const id of ids) if (!zs.some((z) => z.id === id)) zs.push({ id, name: words(id), tags: [] });
      if (p.kind === "border" && !seen.has(borderKey(p.zones))) { seen.add(borderKey(p.zones)); links.push({ zones: p.zones.slice(), label: null, tags: [] }); }
    }
    return zs.length ? { kind: "zones", zones: zs, links, guessed: true } : null;
  }

  function renderMap(v) {
    const box = $("#map");
    const b = ix.board;
    const mine = !!(st.frame.pending && st.frame.pending.mine);
    let svg = null;
    if (b && b.kind === "grid") svg = gridMap(v, b, mine);
    else if (b && b.kind === "zones") svg = zoneMap(v, b, mine);
    put(box, svg || el("p", { class: "muted", text: b ? "This map cannot be drawn." : "No map yet." }),
      svg && b.guessed ? el("p", { class: "muted small", text: "The server sent no map: only where the combatants stand is shown." }) : null);
    // unplaced combatants
    const un = v.combatants.filter((c) => !c.place || (svg && !svg.querySelector('[data-token="' + cssEsc(c.id) + '"]')));
    $("#unplaced-wrap").hidden = !un.length;
    put($("#unplaced"), ...un.map((c) => {
      const keys = ["tok:" + c.id];
      const can = mine && choicesAt(keys).length;
      return el("li", {
        class: "chip" + (c.out ? " out" : "") + (isActor(c.id) ? " acting" : "") + (can ? " can" : ""),
        "data-unplaced": c.id, onclick: (ev) => clickPlace(keys, ev),
      }, tokenBadge(c), c.name, c.out ? el("span", { class: "muted", text: " out" }) : null);
    }));
  }

  function cssEsc(s) {
    return window.CSS && CSS.escape ? CSS.escape(s) : String(s).replace(/["\\]/g, "\\$&");
  }

  function isActor(id) {
    const d = st.frame.view.deciding;
    return !!(d && d.actor === id);
  }

  function tokenBadge(c) {
    return el("span", { class: "badge-token side-" + sideIndex(c.side) + (c.out ? " out" : ""), text: ix.label.get(c.id) || "?" });
  }

  function tokenSvg(c, x, y, r, mine) {
    const keys = ["tok:" + c.id];
    const can = mine && choicesAt(keys).length > 0;
    const cls = "token side-" + sideIndex(c.side) + (c.out ? " out" : "") + (isActor(c.id) ? " acting" : "") + (can ? " can" : "");
    const g = sv("g", { class: cls, "data-token": c.id, transform: "translate(" + x + " " + y + ")" },
      sv("title", { text: c.name + (c.out ? " (out)" : "") }),
      isActor(c.id) ? sv("circle", { class: "ring", r: r + 4 }) : null,
      sv("circle", { class: "disc", r: r }),
      sv("text", { class: "tlabel", "font-size": Math.round(r * 0.85), dy: "0.35em", text: ix.label.get(c.id) || "?" }));
    return { g, keys };
  }

  function mapSvg(kind, w, h) {
    const s = sv("svg", { viewBox: "0 0 " + w + " " + h, "data-kind": kind, role: "img", "aria-label": "the battlefield", preserveAspectRatio: "xMidYMid meet" });
    s.style.aspectRatio = w + " / " + h;
    s.append(sv("defs", {},
      sv("pattern", { id: "pat-blocked", width: 8, height: 8, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
        sv("rect", { width: 8, height: 8, fill: "#5d5a55" }), sv("line", { x1: 0, y1: 0, x2: 0, y2: 8, stroke: "#48453f", "stroke-width": 4 })),
      sv("pattern", { id: "pat-difficult", width: 10, height: 10, patternUnits: "userSpaceOnUse" },
        sv("path", { d: "M2 7 l2 -3 l2 3 M6 3 l1.5 -2 l1.5 2", fill: "none", stroke: "#6f7f3c", "stroke-width": 1 }))));
    return s;
  }

  const CELL = 44;

  function elevColor(e, lo, hi) {
    if (e === null || e === undefined || e === 0) return "#f3f1e9";
    if (e > 0) { const t = Math.min(1, e / Math.max(hi, 1)); return mix([243, 241, 233], [196, 168, 118], 0.25 + 0.75 * t); }
    const t = Math.min(1, -e / Math.max(-lo, 1));
    return mix([243, 241, 233], [140, 174, 204], 0.3 + 0.7 * t);
  }

  function mix(a, b, t) {
    return "rgb(" + a.map((x, i) => Math.round(x + (b[i] - x) * t)).join(",") + ")";
  }

  function gridMap(v, b, mine) {
    const cells = b.cells || [];
    if (!cells.length) return null;
    let minX = Infinity, maxX = -Infinity, minY = Infinity, maxY = -Infinity, lo = 0, hi = 0;
    for (const c of cells) {
      minX = Math.min(minX, c.x); maxX = Math.max(maxX, c.x); minY = Math.min(minY, c.y); maxY = Math.max(maxY, c.y);
      if (typeof c.elevation === "number") { lo = Math.min(lo, c.elevation); hi = Math.max(hi, c.elevation); }
    }
    const ML = 26, MT = 6, MB = 22, MR = 6;
    const W = ML + (maxX - minX + 1) * CELL + MR, H = MT + (maxY - minY + 1) * CELL + MB;
    // y grows north: the largest y is the top row
    const px = (x) => ML + (x - minX) * CELL;
    const py = (y) => MT + (maxY - y) * CELL;
    const s = mapSvg("grid", W, H);
    const gCells = sv("g", { class: "cells" });
    const gMarks = sv("g", { class: "marks" });
    for (const c of cells) {
      const key = c.x + "," + c.y;
      const terrain = c.terrain || [];
      const blocked = terrain.includes("blocked");
      const can = mine && choicesAt(["sq:" + key]).length > 0;
      const x = px(c.x), y = py(c.y);
      gCells.append(sv("rect", {
        class: "cell" + (blocked ? " blocked" : "") + (can ? " can" : ""), "data-square": key,
        x: x, y: y, width: CELL, height: CELL, fill: blocked ? "url(#pat-blocked)" : elevColor(c.elevation, lo, hi),
        onclick: (ev) => clickPlace(["sq:" + key], ev),
      }, sv("title", { text: key + (c.elevation ? " · elevation " + c.elevation : "") + (terrain.length ? " · " + terrain.join(", ") : "") })));
      if (terrain.includes("difficult")) gMarks.append(sv("rect", { x: x, y: y, width: CELL, height: CELL, fill: "url(#pat-difficult)", class: "mark" }));
      if (c.elevation) gMarks.append(sv("text", { class: "elev" + (blocked ? " on-dark" : ""), x: x + 3, y: y + 11, text: (c.elevation > 0 ? "+" : "") + c.elevation }));
      if (terrain.includes("cover")) gMarks.append(sv("path", { class: "cover-mark", d: "M" + (x + CELL - 13) + " " + (y + 4) + " h9 v5 q0 5 -4.5 7 q-4.5 -2 -4.5 -7 z" }));
      const others = terrain.filter((t) => t !== "blocked" && t !== "difficult" && t !== "cover");
      if (others.length) gMarks.append(sv("text", { class: "tmark", x: x + CELL - 3, y: y + CELL - 4, "text-anchor": "end", text: others.map((t) => t.slice(0, 4)).join(" ") }));
    }
    s.append(gCells);
    // areas
    const gAreas = sv("g", { class: "areas" });
    (b.areas || []).forEach((a, i) => {
      const g = sv("g", { class: "area area-" + (i % 5), "data-area": a.name });
      let top = null;
      for (const [x, y] of a.squares || []) {
        g.append(sv("rect", { x: px(x) + 1, y: py(y) + 1, width: CELL - 2, height: CELL - 2 }));
        if (!top || y > top[1] || (y === top[1] && x < top[0])) top = [x, y];
      }
      if (top) g.append(sv("text", { class: "area-name", x: px(top[0]) + 3, y: py(top[1]) + CELL - 5, text: a.name + (a.by ? " · " + nameOf(a.by) : "") }));
      gAreas.append(g);
    });
    s.append(gMarks, gAreas);
    const gAreaNames = sv("g", { class: "area-names" });
    for (const t of gAreas.querySelectorAll(".area-name")) gAreaNames.append(t);
    // axes
    const gAxes = sv("g", { class: "axes" });
    for (let x = minX; x <= maxX; x++) gAxes.append(sv("text", { x: px(x) + CELL / 2, y: H - 6, "text-anchor": "middle", text: x }));
    for (let y = minY; y <= maxY; y++) gAxes.append(sv("text", { x: ML - 5, y: py(y) + CELL / 2 + 4, "text-anchor": "end", text: y }));
    s.append(gAxes);
    // tokens: several on one square share it
    const at = new Map();
    for (const c of v.combatants) {
      if (!c.place || c.place.kind !== "square") continue;
      const k = c.place.x + "," + c.place.y;
      if (!at.has(k)) at.set(k, []);
      at.get(k).push(c);
    }
    const gTok = sv("g", { class: "tokens" });
    for (const [k, cs] of at) {
      const [x, y] = k.split(",").map(Number);
      const cx = px(x) + CELL / 2, cy = py(y) + CELL / 2;
      // the living on top of the fallen
      cs.sort((a, b) => Number(b.out) - Number(a.out));
      const n = cs.length;
      const r = n === 1 ? CELL * 0.36 : CELL * 0.23;
      const offs = n === 1 ? [[0, 0]] : cs.map((_, i) => { const a = (i / n) * 2 * Math.PI - Math.PI / 4; return [Math.cos(a) * CELL * 0.22, Math.sin(a) * CELL * 0.22]; });
      cs.forEach((c, i) => {
        const { g, keys } = tokenSvg(c, cx + offs[i][0], cy + offs[i][1], r, mine);
        g.addEventListener("click", (ev) => clickPlace(keys.concat(["sq:" + k]), ev));
        gTok.append(g);
      });
    }
    s.append(gTok, gAreaNames);
    return s;
  }

  // ---------------------------------------------------------------- zone maps

  const ZW = 184, ZHEAD = 46, ZTOK = 36, ZCOLS = 4, LAYER_GAP = 76, ROW_GAP = 34;

  function zoneSize(n) {
    const rows = Math.max(1, Math.ceil(n / ZCOLS));
    return { w: ZW, h: ZHEAD + rows * ZTOK + 4 };
  }

  function bfs(start, adj) {
    const dist = new Map([[start, 0]]);
    const q = [start];
    while (q.length) {
      const u = q.shift();
      for (const w of adj.get(u)) if (!dist.has(w)) { dist.set(w, dist.get(u) + 1); q.push(w); }
    }
    return dist;
  }

  // A deterministic layered layout: each connected part is walked breadth-first from one end of
  // its longest route, so links only join neighbouring layers (or zones of one layer); zones of a
  // layer are ordered by their neighbours in the layer before. Layers run left to right or top to
  // bottom, whichever fits the space better.
  function layoutZones(zones, links, sizes, room) {
    const ids = zones.map((z) => z.id);
    const adj = new Map(ids.map((id) => [id, []]));
    for (const l of links) {
      const [a, b] = l.zones;
      if (adj.has(a) && adj.has(b) && a !== b) { adj.get(a).push(b); adj.get(b).push(a); }
    }
    const layers = [];
    const seen = new Set();
    for (const first of ids) {
      if (seen.has(first)) continue;
      const part = bfs(first, adj);
      let far = first;
      for (const [id, d] of part) if (d > part.get(far)) far = id;
      const dist = bfs(far, adj);
      const base = layers.length;
      for (const id of ids) {
        if (!dist.has(id)) continue;
        seen.add(id);
        const L = base + dist.get(id);
        while (layers.length <= L) layers.push([]);
        layers[L].push(id);
      }
    }
    // order each layer by the mean place of its neighbours in the layer before
    for (let L = 1; L < layers.length; L++) {
      const prev = new Map(layers[L - 1].map((id, i) => [id, i]));
      const key = (id) => {
        const ns = adj.get(id).filter((n) => prev.has(n)).map((n) => prev.get(n));
        return ns.length ? ns.reduce((a, b) => a + b, 0) / ns.length : Infinity;
      };
      layers[L] = layers[L].map((id, i) => [id, key(id), i]).sort((a, b) => a[1] - b[1] || a[2] - b[2]).map((x) => x[0]);
    }
    const place = (horizontal) => {
      const pos = new Map();
      // the size of each layer across, and along
      const across = layers.map((ls) => ls.reduce((s, id) => s + (horizontal ? sizes.get(id).h : sizes.get(id).w), 0) + ROW_GAP * (ls.length - 1));
      const along = layers.map((ls) => Math.max(...ls.map((id) => (horizontal ? sizes.get(id).w : sizes.get(id).h))));
      const span = Math.max(...across);
      let at = 0;
      layers.forEach((ls, L) => {
        let c = (span - across[L]) / 2;
        for (const id of ls) {
          const s = sizes.get(id);
          const a = horizontal ? s.h : s.w;
          if (horizontal) pos.set(id, { x: at + along[L] / 2, y: c + a / 2 });
          else pos.set(id, { x: c + a / 2, y: at + along[L] / 2 });
          c += a + ROW_GAP;
        }
        at += along[L] + LAYER_GAP;
      });
      const w = horizontal ? at - LAYER_GAP : span, h = horizontal ? span : at - LAYER_GAP;
      return { pos, w, h, horizontal, layerOf: new Map(layers.flatMap((ls, L) => ls.map((id, i) => [id, [L, i]]))) };
    };
    const a = place(true), b = place(false);
    const fit = (p) => Math.min(room.w / (p.w + 40), room.h / (p.h + 40));
    return fit(b) > fit(a) * 1.05 ? b : a;
  }

  // The four points of a link's curve between two boxes.
  function linkCurve(lay, ca, sa, cb, sb, la, lb) {
    const H = lay.horizontal;
    const sameLayer = la[0] === lb[0];
    if (sameLayer && Math.abs(la[1] - lb[1]) > 1) {
      // zones of one layer with others between: an arc out to the side
      const [p, q, sp, sq] = [ca, cb, sa, sb];
      const out = 70 + 20 * Math.abs(la[1] - lb[1]);
      if (H) return [{ x: p.x + sp.w / 2, y: p.y }, { x: p.x + sp.w / 2 + out, y: p.y }, { x: q.x + sq.w / 2 + out, y: q.y }, { x: q.x + sq.w / 2, y: q.y }];
      return [{ x: p.x, y: p.y + sp.h / 2 }, { x: p.x, y: p.y + sp.h / 2 + out }, { x: q.x, y: q.y + sq.h / 2 + out }, { x: q.x, y: q.y + sq.h / 2 }];
    }
    // across layers (or neighbours in a layer): from the facing sides, leaving straight
    let p = ca, q = cb, sp = sa, sq = sb;
    const forward = sameLayer ? la[1] < lb[1] : la[0] < lb[0];
    if (!forward) { [p, q, sp, sq] = [cb, ca, sb, sa]; }
    const alongX = sameLayer ? !H : H;
    if (alongX) {
      const x0 = p.x + sp.w / 2, x1 = q.x - sq.w / 2, m = (x1 - x0) / 2;
      return [{ x: x0, y: p.y }, { x: x0 + m, y: p.y }, { x: x1 - m, y: q.y }, { x: x1, y: q.y }];
    }
    const y0 = p.y + sp.h / 2, y1 = q.y - sq.h / 2, m = (y1 - y0) / 2;
    return [{ x: p.x, y: y0 }, { x: p.x, y: y0 + m }, { x: q.x, y: y1 - m }, { x: q.x, y: y1 }];
  }

  function bez(P, t) {
    const u = 1 - t;
    return {
      x: u * u * u * P[0].x + 3 * u * u * t * P[1].x + 3 * u * t * t * P[2].x + t * t * t * P[3].x,
      y: u * u * u * P[0].y + 3 * u * u * t * P[1].y + 3 * u * t * t * P[2].y + t * t * t * P[3].y,
    };
  }

  function mapRoom() {
    const box = $("#map");
    const w = Math.max(280, box.clientWidth || 700);
    const phone = window.innerWidth <= 820;
    return { w, h: phone ? Math.max(420, window.innerHeight * 1.1) : Math.max(320, window.innerHeight * 0.78) };
  }

  function zoneMap(v, b, mine) {
    const zones = b.zones || [];
    if (!zones.length) return null;
    const known = new Set(zones.map((z) => z.id));
    const links = (b.links || []).filter((l) => l.zones && l.zones.length === 2 && known.has(l.zones[0]) && known.has(l.zones[1]) && l.zones[0] !== l.zones[1]);
    const inZone = new Map(zones.map((z) => [z.id, []]));
    const onBorder = new Map();
    for (const c of v.combatants) {
      if (!c.place) continue;
      if (c.place.kind === "zone" && inZone.has(c.place.zone)) inZone.get(c.place.zone).push(c);
      if (c.place.kind === "border") {
        const k = borderKey(c.place.zones);
        if (!onBorder.has(k)) onBorder.set(k, []);
        onBorder.get(k).push(c);
      }
    }
    // The layout is kept while the board, the box sizes and the room stay the same.
    const sizes = new Map(zones.map((z) => [z.id, zoneSize(inZone.get(z.id).length)]));
    const room = mapRoom();
    const key = JSON.stringify([zones.map((z) => z.id + ":" + sizes.get(z.id).h), links.map((l) => l.zones), Math.round(room.w / 50), Math.round(room.h / 50)]);
    if (st.layoutKey !== key) { st.layout = layoutZones(zones, links, sizes, room); st.layoutKey = key; }
    const lay = st.layout;
    // room for arcs out to the side
    let extraW = 0, extraH = 0;
    for (const l of links) {
      const la = lay.layerOf.get(l.zones[0]), lb = lay.layerOf.get(l.zones[1]);
      if (la[0] === lb[0] && Math.abs(la[1] - lb[1]) > 1) {
        const out = 0.75 * (70 + 20 * Math.abs(la[1] - lb[1])) + 4;
        if (lay.horizontal) extraW = Math.max(extraW, out); else extraH = Math.max(extraH, out);
      }
    }
    const M = 14;
    const W = lay.w + 2 * M + extraW, H = lay.h + 2 * M + extraH;
    const C = (id) => { const p = lay.pos.get(id); return { x: p.x + M, y: p.y + M }; };
    const s = mapSvg("zones", W, H);
    s.style.maxWidth = Math.round(W * 1.35) + "px";
    const gLinks = sv("g", { class: "links" });
    const gLabels = sv("g", { class: "link-labels" });
    const gBoxes = sv("g", { class: "zones" });
    const gTok = sv("g", { class: "tokens" });
    const zname = (id) => (ix.zones.get(id) || { name: id }).name;
    for (const l of links) {
      const [a, bb] = l.zones;
      const k = borderKey(l.zones);
      const P = linkCurve(lay, C(a), sizes.get(a), C(bb), sizes.get(bb), lay.layerOf.get(a), lay.layerOf.get(bb));
      const d = "M" + P[0].x + " " + P[0].y + " C" + P[1].x + " " + P[1].y + " " + P[2].x + " " + P[2].y + " " + P[3].x + " " + P[3].y;
      const can = mine && choicesAt(["border:" + k]).length > 0;
      gLinks.append(sv("g", { class: "link" + (can ? " can" : ""), "data-border": k, onclick: (ev) => clickPlace(["border:" + k], ev) },
        sv("title", { text: zname(a) + " — " + zname(bb) + (l.label ? " (" + l.label + ")" : "") }),
        sv("path", { class: "link-line", d }),
        sv("path", { class: "link-hit", d })));
      const mid = bez(P, 0.5);
      const ahead = bez(P, 0.55);
      let ux = ahead.x - mid.x, uy = ahead.y - mid.y;
      const len = Math.max(0.001, Math.hypot(ux, uy));
      ux /= len; uy /= len;
      const here = onBorder.get(k) || [];
      here.forEach((c, i) => {
        const off = (i - (here.length - 1) / 2) * 28;
        const { g: tg, keys } = tokenSvg(c, mid.x + ux * off, mid.y + uy * off, 12, mine);
        tg.addEventListener("click", (ev) => clickPlace(keys.concat(["border:" + k]), ev));
        gTok.append(tg);
      });
      const text = [l.label, ...(l.tags || [])].filter(Boolean).join(" · ");
      if (text) {
        const side = here.length ? 22 : 0;
        const lx = mid.x - uy * side, ly = mid.y + ux * side;
        const tw = text.length * 6.3 + 12;
        gLabels.append(sv("g", { class: "link-label", transform: "translate(" + lx + " " + ly + ")" },
          sv("rect", { x: -tw / 2, y: -9, width: tw, height: 18, rx: 9 }),
          sv("text", { "text-anchor": "middle", dy: "0.35em", text })));
      }
    }
    for (const z of zones) {
      const c = C(z.id), sz = sizes.get(z.id);
      const x = c.x - sz.w / 2, y = c.y - sz.h / 2;
      const tags = z.tags || [];
      const can = mine && choicesAt(["zone:" + z.id]).length > 0;
      const g = sv("g", { class: "zone" + (can ? " can" : "") + (tags.includes("exit") ? " exit" : ""), "data-zone": z.id, onclick: (ev) => clickPlace(["zone:" + z.id], ev) },
        sv("title", { text: z.name + " (" + z.id + ")" + (tags.length ? ": " + tags.join(", ") : "") }),
        sv("rect", { class: "zone-box", x, y, width: sz.w, height: sz.h, rx: 8 }),
        sv("text", { class: "zone-name", x: x + 10, y: y + 19, "font-size": z.name.length > 19 ? 12 : 14, text: clip(z.name, 25) }));
      let tx = x + 10;
      for (const t of tags) {
        const tw = t.length * 6.2 + 12;
        if (tx + tw > x + sz.w - 6) break;
        g.append(sv("g", { class: "ztag ztag-" + t.replace(/[^a-z0-9-]/gi, "") },
          sv("rect", { x: tx, y: y + 26, width: tw, height: 15, rx: 7.5 }),
          sv("text", { x: tx + tw / 2, y: y + 37, "text-anchor": "middle", text: t })));
        tx += tw + 4;
      }
      gBoxes.append(g);
      const here = inZone.get(z.id).slice().sort((p, q) => Number(p.out) - Number(q.out));
      here.forEach((cb, i) => {
        const col = i % ZCOLS, row = Math.floor(i / ZCOLS);
        const { g: tg, keys } = tokenSvg(cb, x + 26 + col * 42, y + ZHEAD + row * ZTOK + 16, 15, mine);
        tg.addEventListener("click", (ev) => clickPlace(keys.concat(["zone:" + z.id]), ev));
        gTok.append(tg);
      });
    }
    s.append(gLinks, gBoxes, gLabels, gTok);
    return s;
  }

  function clip(s, n) {
    return s.length > n ? s.slice(0, n - 1) + "…" : s;
  }

  // ---------------------------------------------------------------- order, seats, cards

  function renderOrder(v) {
    const d = v.deciding;
    const actorSide = d && d.actor && ix.byId.get(d.actor) ? ix.byId.get(d.actor).side : null;
    if (!v.order.length) { put($("#order"), el("li", { class: "none muted", text: "no turns yet" })); return; }
    put($("#order"), ...v.order.map((id) => {
      const c = ix.byId.get(id);
      const acting = d && (d.actor === id || (!c && actorSide === id));
      return el("li", { class: (acting ? "acting" : "") + (c && c.out ? " out" : ""), "data-order": id },
        c ? tokenBadge(c) : el("span", { class: "badge-token side-" + sideIndex(id), text: id.slice(0, 2).toUpperCase() }),
        el("span", { text: c ? c.name : words(id) }));
    }));
  }

  function renderSeats(f) {
    const seats = f.seats || [];
    const deciding = new Set((f.pending && f.pending.deciding) || []);
    const me = st.welcome ? st.welcome.seat : null;
    put($("#seats"), ...seats.map((s) => el("li", {
      class: "chip seat" + (deciding.has(s.name) ? " deciding" : "") + (s.name === me ? " me" : ""), "data-seat": s.name,
      title: s.clients + " connected" + (s.ai ? ", played by the AI" : ""),
    }, s.name, s.ai ? el("span", { class: "tag", text: "AI" }) : null,
      el("span", { class: "muted", text: " " + (s.clients ? "●" + (s.clients > 1 ? s.clients : "") : "○") }))));
  }

  function renderCards(v) {
    const me = st.welcome ? st.welcome.seat : null;
    put($("#cards"), ...v.combatants.map((c) => el("article", {
      class: "card" + (c.out ? " out" : "") + (isActor(c.id) ? " acting" : "") + (c.seat === me ? " mine" : ""), "data-card": c.id,
    },
      el("header", {}, tokenBadge(c),
        el("span", { class: "cname", text: c.name }),
        c.out ? el("span", { class: "tag out", text: "out" }) : null),
      el("p", { class: "cmeta" }, el("span", { class: "side-dot side-" + sideIndex(c.side) }), words(c.side), " · ", "seat " + c.seat, " · ", placeText(c.place)),
      c.gauges.length ? el("div", { class: "gauges" }, ...c.gauges.map(gauge)) : null,
      c.statuses.length ? el("ul", { class: "statuses" }, ...c.statuses.map((s) => el("li", { class: "status-chip", "data-status": s.name, title: s.ends ? "ends " + s.ends : "" },
        el("b", { text: words(s.name) }), s.value ? " " + words(s.value) : "", s.ends ? el("small", { text: " · " + s.ends }) : null))) : null
    )));
    const extra = v.extra && Object.keys(v.extra).length ? v.extra : null;
    let ex = $("#extra");
    if (!extra) { if (ex) ex.remove(); return; }
    if (!ex) {
      ex = el("details", { id: "extra", class: "extra" }, el("summary", { text: "More of the " + v.ruleset + " view" }), el("div", { class: "extra-body" }));
      $("#cards-panel").append(ex);
    }
    put(ex.querySelector(".extra-body"), tree(extra, 0));
  }

  function gauge(g) {
    const hasMax = typeof g.max === "number" && g.max > 0;
    const pct = hasMax ? Math.max(0, Math.min(100, (g.value / g.max) * 100)) : 0;
    return el("div", { class: "gauge", "data-gauge": g.name, title: g.name + " " + g.value + (hasMax ? " of " + g.max : "") },
      el("span", { class: "gname", text: words(g.name) }),
      hasMax ? el("span", { class: "bar" }, el("span", { class: "fill", style: "width:" + pct.toFixed(1) + "%" })) : el("span", { class: "bar none" }),
      el("span", { class: "gval", text: g.value + (hasMax ? "/" + g.max : "") }));
  }

  // The ruleset's own view, as a plain list of keys and values.
  function tree(x, depth) {
    if (x === null || typeof x !== "object") return el("span", { text: x === null ? "—" : String(x) });
    if (depth > 4) return el("span", { text: "…" });
    const entries = Array.isArray(x) ? x.map((v, i) => [i, v]) : Object.entries(x);
    if (!entries.length) return el("span", { class: "muted", text: Array.isArray(x) ? "none" : "—" });
    if (Array.isArray(x) && x.every((v) => v === null || typeof v !== "object")) return el("span", { text: x.map((v) => nameOf(String(v))).join(", ") });
    const label = (k, v) => {
      if (!Array.isArray(x)) return words(k);
      if (v && typeof v === "object" && !Array.isArray(v)) return String(v.name || (v.id !== undefined ? nameOf(String(v.id)) : "") || "#" + (k + 1));
      return "#" + (k + 1);
    };
    return el("dl", { class: "tree" + (Array.isArray(x) ? " items" : "") }, ...entries.map(([k, v]) => [el("dt", { text: label(k, v) }), el("dd", {}, tree(v, depth + 1))]));
  }

  // ---------------------------------------------------------------- the GM's controls

  function renderGm(f) {
    if (!st.welcome || !st.welcome.gm) return;
    put($("#ai-seats"), ...(f.seats || []).map((s) => el("li", {},
      el("button", {
        type: "button", class: "toggle", "data-seat-ai": s.name, "aria-pressed": s.ai ? "true" : "false",
        onclick: () => send({ type: "ai", seat: s.name, on: !s.ai }),
      }, el("span", { class: "knob" }), el("span", { text: s.name + (s.ai ? ": AI plays" : ": people play") })))));
    if (!f.links) return;
    put($("#links"), ...f.links.map((l) => {
      const url = new URL(l.url, location.href).href;
      const shown = url.replace(/#.*$/, "#token=…");
      return el("li", { "data-link": l.seat },
        el("span", { class: "lseat", text: l.seat }),
        el("span", { class: "lurl muted", text: shown }),
        el("button", { type: "button", "data-copy-link": l.seat, onclick: (ev) => copy(url, ev.currentTarget) }, "Copy link"),
        el("a", { class: "button", href: url, target: "_blank", rel: "noopener noreferrer", "data-open-link": l.seat }, "Open"));
    }));
  }

  function copy(text, btn) {
    const done = () => { const old = btn.textContent; btn.textContent = "Copied"; setTimeout(() => { btn.textContent = old; }, 1500); };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(done, () => fallbackCopy(text) && done());
    } else if (fallbackCopy(text)) done();
    else status("Copy did not work here: open the link and copy it from the address bar.", "error");
  }

  function fallbackCopy(text) {
    const t = el("textarea", { readonly: true, style: "position:fixed;left:-9999px;top:0" });
    t.value = text;
    document.body.append(t);
    t.select();
    let ok = false;
    try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
    t.remove();
    return ok;
  }

  $("#undo").addEventListener("click", () => send({ type: "undo" }));
  $("#redo").addEventListener("click", () => send({ type: "redo" }));
  $("#end-fight").addEventListener("click", () => {
    if (confirm("End the fight now, with no winner?")) sendCommand("end none");
  });
  $("#ruling-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const i = $("#ruling");
    if (i.value.trim()) { sendCommand(i.value); i.value = ""; }
  });
  $("#command-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const i = $("#command");
    if (i.value.trim()) { sendCommand(i.value); i.value = ""; }
  });

  // ---------------------------------------------------------------- typed dice

  function renderAiDice(f) {
    const w = f.dice_wanted;
    const me = st.welcome;
    const forMe = w && me && w.seat === me.seat && me.gm;
    if (forMe) {
      if (!st.dice || st.dice.mode !== "ai" || st.dice.id === null) {
        st.dice = { mode: "ai", text: w.command, faces: (w.faces_so_far || []).slice(), tryFaces: [], want: w, id: null };
      }
    } else if (st.dice && st.dice.mode === "ai") st.dice = null;
    renderDice(w && !forMe ? w : null);
  }

  function rollWords(want) {
    if (!want) return "";
    const n = want.count || 1;
    if (want.kind === "draw") return "draw " + (n === 1 ? "a card" : n + " cards");
    return "roll " + n + "d" + want.sides;
  }

  function renderDice(other) {
    const box = $("#dice");
    const d = st.dice;
    if (!d) {
      if (other) {
        box.hidden = false;
        box.className = "dice waiting";
        put(box, el("p", {}, "The AI's move ", el("code", { text: other.command || "" }), " waits for ", other.seat, " to " + rollWords(other) + (other.why ? " (" + other.why + ")" : "") + "."));
      } else { box.hidden = true; put(box); }
      return;
    }
    const want = d.want || {};
    const prev = $("#dice-faces");
    const keep = prev ? prev.value : "";
    const hadFocus = prev && document.activeElement === prev;
    box.hidden = false;
    box.className = "dice";
    const head = d.mode === "ai" ? "The AI's move " : "Your command ";
    const cards = want.kind === "draw" && Array.isArray(want.cards) ? want.cards : null;
    const input = el("input", { id: "dice-faces", inputmode: "numeric", autocomplete: "off", placeholder: cards ? "the card drawn" : "e.g. " + Array.from({ length: want.count || 1 }, (_, i) => ((i * 3) % (want.sides || 6)) + 1).join(" ") });
    const form = el("form", { id: "dice-form", class: "command-form", onsubmit: (ev) => {
      ev.preventDefault();
      const faces = input.value.split(/[\s,]+/).filter(Boolean).map(Number);
      const n = want.count || 1;
      if (faces.length !== n || faces.some((x) => !Number.isInteger(x))) { status("Type " + n + " whole number" + (n > 1 ? "s" : "") + ".", "error"); return; }
      if (!cards && want.sides && faces.some((x) => x < 1 || x > want.sides)) { status("Each face is from 1 to " + want.sides + ".", "error"); return; }
      if (cards && faces.some((x) => !cards.includes(x))) { status("That card is not in the deck.", "error"); return; }
      sendDice(faces);
    } }, input, el("button", { id: "dice-send", type: "submit", disabled: d.id !== null }, "Send"),
      d.mode === "command" ? el("button", { id: "dice-cancel", type: "button", onclick: () => { st.dice = null; renderDice(); } }, "Cancel") : null);
    put(box,
      el("p", { class: "dice-head" }, head, el("code", { text: d.text || "" }), " needs dice: ",
        el("b", { class: "dice-want", text: rollWords(want) }), want.why ? " for " + want.why : "", "."),
      d.faces.length ? el("p", { class: "muted", text: "Faces so far: " + d.faces.join(" ") }) : null,
      cards ? el("p", { class: "cards-left" }, "In the deck: ", ...cards.map((n) => el("button", { type: "button", class: "dcard", "data-dice-card": n, onclick: () => {
        if ((want.count || 1) === 1) { sendDice([n]); return; }
        input.value = (input.value + " " + n).trim();
        input.focus();
      } }, String(n)))) : null,
      form);
    if (d.id === null) input.value = keep;
    if (hadFocus || (d.id === null && !prev)) input.focus({ preventScroll: true });
  }

  // ---------------------------------------------------------------- go

  window.addEventListener("hashchange", () => location.reload());
  let resizeTimer = null;
  window.addEventListener("resize", () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => { if (st.frame && st.frame.view) renderMap(st.frame.view); }, 150);
  });
  connect();
})();
