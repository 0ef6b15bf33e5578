// GET /api/diff over the committed sample runs, through the real handler: two members of a GRPO
// group diverge where the generator's truth says (fixtures/generator/diff-pairs), each side
// carries its reward and the advantage NeMo-RL's estimator gives it (worked by hand below), a
// changed message's token diff holds the two texts, and bad input is a 400 or 404 in words.
import { describe, expect, it } from "vitest";
import { GROUP_PAIR } from "@/fixtures/generator/diff-pairs";
import { rolloutDiffSchema } from "@/lib/schema";
import { req, serveFixtureRuns } from "@/lib/testing/fixture-runs";
import { GET } from "./route";

serveFixtureRuns();

const { run, a, b } = GROUP_PAIR;
const pair = `a=${run}/${a}&b=${run}/${b}`;
const get = async (query: string) => {
  const res = await GET(req(`/api/diff?${query}`));
  return { status: res.status, body: (await res.json()) as unknown };
};

describe("GET /api/diff", () => {
  it("finds the GRPO pair's first divergence with the text around it on both sides", async () => {
    const { status, body } = await get(pair);
    expect(status).toBe(200);
    const d = rolloutDiffSchema.parse(body);
    expect(d.first_divergence?.position).toBe(GROUP_PAIR.firstDivergence);
    expect(d.first_divergence?.a.before).toMatch(new RegExp(`${GROUP_PAIR.before}$`));
    expect(d.first_divergence?.b.before).toMatch(new RegExp(`${GROUP_PAIR.before}$`));
    const from = (k: "a" | "b") =>
      `${d.first_divergence?.[k].token}${d.first_divergence?.[k].after}`;
    expect(from("a").startsWith(GROUP_PAIR.afterA)).toBe(true);
    expect(from("b").startsWith(GROUP_PAIR.afterB)).toBe(true);
    expect(d.first_divergence?.a.token).not.toBe(d.first_divergence?.b.token);
    // system, user, the first reply and the tool result agree; the final reply differs.
    expect(d.counts).toEqual({ same: 4, changed: 1, only_a: 0, only_b: 0 });
    expect(d.rows.map((r) => [r.kind, r.count])).toEqual([
      ["same", 4],
      ["changed", 1],
    ]);
    expect(d.first_divergence?.row).toBe(1);
  });

  it("gives each side its verdict, reward and GRPO advantage", async () => {
    const d = rolloutDiffSchema.parse((await get(pair)).body);
    expect([d.a.reward, d.b.reward]).toEqual([GROUP_PAIR.rewardA, GROUP_PAIR.rewardB]);
    // Task 0's rewards are 1, 1, 0, 1. Leave-one-out, normalised: a's others are 1, 0, 1 (mean
    // 2/3, sample std √(1/3)), so (1 − 2/3) / (√(1/3) + 1e-6); b's others are all 1 (std 0): 0 − 1.
    expect(d.a.advantage).toBeCloseTo(1 / 3 / (Math.sqrt(1 / 3) + 1e-6), 9);
    expect(d.b.advantage).toBe(-1);
    expect(d.a.group).toEqual({ key: 0, step: 0, size: 4 }); // rewards 1, 1, 0, 1: four rollouts
    expect([d.a.severity, d.b.severity]).toEqual(["trained", "trained"]);
    expect(d.token_diff).toBeNull();
  });

  it("diffs the tokens of a changed message on demand", async () => {
    const d = rolloutDiffSchema.parse((await get(`${pair}&message=1`)).body);
    const ops = d.token_diff?.ops ?? [];
    expect(ops[0]?.kind).toBe("same");
    expect(ops[0]?.text).toMatch(new RegExp(`${GROUP_PAIR.before}$`));
    expect(ops[1]?.a).toBe(GROUP_PAIR.firstDivergence);
    const added = ops
      .filter((o) => o.kind === "added")
      .map((o) => o.text)
      .join("");
    expect(added).toContain("but I will round differently");
  });

  it("a rollout against itself is identical", async () => {
    const d = rolloutDiffSchema.parse((await get(`a=${run}/${a}&b=${run}/${a}`)).body);
    expect(d.first_divergence).toBeNull();
    expect(d.counts.changed + d.counts.only_a + d.counts.only_b).toBe(0);
  });

  it("one rollout against itself under the other builder profile", async () => {
    const res = await get(`a=${run}/${a}&b=${run}/${a}&profile_b=gym-v1`);
    expect(res.status).toBe(200);
    const d = rolloutDiffSchema.parse(res.body);
    expect([d.a.profile, d.b.profile]).toEqual(["seed", "gym-v1"]);
    const bad = await get(`${pair}&profile_a=bogus`);
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain("profile must be one of");
  });

  it("bad a or b is a 400 in words; an unknown run or rollout a 404", async () => {
    const missing = await get(`a=${run}/${a}`);
    expect(missing.status).toBe(400);
    expect(JSON.stringify(missing.body)).toContain("b is missing");
    const noSlash = await get(`a=${run}&b=${run}/${b}`);
    expect(noSlash.status).toBe(400);
    expect(JSON.stringify(noSlash.body)).toContain("RUN/ROLLOUT");
    expect((await get(`a=nope/${a}&b=${run}/${b}`)).status).toBe(404);
    expect((await get(`a=${run}/99-9&b=${run}/${b}`)).status).toBe(404);
    const same = await get(`${pair}&message=0`);
    expect(same.status).toBe(400);
    expect(JSON.stringify(same.body)).toContain("not a changed message");
  });
});
