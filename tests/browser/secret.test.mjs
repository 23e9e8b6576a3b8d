// Secret declarations in the browser: Hallowed Earth's duel, where both seats declare at once.
// The GM and both fighters each in a browser of their own (Ysolt's also on a phone). For two
// rounds the players declare by clicking, and at every moment before the reveal neither
// player's page shows what the other declared, while the GM's does; then the GM hands Ysolt to
// the AI with the page's switch, and Sir Edric clicks on to the fight's outcome.

import assert from "node:assert/strict";
import { test } from "node:test";
import { Table, fighter } from "./lib.mjs";

const SEATS = ["edric", "ysolt"];

test("hallowed-earth duel: secret declarations stay secret on each player's page until the reveal", { timeout: 300000 }, async (t) => {
  const table = await Table.open(t, { name: "secret", encounter: "examples/hallowed-earth/duel.toml", seed: 3, players: SEATS, phone: "ysolt" });
  try {
    let secretRounds = 0;
    let handedOver = false;
    const gmLog = async () => (await table.server.view(table.tokens.gm)).log;

    // The declarations of one round, by clicking: Sir Edric a free action first, then Ysolt her
    // action (now both have declared, and nothing is revealed), then Sir Edric his action.
    async function declareRound(views) {
      const round = views.gm.view.round;
      const start = {};
      for (const s of ["gm", ...SEATS]) start[s] = views[s].log.length;
      const declared = []; // [seat, the GM's log line for it, what it declared]
      const declare = async (seat, text, last = false) => {
        const before = await gmLog();
        await table.click(table.pageFor(seat), text);
        const { views: now } = await table.check(`round ${round}, after '${text}'`);
        const added = now.gm.log.slice(before.length);
        // one line for the declaration (and, after the last, the reveal and what follows)
        assert.ok(last ? added.length > 1 : added.length === 1, `'${text}' added ${added.length} lines to the GM's log: ${JSON.stringify(added)}`);
        declared.push([seat, added[0], text.split(/\s+/).slice(2).join(" ")]);
        return now;
      };
      const mine = (v, seat) => v[seat].pending.choices.map((c) => c.text);
      assert.ok(mine(views, "edric").includes("declare edric free speak"), "Sir Edric cannot declare a free action");
      let now = await declare("edric", "declare edric free speak");
      assert.deepEqual(now.gm.pending.deciding, SEATS, "after a free action both seats should still declare");
      now = await declare("ysolt", fighter(mine(now, "ysolt"), now.ysolt.view, "ysolt"));
      assert.deepEqual(now.gm.pending.deciding, ["edric"], "after Ysolt's declaration only Sir Edric should still declare");

      // Both have declared; nothing is revealed yet. Read every page now.
      const { doms } = await table.check(`round ${round}, both declared, before the reveal`);
      const gmDom = doms.gm;
      for (const [seat, line] of declared) {
        assert.ok(gmDom.log.includes(line), `the GM's page does not show ${seat}'s declaration '${line}'`);
      }
      for (const c of table.clients.filter((x) => !x.gm)) {
        const d = doms[c.label];
        const theirs = declared.filter(([s]) => s !== c.seat);
        const own = declared.filter(([s]) => s === c.seat);
        assert.ok(theirs.length > 0, "nothing to hide");
        const added = d.log.slice(start[c.seat]);
        for (const [seat, line, what] of theirs) {
          assert.ok(!d.text.includes(line), `${c.label}'s page shows ${seat}'s secret declaration: '${line}'`);
          assert.ok(!added.some((l) => l.includes(what)), `${c.label}'s log shows ${seat}'s secret declaration ('${what}') before the reveal`);
          assert.ok(!d.textNoLog.includes(what), `${c.label}'s page (map, decision, cards, extra view) shows ${seat}'s secret declaration ('${what}') before the reveal`);
        }
        for (const [seat, line] of own) assert.ok(d.log.includes(line), `${c.label}'s page does not show its own declaration '${line}'`);
        // In the log, in place of each of the other's declarations: that one was made, in secret.
        const secret = added.filter((l) => /in secret$/.test(l));
        assert.equal(secret.length, theirs.length, `${c.label}'s page should show ${theirs.length} declarations made in secret, shows: ${JSON.stringify(added)}`);
      }
      if (secretRounds === 0) await table.shots("-declared");

      // The last declaration: the reveal, on every page.
      now = await declare("edric", fighter(mine(now, "edric"), now.edric.view, "edric"), true);
      const reveal = now.gm.log.slice(start.gm).find((l) => l.startsWith(`Round ${round} order`));
      assert.ok(reveal, `no reveal line in the GM's log after the last declaration of round ${round}`);
      for (const [, , what] of declared) assert.ok(reveal.includes(what), `the reveal '${reveal}' does not give the declaration '${what}'`);
      const { doms: after } = await table.check(`round ${round}, after the reveal`);
      for (const c of table.clients) assert.ok(after[c.label].log.includes(reveal), `${c.label}'s page does not show the reveal '${reveal}'`);
      secretRounds++;
      table.log(`round ${round}: declarations kept secret until the reveal '${reveal}'`);
    }

    // The GM hands Ysolt's seat to the AI with the page's switch.
    async function handOver() {
      const gm = table.gmClient;
      const toggle = gm.page.locator('[data-seat-ai="ysolt"]');
      assert.equal(await toggle.getAttribute("aria-pressed"), "false", "Ysolt's seat is played by the AI before the GM hands it over");
      await toggle.click();
      await gm.page.locator('[data-seat-ai="ysolt"][aria-pressed="true"]').waitFor();
      const { views, doms } = await table.check("after the GM handed ysolt to the AI");
      assert.equal(views.gm.seats.find((s) => s.name === "ysolt").ai, true, "the server does not have the AI playing ysolt");
      for (const c of table.clientsOf("ysolt")) {
        assert.deepEqual(doms[c.label].choices, [], `${c.label}'s page still offers choices once the AI plays its seat`);
        assert.ok(await c.page.locator('#seats [data-seat="ysolt"] .tag').isVisible(), `${c.label}'s page does not say the AI plays its seat`);
      }
      handedOver = true;
      table.log("the GM handed ysolt to the AI");
    }

    await table.playToEnd({
      choose: fighter,
      maxSteps: 300,
      undoAt: 6,
      shotsAt: 8,
      hooks: {
        async before(i, v) {
          const p = v.gm.pending;
          if (p.kind === "declare" && secretRounds < 2 && SEATS.every((s) => p.deciding.includes(s))) { await declareRound(v); return true; }
          if (secretRounds >= 2 && !handedOver && p.kind === "declare") { await handOver(); return true; }
          return false;
        },
      },
    });
    assert.equal(secretRounds, 2, "the fight ended before two rounds of secret declarations");
    assert.ok(handedOver, "the fight ended before the GM handed ysolt to the AI");
    await table.checkOutcome();
    await table.shots("-over");
    assert.ok(table.clicks.token + table.clicks.square >= 1, `nothing was clicked on the map: ${JSON.stringify(table.clicks)}`);
  } finally {
    await table.close();
  }
});
