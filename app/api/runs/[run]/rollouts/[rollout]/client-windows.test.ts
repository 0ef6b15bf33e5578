import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as getTokens } from "./tokens/route";
import { inspectRollout } from "@/lib/inspect/rollout-model";
import { firstWindow } from "@/lib/inspect/token-window";
import { getRun } from "@/lib/runs/runs-root";
import { line, tokenRecord } from "@/lib/testing/temp-store";
import { SequenceWindows } from "@/components/rollout/sequence-windows";

// One rollout of 5,005 tokens in two calls: three windows of 2,000.
const promptA = Array.from({ length: 4000 }, (_, i) => i);
const genA = [7, 7, 7];
const genB = [8, 8];
const all = [
  ...promptA,
  ...genA,
  9000,
  9001,
  9002,
  9003,
  9004,
  ...Array.from({ length: 995 }, (_, i) => 10_000 + i),
  ...genB,
];

let root: string;
const prev = process.env.ROLLOUT_LENS_RUNS;
const requests: string[] = [];
const base = "/api/runs/run-w/rollouts/w-0/tokens?chain=main&v=s";

beforeAll(() => {
  root = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-windows-"));
  const dir = path.join(root, "run-w", "tokens");
  mkdirSync(dir, { recursive: true });
  const b = tokenRecord("w-0", "b", all.slice(0, all.length - 2), genB, { created_at: 2 });
  writeFileSync(
    path.join(dir, "w-0.tokens.jsonl"),
    line(tokenRecord("w-0", "a", promptA, genA, { created_at: 1 })) + line(b),
  );
  process.env.ROLLOUT_LENS_RUNS = root;
  // The browser's fetch, answered by the real route handler.
  vi.stubGlobal("fetch", (url: string) => {
    requests.push(url);
    return getTokens(new Request(`http://localhost${url}`), {
      params: Promise.resolve({ run: "run-w", rollout: "w-0" }),
    } as never);
  });
});
afterAll(() => {
  vi.unstubAllGlobals();
  if (prev === undefined) delete process.env.ROLLOUT_LENS_RUNS;
  else process.env.ROLLOUT_LENS_RUNS = prev;
});

/** Starts and waits for the first `notify` (the opening window, or its error). */
const opened = (w: SequenceWindows) => new Promise<void>((resolve) => w.start(resolve));

const idsOf = (w: SequenceWindows, from: number, to: number) =>
  Array.from({ length: to - from }, (_, k) => {
    const win = w.windowOf(from + k);
    return win?.tokens.id[from + k - win.offset];
  });

describe("a sequence's token windows in the browser", () => {
  it("with the page's window: no request before the first token; later windows once each, without segments", async () => {
    requests.length = 0;
    const shipped = firstWindow(await inspectRollout(await getRun("run-w"), "w-0"), null, 2500);
    expect(shipped?.offset).toBe(2000);
    const w = new SequenceWindows(base, shipped);
    let arrived = 0;
    let bothLoaded: () => void = () => undefined;
    const loaded = new Promise<void>((resolve) => (bothLoaded = resolve));
    w.start(() => ++arrived === 2 && bothLoaded());
    expect(requests).toEqual([]);
    expect(w.opening?.total).toBe(all.length);
    expect(idsOf(w, 2000, 4000)).toEqual(all.slice(2000, 4000));
    w.ensure(0, all.length);
    w.ensure(0, all.length); // asked again while in flight: not fetched twice
    await loaded;
    expect(requests.sort()).toEqual([
      `${base}&offset=0&limit=2000`,
      `${base}&offset=4000&limit=2000`,
    ]);
    expect(idsOf(w, 0, all.length)).toEqual(all);
  });

  it("without it: one request opens the sequence with its segments", async () => {
    requests.length = 0;
    const w = new SequenceWindows(base, null);
    await opened(w);
    expect(requests).toEqual([`${base}&offset=0&limit=2000&segments=1`]);
    expect(w.opening?.segments.map((s) => `${s.call}:${s.kind}:${s.length}`)).toEqual([
      "a:prompt:4000",
      "a:generated:3",
      "b:interstitial:1000",
      "b:generated:2",
    ]);
    expect(idsOf(w, 0, 2000)).toEqual(all.slice(0, 2000));
    expect(w.error).toBeNull();
  });

  it("a sequence the rollout does not have is the route's error", async () => {
    const w = new SequenceWindows(base.replace("chain=main", "chain=branch-4"), null);
    await opened(w);
    expect(w.opening).toBeNull();
    expect(w.error).toMatch(/no chain branch-4/);
  });
});
