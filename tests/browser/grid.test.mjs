// A grid fight in the browser: the skeleton's duel, the GM and both watches each in a browser
// of their own (the west's also on a phone), played to its outcome by clicking squares, tokens
// and buttons, with an undo and a redo by the GM on the way.

import assert from "node:assert/strict";
import { test } from "node:test";
import { Table, fighter } from "./lib.mjs";

test("skeleton duel on a grid: the GM and two players click a whole fight", { timeout: 300000 }, async (t) => {
  const table = await Table.open(t, { name: "grid", encounter: "examples/skeleton/duel.toml", seed: 7, players: ["east", "west"], phone: "west" });
  try {
    const { doms } = await table.check("before the first click");
    for (const c of table.clients) assert.equal(doms[c.label].mapKind, "grid", `${c.label}: the map is not a grid`);
    await table.playToEnd({ choose: fighter, maxSteps: 120, undoAt: 3, shotsAt: 6 });
    await table.checkOutcome();
    await table.shots("-over");
    assert.ok(table.clicks.square >= 1, `no move was made by clicking a square: ${JSON.stringify(table.clicks)}`);
    assert.ok(table.clicks.token >= 1, `no attack was made by clicking a token: ${JSON.stringify(table.clicks)}`);
    assert.ok(table.clicks.tap >= 1, `the phone made no move: ${JSON.stringify(table.clicks)}`);
    const { files, deciding } = table.midShots;
    table.docShot(files[deciding[0]], "table-grid");
  } finally {
    await table.close();
  }
});
