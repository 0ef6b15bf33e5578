// Calls made, lost calls and the status codes agree. Expected values from the fixture's files on
// disk: each recorded exchange is one capture line, and a lost call is an answered exchange (HTTP
// < 400) whose call id has no readable token entry (never written, or on a malformed line).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { RUNS_DIR } from "@/fixtures/generate";
import { indexedSummaries } from "@/lib/testing/sql-engine";
import { callsMade } from "@/lib/view/calls-made";
import { getRun } from "@/lib/runs/root";
import { SummaryIndex } from "./run-index";

const RUN = "claude-code-capture-on";
const dir = (sub: string) => path.join(RUNS_DIR, RUN, sub);
const parsed = (file: string): Array<Record<string, unknown>> =>
  readFileSync(file, "utf8")
    .split("\n")
    .flatMap((l) => {
      try {
        return [JSON.parse(l) as Record<string, unknown>];
      } catch {
        return [];
      }
    });

describe("calls made on claude-code-capture-on", () => {
  it("counts lost calls, so calls made agrees with the recorded exchanges and their status codes", async () => {
    const summaries = await indexedSummaries(new SummaryIndex(await getRun(RUN, RUNS_DIR), null), {
      minIntervalMs: 0,
      waitMs: 60_000,
    });
    const byId = new Map(summaries.map((s) => [s.rollout_id, s]));
    let lostSeen = 0;
    for (const file of readdirSync(dir("model-calls")).filter((f) =>
      f.endsWith(".capture.jsonl"),
    )) {
      const id = file.slice(0, -".capture.jsonl".length);
      const exchanges = parsed(path.join(dir("model-calls"), file));
      const entries = new Set(
        parsed(path.join(dir("tokens"), `${id}.tokens.jsonl`)).map((e) => e.model_call_id),
      );
      const lost = exchanges.filter(
        (x) => !entries.has(x.model_call_id) && Number(x.status_code ?? 0) < 400,
      ).length;
      const s = byId.get(id)!;
      expect(s.lost_calls, id).toBe(lost);
      expect(callsMade(s), id).toBe(exchanges.length);
      const coded = Object.values(s.status_codes).reduce((a, n) => a + n, 0);
      expect(coded, id).toBe(callsMade(s));
      lostSeen += lost;
    }
    // The fixture's lost call (4-0, named by its .tokens.incomplete) and its malformed record (9-0).
    expect(lostSeen).toBe(2);
    expect(byId.get("4-0")?.lost_calls).toBe(1);
  });
});
