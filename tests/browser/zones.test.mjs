// A zone-map fight in the browser: Murdham's crossroads, the GM and both factions each in a
// browser of their own (the tollmen's also on a phone), played to its outcome by clicking zones,
// tokens and buttons, with an undo and a redo by the GM on the way.

import assert from "node:assert/strict";
import { test } from "node:test";
import { Table, fighter } from "./lib.mjs";

test("murdham crossroads on a zone map: the GM and two players click a whole fight", { timeout: 300000 }, async (t) => {
  const table = await Table.open(t, { name: "zones", encounter: "examples/murdham/crossroads.toml", seed: 2, players: ["travellers", "tollmen"], phone: "tollmen" });
  try {
    const { doms } = await table.check("before the first click");
    for (const c of table.clients) assert.equal(doms[c.label].mapKind, "zones", `${c.label}: the map is not of zones`);
    await table.playToEnd({ choose: fighter, maxSteps: 300, undoAt: 6, shotsAt: 9 });
    await table.checkOutcome();
    await table.shots("-over");
    assert.ok(table.clicks.zone + table.clicks.border >= 1, `no move was made by clicking a zone or a border: ${JSON.stringify(table.clicks)}`);
    assert.ok(table.clicks.token >= 1, `no choice was made by clicking a token: ${JSON.stringify(table.clicks)}`);
    assert.ok(table.clicks.tap >= 1, `the phone made no move: ${JSON.stringify(table.clicks)}`);
    const { files, deciding } = table.midShots;
    table.docShot(files[deciding[0]], "table-zones");
    table.docShot(files["tollmen (phone)"], "table-phone");
  } finally {
    await table.close();
  }
});
