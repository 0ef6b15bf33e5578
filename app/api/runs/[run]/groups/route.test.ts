// GET /api/runs/{run}/groups and /record-fields over the committed sample runs, through the real
// handlers: bodies parse with the strict contracts; grpo-capture-on's task groups carry the
// rewards its rollouts.jsonl holds (read here with JSON.parse); bad fields are 400s naming the
// allowed ones; an unknown run is a 404.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { RUNS_DIR } from "@/fixtures/generate";
import { recordFieldsSchema, runGroupsSchema } from "@/lib/schema/api-groups";
import { serveFixtureRuns, req, runCtx } from "@/lib/testing/fixture-runs";
import { GET } from "./route";
import { GET as getFields } from "../record-fields/route";

serveFixtureRuns();

const lines = readFileSync(path.join(RUNS_DIR, "grpo-capture-on", "rollouts.jsonl"), "utf8")
  .split("\n")
  .filter(Boolean)
  .map((l) => JSON.parse(l) as { _ng_task_index: number; reward: number; step: number });

describe("GET /api/runs/{run}/groups", () => {
  it("groups grpo-capture-on by task: each task's rewards, flagged when all equal", async () => {
    const res = await GET(req("/x"), runCtx("grpo-capture-on"));
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const body = runGroupsSchema.parse(await res.json());
    const tasks = [...new Set(lines.map((l) => l._ng_task_index))];
    expect(body.groups.map((g) => g.key)).toEqual(tasks);
    for (const g of body.groups) {
      const rewards = lines.filter((l) => l._ng_task_index === g.key).map((l) => l.reward);
      expect(g.rewards).toEqual(rewards);
      expect(g.no_signal).toBe(rewards.every((r) => r === rewards[0]));
    }
    expect(body.groups.filter((g) => g.no_signal).length).toBeGreaterThan(0);
  });

  it("pages the same groups the whole list holds, in the same order", async () => {
    const all = runGroupsSchema.parse(
      await (await GET(req("/x"), runCtx("grpo-capture-on"))).json(),
    );
    const res = await GET(req("/x?offset=1&limit=2"), runCtx("grpo-capture-on"));
    const page = runGroupsSchema.parse(await res.json());
    expect(page.total).toBe(all.total);
    expect(page.groups).toEqual(all.groups.slice(1, 3));
    expect(page.per_step).toEqual(all.per_step);
    expect(page.records).toBe(lines.length);
  });

  it("a bad field is a 400 listing the allowed ones; an unknown run is a 404", async () => {
    const res = await GET(req("/x?by=bogus"), runCtx("grpo-capture-on"));
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toMatch(/allowed: .*"_ng_task_index"/);
    expect((await GET(req("/x?normalize=2"), runCtx("grpo-capture-on"))).status).toBe(400);
    expect((await GET(req(), runCtx("no-such-run"))).status).toBe(404);
  });
});

describe("GET /api/runs/{run}/record-fields", () => {
  it("lists the records' scalar fields and answers the asked rollouts' values", async () => {
    const url = "/x?columns=_ng_task_index,agent_ref.name&id=2-3&id=no-record";
    const res = await getFields(req(url), runCtx("grpo-capture-on"));
    expect(res.status).toBe(200);
    const body = recordFieldsSchema.parse(await res.json());
    expect(body.fields.map((f) => f.path)).toEqual(
      expect.arrayContaining(["_ng_task_index", "agent_ref.name", "reward", "step"]),
    );
    expect(body.values).toEqual({
      "2-3": { _ng_task_index: 2, "agent_ref.name": "math_with_python" },
    });
    const bad = await getFields(req("/x?columns=response.output"), runCtx("grpo-capture-on"));
    expect(bad.status).toBe(400);
  });
});
