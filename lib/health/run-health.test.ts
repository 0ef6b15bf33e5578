// The run page's alert links over the sample runs: every alert that names rollouts links to a page
// that exists under app/ (the run's table, a rollout's inspector) and the table's query lists
// exactly its rollouts; alerts about files link nowhere. The routes are read from app/ itself.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { RUNS_DIR } from "@/fixtures/generate";
import type { Alert } from "@/lib/schema";
import { parseRolloutQuery } from "@/lib/index/query";
import { getRun } from "@/lib/runs/root";
import { indexFor } from "@/lib/index/run-index";
import { serveFixtureRuns } from "@/lib/testing/fixture-runs";
import { alertRolloutHref, alertTableHref, TABLE_QUERY_KEYS } from "@/lib/view/rollout-nav";
import { rolloutPage } from "@/lib/index/served";
import { runHealth } from "./run-health";

serveFixtureRuns();
const RUNS = ["opencode-before-fix", "claude-code-capture-on", "gym-main-v1", "grpo-capture-on"];
// Whole indexes: an alert and the table then count the same summaries.
beforeAll(async () => {
  for (const id of RUNS) await indexFor(await getRun(id, RUNS_DIR)).snapshot({ waitMs: 60_000 });
});

/** Every page route under app/ as a pattern over decoded path segments (`[run]` is one segment). */
function pageRoutes(dir = path.resolve("app"), prefix = ""): RegExp[] {
  const out: RegExp[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory() && !e.name.startsWith("_") && e.name !== "api")
      out.push(...pageRoutes(path.join(dir, e.name), `${prefix}/${e.name}`));
    else if (e.name === "page.tsx") {
      const pattern = (prefix || "/").replace(/\[[^\]/]+\]/g, "[^/]+");
      out.push(new RegExp(`^${pattern}$`));
    }
  }
  return out;
}
const ROUTES = pageRoutes();

function expectPage(href: string): URL {
  const url = new URL(href, "http://localhost");
  const decoded = url.pathname.split("/").map(decodeURIComponent).join("/");
  expect(
    ROUTES.some((r) => r.test(decoded) && !decoded.slice(1).split("/").includes("")),
    `${href} is a page under app/`,
  ).toBe(true);
  return url;
}

async function alertsOf(runId: string): Promise<Alert[]> {
  return (await runHealth(await getRun(runId, RUNS_DIR))).alerts;
}

/** The rollouts the table lists under an alert's link, all of them. */
async function tableRows(runId: string, search: URLSearchParams): Promise<string[]> {
  const q = parseRolloutQuery(new URLSearchParams([...search, ["limit", "5000"]]));
  const page = await rolloutPage(await getRun(runId, RUNS_DIR), q);
  return page.rollouts.map((r) => r.rollout_id);
}

describe("run-page alert links", () => {
  it("the app has the run page and the inspector", () => {
    expect(ROUTES.map(String)).toEqual(
      expect.arrayContaining(["/^\\/runs\\/[^/]+$/", "/^\\/runs\\/[^/]+\\/rollouts\\/[^/]+$/"]),
    );
  });

  for (const runId of RUNS) {
    it(`${runId}: each alert's links open pages that list exactly its rollouts`, async () => {
      const alerts = await alertsOf(runId);
      const naming = alerts.filter((a) => a.rollout_ids.length > 0);
      expect(naming.length).toBeGreaterThan(0);
      for (const a of alerts) {
        const href = alertTableHref(runId, a);
        if (a.rollout_ids.length === 0) {
          expect(href, `${a.kind} names no rollouts`).toBeNull();
          continue;
        }
        expect(href, `${a.kind} links to the table`).not.toBeNull();
        const url = expectPage(href!);
        expect(decodeURIComponent(url.pathname)).toBe(`/runs/${runId}`);
        for (const key of url.searchParams.keys()) expect(TABLE_QUERY_KEYS).toContain(key);
        const rows = await tableRows(runId, url.searchParams);
        expect(rows, `${a.kind}: the table lists as many as the alert counts`).toHaveLength(
          a.count,
        );
        expect(rows).toEqual(expect.arrayContaining(a.rollout_ids));
        for (const id of a.rollout_ids) expectPage(alertRolloutHref(runId, id));
      }
    });
  }

  it("opencode-before-fix: the cut-short alert lists the rollouts whose capture has a non-2xx", async () => {
    // Fixture truth: the capture files themselves, read here without the app's readers.
    const dir = path.join(RUNS_DIR, "opencode-before-fix", "model-calls");
    const failed = readdirSync(dir)
      .filter((f) =>
        readFileSync(path.join(dir, f), "utf8")
          .split("\n")
          .filter(Boolean)
          .some((l) => (JSON.parse(l) as { status_code: number }).status_code >= 400),
      )
      .map((f) => f.replace(/\.capture\.jsonl$/, ""));
    expect(failed).toHaveLength(12);
    const cut = (await alertsOf("opencode-before-fix")).find((a) => a.kind === "cut_short");
    const href = alertTableHref("opencode-before-fix", cut!);
    const rows = await tableRows("opencode-before-fix", new URL(href!, "http://x").searchParams);
    expect(rows.sort()).toEqual(failed.sort());
  });
});

describe("the reason filter over the sample runs, as the rollouts route serves it", () => {
  it("cut short: the opencode-before-fix rollouts whose capture has a non-2xx answer", async () => {
    const dir = path.join(RUNS_DIR, "opencode-before-fix", "model-calls");
    const failed = readdirSync(dir)
      .filter((f) => /"status_code":\s*4\d\d/.test(readFileSync(path.join(dir, f), "utf8")))
      .map((f) => f.replace(/\.capture\.jsonl$/, ""));
    expect(failed).toHaveLength(12);
    const rows = await tableRows("opencode-before-fix", new URLSearchParams("reason=cut_short"));
    expect(rows.sort()).toEqual(failed.sort());
  });

  it("torn tail and another model as main chain in claude-code-capture-on", async () => {
    const dir = path.join(RUNS_DIR, "claude-code-capture-on", "tokens");
    // A token file whose last line has no newline is a torn write.
    const torn = readdirSync(dir)
      .filter((f) => f.endsWith(".tokens.jsonl"))
      .filter((f) => !readFileSync(path.join(dir, f), "utf8").endsWith("\n"))
      .map((f) => f.replace(/\.tokens\.jsonl$/, ""));
    expect(torn).toEqual(["9-0"]);
    const run = "claude-code-capture-on";
    expect(await tableRows(run, new URLSearchParams("reason=torn_tail"))).toEqual(torn);
    // fixtures/generator/claude-code.ts: rollout 6 is the side model out-generating the policy.
    expect(await tableRows(run, new URLSearchParams("reason=other_model_main"))).toEqual(["6-0"]);
  });
});
