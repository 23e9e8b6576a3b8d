// What the browser tests share: a `fray serve` of their own, Debian's chromium driven by
// playwright-core, and a Table: the GM and each player in a browser context of their own (and a
// phone-sized one for one player), playing a whole fight by clicking while every page is checked
// against what the server sends its seat (`GET /api/view`).
//
// Environment: FRAY_BIN (the fray binary; scripts/test.sh passes the one cargo test built),
// FRAY_CHROMIUM (default /usr/bin/chromium), FRAY_SHOTS (default target/browser-shots),
// FRAY_DOC_SHOTS=1 (copy the shots docs/table.md shows to docs/images/).

import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const SHOTS = process.env.FRAY_SHOTS || path.join(ROOT, "target/browser-shots");
const BIN = process.env.FRAY_BIN || path.join(ROOT, "target/debug/fray");
const CHROMIUM = process.env.FRAY_CHROMIUM || "/usr/bin/chromium";
const ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync"];
export const LAPTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
// A wait that keeps nothing alive once the race it is in is over.
const timeout = (ms) => new Promise((r) => setTimeout(r, ms).unref());

// ---------------------------------------------------------------- the server

/** Starts `fray serve` on a fresh database in a temporary folder; `close()` stops it. */
export async function startServer() {
  assert.ok(fs.existsSync(BIN), `no fray binary at ${BIN}: build it (cargo build) or set FRAY_BIN`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fray-browser-"));
  const child = spawn(BIN, ["serve", "--db", path.join(dir, "games.db"), "--addr", "127.0.0.1:0"], {
    cwd: ROOT, stdio: ["ignore", "pipe", "pipe"],
  });
  let errors = "";
  child.stderr.on("data", (d) => { errors += d; });
  const lines = readline.createInterface({ input: child.stdout });
  const first = [];
  const exited = new Promise((r) => child.once("exit", (code) => r(code)));
  await Promise.race([
    (async () => { for await (const l of lines) { first.push(l); if (first.length === 2) return; } })(),
    timeout(30000),
    exited,
  ]);
  lines.close();
  child.stdout.resume();
  const addr = (first[0] || "").match(/http:\/\/(\S+)/);
  const key = (first[1] || "").split("#key=")[1];
  assert.ok(addr && key, `fray serve printed no address and lobby link; it printed ${JSON.stringify(first)}, stderr: ${errors}`);
  const base = "http://" + addr[1];
  const server = {
    base, key: key.trim(), dir, child,
    stderr: () => errors,
    /** One API request: {status, body}. */
    async api(method, p, auth, body) {
      const r = await fetch(base + p, {
        method,
        headers: Object.assign(auth ? { Authorization: "Bearer " + auth } : {}, body ? { "Content-Type": "application/json" } : {}),
        body: body ? JSON.stringify(body) : undefined,
      });
      const text = await r.text();
      let json = null;
      try { json = JSON.parse(text); } catch (e) { json = null; }
      return { status: r.status, body: json, text };
    },
    /** The seat's whole `state` frame, as `GET /api/view` gives it. */
    async view(token) {
      const r = await server.api("GET", "/api/view", token);
      assert.equal(r.status, 200, `GET /api/view: ${r.text}`);
      return r.body;
    },
    async close() {
      if (child.exitCode === null) {
        child.kill("SIGINT");
        await Promise.race([exited, timeout(5000)]);
        if (child.exitCode === null) { child.kill("SIGKILL"); await exited; }
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  return server;
}

/** Debian's chromium; playwright gives each launch a fresh user-data-dir of its own (deleted on close). */
export async function launchBrowser() {
  assert.ok(fs.existsSync(CHROMIUM), `no chromium at ${CHROMIUM}: scripts/test.sh installs it (apt-get install chromium)`);
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true, timeout: 60000 });
}

// ---------------------------------------------------------------- pages

const q = (s) => '"' + String(s).replace(/["\\]/g, "\\$&") + '"';

/** A page of one seat, with everything it sent and received over its websocket. */
class Client {
  constructor(seat, token, page, label, phone) {
    this.seat = seat;
    this.token = token;
    this.page = page;
    this.label = label; // "gm", "east", "east (phone)"
    this.phone = phone;
    this.sent = [];
    this.received = [];
    this.errors = [];
    page.on("pageerror", (e) => this.errors.push(String(e && e.stack || e)));
    page.on("console", (m) => { if (m.type() === "error") this.errors.push("console: " + m.text()); });
    page.on("websocket", (ws) => {
      ws.on("framesent", (f) => { try { this.sent.push(JSON.parse(f.payload)); } catch (e) { /* not JSON */ } });
      ws.on("framereceived", (f) => { try { this.received.push(JSON.parse(f.payload)); } catch (e) { /* not JSON */ } });
    });
  }

  get gm() { return this.seat === "gm"; }

  /** What the page shows, read from its DOM. */
  dom() {
    return this.page.evaluate(() => {
      const all = (s, root) => Array.from((root || document).querySelectorAll(s));
      const txt = (n) => (n ? n.textContent.trim() : null);
      const shown = (n) => !!n && !n.hidden && !!(n.offsetWidth || n.offsetHeight || n.getClientRects().length);
      const banner = document.querySelector("#banner");
      return {
        conn: document.querySelector("#conn").dataset.conn,
        log: all("#log li").map((li) => li.textContent),
        cards: all("#cards article[data-card]").map((a) => ({
          id: a.dataset.card,
          name: txt(a.querySelector(".cname")),
          out: a.classList.contains("out"),
          gauges: all("[data-gauge]", a).map((g) => g.dataset.gauge + " " + txt(g.querySelector(".gval"))),
          // "name: its words value | · when it ends"
          statuses: all("[data-status]", a).map((s) => {
            const b = s.querySelector("b"), small = s.querySelector("small");
            let rest = s.textContent.slice(b.textContent.length);
            if (small) rest = rest.slice(0, rest.length - small.textContent.length);
            return (s.dataset.status + ": " + b.textContent + " " + rest.trim()).trim() + (small ? " |" + small.textContent : "");
          }),
          meta: txt(a.querySelector(".cmeta")),
        })),
        order: all("#order li[data-order]").map((li) => li.dataset.order),
        seats: all("#seats li[data-seat]").map((li) => li.dataset.seat),
        deciding: all("#deciding [data-deciding]").map((b) => b.dataset.deciding),
        choices: all("[data-choice]").map((b) => b.dataset.choice),
        choicesShown: shown(document.querySelector("#choices")),
        menu: all("[data-menu-choice]").map((b) => b.dataset.menuChoice),
        myTurn: document.body.classList.contains("my-turn"),
        gmPanel: shown(document.querySelector("#gm-panel")),
        gmControls: all("#undo, #redo, #end-fight, #ruling-form").filter(shown).length,
        links: all("#links li[data-link]").map((li) => li.dataset.link),
        linkButtons: all("[data-copy-link], [data-open-link]").length,
        aiToggles: all("[data-seat-ai]").map((b) => [b.dataset.seatAi, b.getAttribute("aria-pressed")]),
        banner: banner && !banner.hidden ? banner.textContent : null,
        bannerKind: banner ? banner.dataset.kind : null,
        mapKind: (document.querySelector("#map svg") || { dataset: {} }).dataset.kind || null,
        html: document.documentElement.outerHTML,
        text: document.body.textContent,
        // everything but the log: the map, the decision, the cards, the extra view, the order
        textNoLog: Array.from(document.body.children).map((n) => {
          const copy = n.cloneNode(true);
          for (const log of copy.querySelectorAll("#log")) log.remove();
          return copy.textContent;
        }).join(" "),
      };
    });
  }

  async screenshot(name) {
    fs.mkdirSync(SHOTS, { recursive: true });
    const file = path.join(SHOTS, name + ".png");
    // the same view each time: a laptop's page from its top, a phone's from its map down
    await this.page.evaluate((phone) => {
      if (phone) document.querySelector("#board-panel").scrollIntoView({ block: "start" });
      else window.scrollTo(0, 0);
    }, this.phone);
    await this.page.screenshot({ path: file });
    return file;
  }
}

/** The seat's own choices in its frame (none when it does not decide), sorted. */
function ownChoices(frame) {
  const p = frame.pending;
  return p && p.mine ? p.choices.map((x) => x.text).sort() : [];
}

/** Whether a page shows a frame's log, choices and cards (Table.checkClient checks the rest). */
function agrees(dom, frame) {
  return JSON.stringify(dom.log) === JSON.stringify(frame.log) &&
    JSON.stringify(dom.choices.slice().sort()) === JSON.stringify(ownChoices(frame)) &&
    JSON.stringify(dom.cards.map(({ meta, ...x }) => x)) === JSON.stringify(cardsOf(frame.view));
}

/** The cards a view's combatants should make, as Client.dom() reads them. */
function cardsOf(view) {
  return view.combatants.map((c) => ({
    id: c.id,
    name: c.name,
    out: !!c.out,
    gauges: c.gauges.map((g) => g.name + " " + g.value + (typeof g.max === "number" && g.max > 0 ? "/" + g.max : "")),
    statuses: c.statuses.map((s) => (s.name + ": " + words(s.name) + " " + (s.value ? words(s.value) : "")).trim() + (s.ends ? " | · " + s.ends : "")),
  }));
}

function words(s) {
  return String(s).replace(/[-_]+/g, " ");
}

function secretOf(token) {
  return token.split("-").slice(2).join("-");
}

// ---------------------------------------------------------------- the table

export class Table {
  /**
   * Opens `encounter` from the GM's lobby by clicking, then the GM's page and one page per
   * player seat, each in a browser context of its own; `phone` names the player seat that
   * also has a phone-sized page.
   */
  static async open(t, { name, encounter, seed, players, phone }) {
    const server = await startServer();
    const browser = await launchBrowser();
    const table = new Table(t, name, server, browser);
    try {
      await table.openFromLobby(encounter, seed, players, phone);
    } catch (e) {
      await table.close();
      throw e;
    }
    return table;
  }

  constructor(t, name, server, browser) {
    this.t = t;
    this.name = name;
    this.server = server;
    this.browser = browser;
    this.clients = [];
    this.clicks = { square: 0, zone: 0, border: 0, token: 0, menu: 0, button: 0, tap: 0 };
    this.steps = 0;
    this.turns = {};
  }

  log(msg) { this.t.diagnostic(`${this.name}: ${msg}`); }

  async newPage(viewport, phone) {
    const ctx = await this.browser.newContext(phone
      ? { viewport, deviceScaleFactor: 1, isMobile: true, hasTouch: true }
      : { viewport });
    const page = await ctx.newPage();
    page.setDefaultTimeout(15000);
    return page;
  }

  async openFromLobby(encounter, seed, players, phone) {
    const s = this.server;
    const gmPage = await this.newPage(LAPTOP);
    await gmPage.goto(s.base + "/#key=" + s.key);
    await gmPage.locator("#new-panel").waitFor({ state: "visible" });
    await gmPage.locator(`#encounter option[value=${q(encounter)}]`).waitFor({ state: "attached" });
    await gmPage.selectOption("#encounter", encounter);
    await gmPage.fill("#seed", String(seed));
    await gmPage.click("#open");
    await gmPage.locator("#opened-panel").waitFor({ state: "visible" });
    const game = await gmPage.locator("#opened-panel").getAttribute("data-game");
    const hrefs = await gmPage.evaluate(() => Object.fromEntries(
      Array.from(document.querySelectorAll("#opened-panel [data-open-link]")).map((a) => [a.dataset.openLink, a.href])));
    // The lobby's links are the API's.
    const info = await s.api("GET", "/api/tables/" + game, s.key);
    assert.equal(info.status, 200, info.text);
    this.game = game;
    this.info = info.body;
    this.seatNames = info.body.links.map((l) => l.seat);
    for (const l of info.body.links) {
      assert.equal(hrefs[l.seat], new URL(l.url, s.base).href, `the lobby's link for seat ${l.seat} is not the API's`);
    }
    this.tokens = Object.fromEntries(info.body.links.map((l) => [l.seat, l.token]));
    for (const p of players) assert.ok(this.tokens[p], `no seat ${p} at this table (seats: ${this.seatNames.join(", ")})`);
    this.players = players;
    // The GM follows "Open the GM's table" (in the lobby's page), each player their link.
    this.gmClient = this.add("gm", gmPage, "gm", false);
    for (const p of players) this.add(p, await this.newPage(LAPTOP), p, false);
    if (phone) this.phoneClient = this.add(phone, await this.newPage(PHONE, true), phone + " (phone)", true);
    for (const c of this.clients) {
      await c.page.goto(hrefs[c.seat]);
      await c.page.locator('#conn[data-conn="live"]').waitFor();
    }
    this.log(`table ${game}: seats ${this.seatNames.join(", ")}; players ${players.join(", ")}${phone ? ", a phone for " + phone : ""}`);
  }

  add(seat, page, label, phone) {
    const c = new Client(seat, this.tokens[seat], page, label, phone);
    this.clients.push(c);
    return c;
  }

  clientsOf(seat) { return this.clients.filter((c) => c.seat === seat); }

  // ------------------------------------------------------------ checks

  /**
   * Every page against what the server sends its seat: the log, the cards, the turn order, the
   * seats, who decides, and the choices (that seat's own, or none); a player's page shows no
   * GM controls, no join link and no token; the GM's shows them. Waits (up to 10 s) for the
   * pages to take in the last frames, then fails with the first difference.
   */
  async check(label) {
    // The pages take in the last frames a moment after the server sent them (and an AI seat
    // may still be playing): read the server and the pages again until they agree, or 10 s.
    const deadline = Date.now() + 10000;
    let views, doms;
    for (;;) {
      views = {};
      for (const seat of new Set(this.clients.map((c) => c.seat))) views[seat] = await this.server.view(this.tokens[seat]);
      doms = {};
      for (const c of this.clients) doms[c.label] = await c.dom();
      if (this.clients.every((c) => agrees(doms[c.label], views[c.seat])) || Date.now() > deadline) break;
      await sleep(100);
    }
    for (const c of this.clients) this.checkClient(c, views[c.seat], doms[c.label], label);
    return { views, doms };
  }

  checkClient(c, frame, dom, label) {
    const where = `${this.name}, ${label}, ${c.label}'s page`;
    const p = frame.pending;
    const mine = ownChoices(frame);
    assert.deepEqual(c.errors, [], `${where}: the page threw errors`);
    assert.equal(dom.conn, "live", `${where}: not connected`);
    assert.deepEqual(dom.log, frame.log, `${where}: #log is not the log the server sends seat ${c.seat}`);
    assert.deepEqual(dom.cards.map(({ meta, ...x }) => x), cardsOf(frame.view), `${where}: the cards are not the view's combatants`);
    for (const card of dom.cards) {
      const v = frame.view.combatants.find((x) => x.id === card.id);
      assert.ok(card.meta.includes("seat " + v.seat), `${where}: the card of ${card.id} does not name its seat ${v.seat}: ${card.meta}`);
    }
    assert.deepEqual(dom.order, frame.view.order, `${where}: the turn order is not the view's`);
    assert.deepEqual(dom.seats, frame.seats.map((s) => s.name), `${where}: the seats are not the frame's`);
    assert.deepEqual(dom.choices.slice().sort(), mine,
      `${where}: the choices offered are not seat ${c.seat}'s own (${p && p.mine ? "its decision" : "not its decision: none"})`);
    assert.equal(dom.choicesShown, mine.length > 0, `${where}: #choices is ${dom.choicesShown ? "shown" : "hidden"} with ${mine.length} choices`);
    assert.equal(dom.myTurn, !!(p && p.mine), `${where}: body.my-turn says ${dom.myTurn}, the server's mine says ${p && p.mine}`);
    if (p) assert.deepEqual(dom.deciding, p.deciding, `${where}: #deciding does not name the seats deciding`);
    if (c.gm) {
      assert.ok(dom.gmPanel, `${where}: the GM's controls are not shown`);
      assert.equal(dom.gmControls, 4, `${where}: undo, redo, end and the ruling box are not all shown`);
      assert.deepEqual(dom.links, this.seatNames, `${where}: the GM's join links are not one per seat`);
      assert.deepEqual(dom.aiToggles.map((x) => x[0]), this.seatNames, `${where}: the AI switches are not one per seat`);
    } else {
      assert.ok(!dom.gmPanel, `${where}: a player's page shows the GM's controls`);
      assert.equal(dom.gmControls, 0, `${where}: a player's page shows GM buttons`);
      assert.deepEqual(dom.links, [], `${where}: a player's page shows join links`);
      assert.equal(dom.linkButtons, 0, `${where}: a player's page has join-link buttons`);
      assert.deepEqual(dom.aiToggles, [], `${where}: a player's page has the GM's AI switches`);
      assert.ok(!frame.links, `${where}: the server's frame for seat ${c.seat} has join links`);
      // No seat's token shows in a player's page (the page keeps its own in location.hash).
      for (const [seat, tok] of Object.entries(this.tokens)) {
        assert.ok(!dom.html.includes(secretOf(tok)), `${where}: the page shows the secret of seat ${seat}'s token`);
      }
      const leak = c.received.find((f) => f.links || (f.pending && !f.pending.mine && f.pending.choices.length));
      if (leak) assert.fail(`${where}: the websocket brought the page join links or another seat's choices: ${JSON.stringify(leak).slice(0, 300)}`);
    }
    return dom;
  }

  // ------------------------------------------------------------ clicking

  /** The page that decides for `seat` now: its laptop page, or every other time its phone. */
  pageFor(seat) {
    const cs = this.clientsOf(seat);
    const phone = cs.find((c) => c.phone);
    this.turns[seat] = (this.turns[seat] || 0) + 1;
    if (phone && this.turns[seat] % 2 === 0) return phone;
    return cs.find((c) => !c.phone);
  }

  /**
   * Clicks `text` in client `c`'s page: on the map when a square, zone, border or token it names
   * is there to click (then in the menu when the place has several choices), else its button.
   * Fails unless the page sends exactly that command and the server takes it.
   */
  async click(c, text, { map = true } = {}) {
    const page = c.page;
    const before = c.sent.length;
    let how = null;
    if (map) how = await this.clickMap(c, text);
    if (how && how !== "sent") {
      const item = page.locator(`#menu [data-menu-choice=${q(text)}]`);
      assert.ok(await item.isVisible(), `${c.label}: clicking the ${how} for '${text}' opened no menu with it`);
      await (c.phone ? item.tap() : item.click());
      this.clicks.menu++;
    }
    if (!how) {
      const button = page.locator(`#choices [data-choice=${q(text)}]`);
      assert.equal(await button.count(), 1, `${c.label}: no button for '${text}'`);
      // Open the folds it is in (a group of squares, "more…").
      for (let i = 0; i < 3 && !(await button.isVisible()); i++) {
        const key = await button.evaluate((b) => {
          let d = b.closest("details:not([open])");
          for (let up = d; up; up = up.parentElement && up.parentElement.closest("details:not([open])")) d = up;
          return d ? d.dataset.key : null;
        });
        assert.ok(key, `${c.label}: the button for '${text}' is hidden, and in no fold`);
        const summary = page.locator(`#choices details[data-key=${q(key)}] > summary`);
        await (c.phone ? summary.tap() : summary.click());
      }
      await (c.phone ? button.tap() : button.click());
      this.clicks.button++;
      how = "button";
    }
    if (c.phone) this.clicks.tap++;
    // The command the page sent, and the server's answer to it.
    const deadline = Date.now() + 10000;
    let msg;
    while (!(msg = c.sent.slice(before).find((m) => m.type === "command")) && Date.now() < deadline) await sleep(25);
    assert.ok(msg, `${c.label}: clicking '${text}' (${how}) sent nothing`);
    assert.equal(msg.text, text, `${c.label}: clicking '${text}' (${how}) sent another command`);
    let ans;
    while (!(ans = c.received.find((m) => (m.type === "ok" || m.type === "error") && m.id === msg.id)) && Date.now() < deadline + 20000) await sleep(25);
    assert.ok(ans, `${c.label}: no answer from the server to '${text}'`);
    assert.equal(ans.type, "ok", `${c.label}: the server refused '${text}': ${JSON.stringify(ans)}`);
    this.steps++;
    return how;
  }

  /** Clicks the map for `text` when it can: "sent", "square"/"zone"/... (a menu opened), or null. */
  async clickMap(c, text) {
    const ws = text.split(/\s+/);
    const targets = [];
    for (const w of ws.slice(1)) {
      if (/^-?\d+,-?\d+$/.test(w)) targets.push(["square", `[data-square=${q(w)}]`]);
      else if (w.includes("|")) targets.push(["border", `[data-border=${q(w.split("|").sort().join("|"))}]`]);
      else for (const part of w.split(",")) {
        targets.push(["token", `#map [data-token=${q(part)}]`]);
        targets.push(["zone", `[data-zone=${q(part)}]`]);
      }
    }
    // a move goes to its place, anything else to the one it names first
    if (ws[0] === "move") targets.sort((a, b) => Number(a[0] === "token") - Number(b[0] === "token"));
    for (const [kind, sel] of targets) {
      const point = await c.page.evaluate(({ sel, kind }) => {
        const el = document.querySelector(sel);
        if (!el || !el.classList.contains("can")) return null;
        el.scrollIntoView({ block: "center", inline: "center" });
        let x, y;
        if (kind === "border") {
          const path = el.querySelector(".link-hit");
          const m = path.getPointAtLength(path.getTotalLength() / 2).matrixTransform(path.getScreenCTM());
          x = m.x; y = m.y;
        } else {
          const r = (kind === "zone" ? el.querySelector(".zone-box") : el).getBoundingClientRect();
          // a zone by its name (tokens sit lower in the box), the rest in the middle
          x = kind === "zone" ? r.left + 12 : r.left + r.width / 2;
          y = kind === "zone" ? r.top + 10 : r.top + r.height / 2;
        }
        const hit = document.elementFromPoint(x, y);
        return hit && hit.closest(sel) === el ? { x, y } : null;
      }, { sel, kind });
      if (!point) continue;
      const before = c.sent.length;
      if (c.phone) await c.page.touchscreen.tap(point.x, point.y);
      else await c.page.mouse.click(point.x, point.y);
      this.clicks[kind]++;
      // either the command went, or the menu opened
      const deadline = Date.now() + 5000;
      for (;;) {
        if (c.sent.slice(before).some((m) => m.type === "command")) return "sent";
        if (await c.page.locator("#menu").isVisible()) return kind;
        assert.ok(Date.now() < deadline, `${c.label}: clicking the ${kind} ${sel} for '${text}' did nothing`);
        await sleep(25);
      }
    }
    return null;
  }

  // ------------------------------------------------------------ playing

  /**
   * Plays until the fight is over: each step the deciding seat's page clicks the answer
   * `choose` picks from that seat's choices; every page is checked after every step. `hooks`:
   * `before(step, views)` may play a step itself (return true), `after(step)`.
   */
  async playToEnd({ choose, maxSteps, hooks = {}, undoAt, shotsAt }) {
    let { views } = await this.check("at the start");
    const aiUntil = Date.now() + 120000;
    for (let i = 0; ; i++) {
      const gv = views.gm;
      if (!gv.pending) break;
      assert.ok(i < maxSteps, `${this.name}: no outcome after ${maxSteps} steps (last prompt: ${gv.pending.prompt})`);
      const ai = (s) => gv.seats.find((x) => x.name === s).ai;
      const seat = gv.pending.deciding.find((s) => this.players.includes(s) && !ai(s));
      if (!seat) {
        // only the AI decides: wait for its move (two minutes in all at most)
        assert.ok(gv.pending.deciding.some(ai), `${this.name}: step ${i}: the deciding seats ${gv.pending.deciding.join(", ")} have no page here, and no AI plays them`);
        assert.ok(Date.now() < aiUntil, `${this.name}: the AI took more than two minutes in all (deciding: ${gv.pending.deciding.join(", ")})`);
        await sleep(100);
        ({ views } = await this.check(`while the AI plays ${gv.pending.deciding.join(", ")}`));
        i--;
        continue;
      }
      if (shotsAt !== undefined && i === shotsAt) this.midShots = { files: await this.shots(""), deciding: gv.pending.deciding };
      if (hooks.before && await hooks.before(i, views)) { ({ views } = await this.check(`after step ${i} (a hook's)`)); continue; }
      const choices = views[seat].pending.choices.map((x) => x.text);
      const text = choose(choices, views[seat].view, seat);
      assert.ok(choices.includes(text), `${this.name}: the chooser picked '${text}', not a choice`);
      const c = this.pageFor(seat);
      const how = await this.click(c, text);
      this.log(`step ${i}: ${c.label} clicked '${text}' (${how})`);
      const before = views;
      ({ views } = await this.check(`after step ${i} ('${text}')`));
      if (undoAt !== undefined && i === undoAt) await this.undoRedo(before, views);
      if (hooks.after) await hooks.after(i, views);
    }
    return views;
  }

  /**
   * The GM clicks Undo, then Redo: after the undo every seat's frame is the one it had before
   * the last step (`before`), after the redo the one it had after it (`after`), and every page
   * shows it.
   */
  async undoRedo(before, after) {
    const gm = this.gmClient;
    const play = (f) => ({ view: f.view, pending: f.pending, log: f.log });
    for (const [button, type, want] of [["#undo", "undo", before], ["#redo", "redo", after]]) {
      const sent = gm.sent.length;
      await gm.page.click(button);
      const deadline = Date.now() + 10000;
      let msg, ans;
      while (!(msg = gm.sent.slice(sent).find((m) => m.type === type)) && Date.now() < deadline) await sleep(25);
      if (!msg) assert.fail(`the GM's ${button} sent no ${type}; the page says '${await gm.page.textContent("#status")}'`);
      while (!(ans = gm.received.find((m) => (m.type === "ok" || m.type === "error") && m.id === msg.id)) && Date.now() < deadline) await sleep(25);
      assert.equal(ans && ans.type, "ok", `the server refused the GM's ${type}: ${JSON.stringify(ans)}`);
      const { views } = await this.check(`after the GM's ${type}`);
      for (const seat of Object.keys(views)) {
        assert.deepEqual(play(views[seat]), play(want[seat]),
          `after the GM's ${type}, seat ${seat}'s frame is not the one it had ${type === "undo" ? "before" : "after"} the step`);
      }
    }
    this.log("the GM clicked undo, then redo");
  }

  /** The outcome on every page: the banner, and no choice left. */
  async checkOutcome() {
    const { views, doms } = await this.check("at the end");
    const outcome = views.gm.view.outcome;
    assert.ok(outcome, `${this.name}: the fight ended without an outcome`);
    const winner = outcome.winner ? outcome.winner.replace(/[-_]+/g, " ") + " win" : "a draw";
    for (const c of this.clients) {
      const d = doms[c.label];
      assert.equal(views[c.seat].pending, null, `${c.label}: the server still has a decision after the outcome`);
      assert.deepEqual(views[c.seat].view.outcome, outcome, `${c.label}: the seat's view has another outcome`);
      assert.equal(d.bannerKind, "over", `${c.label}'s page shows no outcome banner`);
      assert.ok(d.banner && d.banner.includes("The fight is over") && d.banner.includes(winner),
        `${c.label}'s page: the banner '${d.banner}' does not give the outcome (${winner})`);
      assert.deepEqual(d.choices, [], `${c.label}'s page still offers choices after the outcome`);
    }
    this.log(`outcome: ${JSON.stringify(outcome)}; clicks: ${JSON.stringify(this.clicks)}`);
    return outcome;
  }

  /** A laptop shot of every page, and the phone's. */
  async shots(suffix) {
    const files = {};
    for (const c of this.clients) {
      const name = `${this.name}-${c.phone ? "phone-" + c.seat : c.seat}${suffix}`;
      files[c.label] = await c.screenshot(name);
    }
    return files;
  }

  /** With FRAY_DOC_SHOTS=1, copies a shot to docs/images/NAME.png (made smaller by pngquant where it is installed). */
  docShot(file, name) {
    if (process.env.FRAY_DOC_SHOTS !== "1") return;
    fs.mkdirSync(path.join(ROOT, "docs/images"), { recursive: true });
    const dest = path.join(ROOT, "docs/images", name + ".png");
    fs.copyFileSync(file, dest);
    spawnSync("pngquant", ["--force", "--quality=70-90", "--strip", "--output", dest, dest]);
  }

  async close() {
    try { await this.browser.close(); } finally { await this.server.close(); }
  }
}

// ---------------------------------------------------------------- choosing

/**
 * A quick fighter: attack a foe (armed first; a declaration of an attack), else step toward the
 * nearest foe on a grid or into a foe's zone, else pick who acts, else take the blow, decline,
 * end the turn or pass. It knows only the seat's view, as a player would.
 */
export function fighter(texts, view, seat) {
  const byId = new Map(view.combatants.map((c) => [c.id, c]));
  const actor = view.deciding && byId.get(view.deciding.actor);
  const mySide = actor ? actor.side : (view.combatants.find((c) => c.seat === seat) || {}).side;
  const foes = view.combatants.filter((c) => c.side !== mySide && !c.out);
  const isFoe = (id) => foes.some((e) => e.id === id);
  const w = (t) => t.split(/\s+/);
  const decl = texts.find((t) => /^declare \S+ attack \S+/.test(t) && isFoe(w(t)[3]));
  if (decl) return decl;
  const attacks = texts.filter((t) => /^(attack|shoot|strike) /.test(t) && isFoe(w(t)[1]));
  if (attacks.length) return attacks.find((t) => !/unarmed/.test(t)) || attacks[0];
  const sq = (p) => (p && p.kind === "square" ? [p.x, p.y] : null);
  const here = actor && sq(actor.place);
  const spots = foes.map((e) => sq(e.place)).filter(Boolean);
  if (here && spots.length) {
    const dist = (a) => Math.min(...spots.map((f) => Math.max(Math.abs(a[0] - f[0]), Math.abs(a[1] - f[1])) + 0.01 * Math.hypot(a[0] - f[0], a[1] - f[1])));
    const d0 = dist(here);
    if (d0 <= 1.02 && texts.includes("act")) return "act";
    const moves = texts.filter((t) => /^move -?\d+,-?\d+$/.test(t)).map((t) => [t, dist(w(t)[1].split(",").map(Number))]).sort((a, b) => a[1] - b[1]);
    if (moves.length && moves[0][1] < d0 - 0.001) return moves[0][0];
    if (texts.includes("act")) return "act";
  }
  const foeZones = new Set(foes.map((e) => (e.place && e.place.kind === "zone" ? e.place.zone : null)).filter(Boolean));
  const zoneMove = texts.find((t) => /^move [^\s|,]+$/.test(t) && foeZones.has(w(t)[1]));
  if (zoneMove) return zoneMove;
  const pick = texts.find((t) => /^act \S+$/.test(t)) || texts.find((t) => /^open /.test(t));
  if (pick) return pick;
  for (const x of ["take", "decline", "end", "pass", "ready", "act"]) if (texts.includes(x)) return x;
  return texts[0];
}
