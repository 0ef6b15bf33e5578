// The splice alert on the signal-ledger fixture (regenerated into a temp root): its counts are the
// generator's planted re-rendered prompts, its link the first one's differing token.
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { writeSignalLedger } from "@/fixtures/generator/signal-ledger";
import { indexFor } from "@/lib/index";
import { getRun } from "@/lib/runs/root";
import { alertTableQuery } from "@/lib/index/query";
import type { RunLayout } from "@/lib/runs";
import { runHealth } from "../run-health";
import { SPLICE_ALERT_KIND } from "./splice";

/** The run health's splice alerts (computed in the health's pass over the index). */
const spliceAlerts = async (run: RunLayout) =>
  (await runHealth(run)).alerts.filter((a) => a.kind === SPLICE_ALERT_KIND);

describe("spliceAlerts", () => {
  it("names the re-rendered calls' share, their rollouts and the first differing token", async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-splice-"));
    const { run: id, truth } = await writeSignalLedger(root);
    const run = await getRun(id, root);
    await indexFor(run).snapshot({ waitMs: 30_000 });
    const steps = [...truth.steps.values()];
    const calls = steps.reduce((a, s) => a + s.calls, 0);
    const rerendered = steps.reduce((a, s) => a + s.rerendered, 0);
    const [alert] = await spliceAlerts(run);
    expect(alert).toMatchObject({
      kind: "rerendered_prefixes",
      count: steps.reduce((a, s) => a + s.rerenderedRollouts, 0),
      at: {
        rollout_id: truth.firstRerendered.rolloutId,
        call_id: truth.firstRerendered.callId,
        position: truth.firstRerendered.position,
      },
    });
    expect(alert!.message).toContain(`${rerendered} calls of ${calls}`);
    expect(alertTableQuery(alert!.kind)).toBe("ledger=rerendered");
  }, 60_000);

  it("a run whose prompts all splice exact ids has none", async () => {
    const run = await getRun("grpo-capture-on", path.resolve("fixtures/runs"));
    await indexFor(run).snapshot({ waitMs: 30_000 });
    expect(await spliceAlerts(run)).toEqual([]);
  }, 60_000);
});
