import path from "node:path";
import { describe, expect, it } from "vitest";
import { getRun } from "@/lib/runs/root";
import { InvalidRolloutIdError } from "@/lib/store/rollout-id";
import { UnknownEntityError } from "@/lib/errors";
import { openRollout } from "@/lib/testing/inspect-fixture";
import { fingerprintDir, line, tempStore, tokenRecord } from "@/lib/testing/temp-store";
import { inspectRollout } from "./rollout-model";
import { tokenWindow } from "./token-window";

describe("rollout view on the claude-code run", () => {
  it("labels side calls with their reason and marks the main chain", async () => {
    const { view } = await openRollout("claude-code-capture-on", "12-0");
    const sides = view.calls.filter((c) => c.role === "side_call");
    expect(sides).toHaveLength(2);
    expect(
      sides.every((c) => c.side_call?.kind === "pattern" && c.side_call.pattern === "haiku"),
    ).toBe(true);
    const main = view.calls.filter((c) => c.role === "main");
    expect(main.length).toBeGreaterThan(1);
    expect(main[0]).toMatchObject({ parent_call_id: null, link: "root", inherited_len: 0 });
    for (const c of main.slice(1)) expect(c.inherited_len + c.interstitial_len).toBe(c.prompt_len);
    expect(view.chains).toHaveLength(1);
    expect(view.verdict.mask_sample).toBe(false);
    expect(main.every((c) => c.exchange?.status_code === 200 && c.exchange.latency_ms! > 0)).toBe(
      true,
    );
  });

  it("a compaction shows two roots and a prefix break that is not a drift", async () => {
    const { view } = await openRollout("claude-code-capture-on", "0-0");
    expect(view.calls.filter((c) => c.link === "root").length).toBe(2);
    expect(view.prefix_breaks).toHaveLength(1);
    const br = view.prefix_breaks[0]!;
    expect(br.kind).toBe("compaction");
    expect(br.shared).toBeGreaterThan(0);
    expect(br.root_side).not.toEqual(br.against_side);
    expect(view.chains.map((c) => c.chain_id)).toEqual(["main", "branch-0"]);
    expect(view.main_rule.rule).toBe("generated_mass");
    expect(view.chains[0]!.generated).toBeGreaterThanOrEqual(view.chains[1]!.generated);
  });

  it("a sub-agent is a branch, retries are kept, dropped or unresolved", async () => {
    expect(
      (await openRollout("claude-code-capture-on", "1-0")).view.calls.some(
        (c) => c.role === "branch",
      ),
    ).toBe(true);
    const resolved = (await openRollout("claude-code-capture-on", "2-0")).view;
    expect(resolved.calls.filter((c) => c.retry === "dropped").map((c) => c.role)).toEqual([
      "quarantined",
    ]);
    expect(resolved.calls.some((c) => c.retry === "kept" && c.role === "main")).toBe(true);
    const unresolved = (await openRollout("claude-code-capture-on", "3-0")).view;
    expect(unresolved.verdict.mask_reasons).toEqual(["unresolved_retry"]);
    expect(unresolved.calls.filter((c) => c.retry === "unresolved")).toHaveLength(2);
  });

  it("says when the other profile decides differently", async () => {
    const { view } = await openRollout("claude-code-capture-on", "0-0");
    expect(view.profile).toBe("seed");
    expect(view.other_profile?.verdict.profile).toBe("gym-v1");
    expect(view.other_profile?.differs).toBe(true); // gym-v1 masks several roots or picks the earliest root
    const clean = (await openRollout("claude-code-capture-on", "12-0")).view;
    expect(clean.other_profile?.summary).toMatch(/^gym-v1 /);
  });
});

describe("bad input", () => {
  it("unknown and malformed rollout ids", async () => {
    await expect(openRollout("claude-code-capture-on", "99-9")).rejects.toThrow(UnknownEntityError);
    await expect(openRollout("claude-code-capture-on", "../run.json")).rejects.toThrow(
      InvalidRolloutIdError,
    );
    await expect(openRollout("claude-code-capture-on", "a/b")).rejects.toThrow(
      InvalidRolloutIdError,
    );
  });

  it("a corrupt middle line is a build error naming the line; a re-fed drift is classified as drift; nothing is written", async () => {
    const root = [1, 2, 3, 4, 5, 6, 7, 8];
    const drifted = [1, 2, 3, 9, 9, ...Array.from({ length: 30 }, (_, i) => 100 + i)];
    const original = [1, 2, 3, 4, 5, ...Array.from({ length: 30 }, (_, i) => 100 + i)];
    const dir = tempStore({
      "bad-0.tokens.jsonl":
        line(tokenRecord("bad-0", "a", root, [10])) +
        "{not json\n" +
        line(tokenRecord("bad-0", "b", root, [11])),
      "long-0.tokens.jsonl": line(
        tokenRecord(
          "long-0",
          "a",
          Array.from({ length: 6000 }, (_, i) => i),
          [1, 2],
        ),
      ),
      "drift-0.tokens.jsonl":
        line(
          tokenRecord("drift-0", "a", original.slice(0, 20), original.slice(20), { created_at: 1 }),
        ) + line(tokenRecord("drift-0", "b", drifted, [7, 7], { created_at: 2 })),
    });
    const before = fingerprintDir(dir);
    const run = await getRun(path.basename(dir), path.dirname(dir));
    const bad = await inspectRollout(run, "bad-0");
    expect(bad.view.verdict.error).toMatch(/bad-0\.tokens\.jsonl: line 2: not valid JSON/);
    expect(bad.view.verdict.mask_sample).toBe(true);
    expect(() => tokenWindow(bad, "main", null, null)).toThrow(/has no chain/);
    const drift = await inspectRollout(run, "drift-0");
    expect(drift.view.prefix_breaks).toEqual([
      expect.objectContaining({ kind: "drift", shared: 3, against_call_id: "a" }),
    ]);
    expect(drift.view.tokenizer).toBeNull();
    expect(tokenWindow(drift, "main", null, null).tokens.text).toBeNull();
    const long = await inspectRollout(run, "long-0");
    expect(tokenWindow(long, "main", "0", "999999").tokens.id.length).toBe(5000); // windows are capped
    expect(tokenWindow(long, "main", "5000", "999999").tokens.mask).toEqual([
      ...Array(1000).fill(0),
      1,
      1,
    ]);
    expect(fingerprintDir(dir)).toEqual(before);
  });
});
