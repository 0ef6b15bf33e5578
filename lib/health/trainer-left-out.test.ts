// A sample the trainer left out of the loss (signal-ledger's MASKED_OUT: its step file's
// sample_loss_mask is 0, planted by fixtures/generator/signal-ledger) was not trained on: the table,
// its severity filters and the run's health serve that rollout as masked, with the trainer's reason
// first, while the capture's consumer would have trained it. The other masked rollouts are the
// plan's own (an unresolved retry), so the expected counts come from the plan, not the code.
import { beforeAll, describe, expect, it } from "vitest";
import { RUNS_DIR } from "@/fixtures/generate";
import { MASKED_OUT } from "@/fixtures/generator/signal-ledger";
import { PLAN } from "@/fixtures/generator/signal-ledger-plan";
import { parseRolloutQuery } from "@/lib/index/query";
import { indexFor } from "@/lib/index/run-index";
import { rolloutPage } from "@/lib/index/served";
import { getRun } from "@/lib/runs/root";
import { serveFixtureRuns } from "@/lib/testing/fixture-runs";
import { runHealth } from "./run-health";

serveFixtureRuns();
const RUN = "signal-ledger";
const plannedMasked = PLAN.flatMap(({ kinds }, t) =>
  kinds.flatMap((k, i) => (k.includes("masked") ? [`${t}-${i}`] : [])),
);

beforeAll(async () => {
  await indexFor(await getRun(RUN, RUNS_DIR)).snapshot({ waitMs: 60_000 });
  await runHealth(await getRun(RUN, RUNS_DIR)); // the run page's first look: the check is read
}, 60_000);

async function rows(query: string) {
  const q = parseRolloutQuery(new URLSearchParams(`${query}&limit=5000`));
  return (await rolloutPage(await getRun(RUN, RUNS_DIR), q)).rollouts;
}

describe("signal-ledger: the sample the trainer left out of the loss", () => {
  it("is served masked, the trainer's reason first, and no other row is masked by it", async () => {
    expect(plannedMasked).not.toContain(MASKED_OUT);
    for (const r of await rows("")) {
      const codes = r.severity_reasons.map((x) => x.code);
      if (r.rollout_id === MASKED_OUT) {
        expect(r.severity).toBe("masked");
        expect(codes[0]).toBe("trainer_differs");
      } else if (plannedMasked.includes(r.rollout_id)) expect(r.severity).toBe("masked");
      else expect(r.severity, r.rollout_id).not.toBe("masked");
    }
  });

  it("the severity filters and the run's health count it masked, not trained", async () => {
    const masked = (await rows("severity=masked")).map((r) => r.rollout_id).sort();
    expect(masked).toEqual([...plannedMasked, MASKED_OUT].sort());
    const warned = (await rows("severity=trained_with_warnings")).map((r) => r.rollout_id);
    expect(warned).not.toContain(MASKED_OUT);
    const health = await runHealth(await getRun(RUN, RUNS_DIR));
    expect(health.severity.masked).toBe(plannedMasked.length + 1);
    expect(health.masked).toBe(plannedMasked.length + 1);
  });
});
