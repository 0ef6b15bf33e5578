// The trainer's logged advantages beside the groups': the values come through the truth check's
// join and must be the ones the generators wrote (their own rule, fixture truth), and the option
// set that reproduces them must be the generator's rule alone.
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { writeGrpoRuns } from "@/fixtures/generator/grpo";
import { advantages, recordsOf, writeNemoRlSteps } from "@/fixtures/generator/nemo-rl-steps";
import { writeSignalLedger } from "@/fixtures/generator/signal-ledger";
import { runGroups } from "@/lib/testing/groups-reference";
import type { RunGroups } from "@/lib/schema";
import { parseGroupsQuery, withLoggedAdvantages } from "@/lib/runs";
import { getRun } from "@/lib/runs/root";
import { readRolloutRecords } from "@/lib/runs/rollout-records";
import { loggedAdvantages } from "./logged-advantages";

let root = "";
beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-logged-adv-"));
  await writeGrpoRuns(root);
  await writeNemoRlSteps(root);
  await writeSignalLedger(root);
}, 60_000);

async function groupsOf(name: string, query = "") {
  const run = await getRun(name, root);
  const logged = await loggedAdvantages(run);
  const records = (await readRolloutRecords(run.rolloutsFile as string)).byId;
  const q = parseGroupsQuery(new URLSearchParams(`limit=5000&${query}`));
  return { logged, body: withLoggedAdvantages(runGroups(records, q), logged) };
}

describe("logged advantages in the groups view", () => {
  it("grpo-capture-on: each trained rollout's logged value is the one written; only group-mean, unnormalised, gives them", async () => {
    const byStep = new Map<number, Array<{ id: string; reward: number }>>();
    for (const r of recordsOf(path.join(root, "grpo-capture-on")))
      byStep.set(r.step, [...(byStep.get(r.step) ?? []), r]);
    const written = new Map<string, number>();
    for (const recs of byStep.values()) {
      const adv = advantages(recs.map((r) => r.reward));
      recs.forEach((r, i) => written.set(r.id, adv[i] as number));
    }
    const { logged, body } = await groupsOf("grpo-capture-on");
    expect(Object.fromEntries(logged.byRollout)).toEqual(Object.fromEntries(written));
    expect(logged.files).toEqual([1, 2, 3].map((n) => `train_data_step${n}.jsonl`));
    expect(body.logged?.samples).toBe(written.size);
    expect(body.logged?.members).toBe(written.size);
    expect(body.logged?.compared).toBe(written.size);
    expect(body.logged?.fits).toEqual([{ baseline: "group_mean", normalize: false }]);
    // Under the default rule (leave-one-out, normalised) every member of a group whose rewards
    // differ gets another value here; a group of equal rewards is 0 under every rule.
    const unequal = [...byStep.values()].flatMap((recs) => {
      const tasks = new Map<string, number[]>();
      for (const r of recs) {
        const t = r.id.split("-")[0] as string;
        tasks.set(t, [...(tasks.get(t) ?? []), r.reward]);
      }
      return [...tasks.values()].filter((rs) => new Set(rs).size > 1).flat();
    });
    expect(unequal.length).toBeGreaterThan(0);
    expect(body.logged?.differ).toBe(unequal.length);
    const member = body.groups.flatMap((g) => g.members).find((m) => m.rollout_id === "0-2");
    expect(member?.logged_advantage).toBe(written.get("0-2"));

    const fitted = (await groupsOf("grpo-capture-on", "baseline=group_mean&normalize=0")).body;
    expect(fitted.logged?.differ).toBe(0);
    expect(fitted.logged?.fits).toEqual([{ baseline: "group_mean", normalize: false }]);
  });

  it("signal-ledger: its step file's leave-one-out values are fitted by leave-one-out, unnormalised", async () => {
    const { logged, body } = await groupsOf("signal-ledger");
    expect(logged.files).toEqual(["train_data_step1.jsonl"]);
    expect(body.logged?.fits).toEqual([{ baseline: "leave_one_out", normalize: false }]);
    expect(body.logged?.differ).toBeGreaterThan(0);
  });

  it("a page no option set reproduces, and a run that logs nothing", () => {
    const member = (id: string, reward: number) => ({
      rollout_id: id,
      reward,
      advantage: null,
      masked: false,
      logged_advantage: null,
    });
    const body: RunGroups = {
      ...{ by: "t", fields: ["t"], total: 1, offset: 0, per_step: [], max_group_size: 2 },
      definition: { baseline: "leave_one_out", normalize: true, epsilon: 1e-6, source: "" },
      groups: [
        {
          ...{ key: 0, step: 0, n: 2, rewards: [1, 0], mean: 0.5, std: 0.7, min: 0, max: 1 },
          no_signal: false,
          members: [
            { ...member("0-0", 1), advantage: 0.707 },
            { ...member("0-1", 0), advantage: -0.707 },
          ],
        },
      ],
      ...{ ungrouped: 0, records: 2, logged: null, logged_error: null },
    };
    const byRollout = new Map([
      ["0-0", 5],
      ["0-1", -5],
    ]);
    const out = withLoggedAdvantages(body, { byRollout, files: ["train_data_step1.jsonl"] });
    expect(out.logged).toMatchObject({ members: 2, compared: 2, differ: 2, fits: [] });
    // No reward to compute from: nothing compared, and no rule said to fit (all would, vacuously).
    const unrewarded: RunGroups = {
      ...body,
      groups: body.groups.map((g) => ({
        ...g,
        members: g.members.map((m) => ({ ...m, reward: null, advantage: null })),
      })),
    };
    const none = withLoggedAdvantages(unrewarded, { byRollout, files: [] });
    expect(none.logged).toMatchObject({ members: 2, compared: 0, differ: 0, fits: [] });
    expect(withLoggedAdvantages(body, { byRollout: new Map(), files: [] })).toBe(body);
  });
});
