import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { TOKEN_WINDOW } from "@/lib/view/inspector-url";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as getTokens } from "./tokens/route";
import { inspectRollout } from "@/lib/inspect/rollout-model";
import { firstWindow } from "@/lib/inspect/token-window";
import { getRun } from "@/lib/runs/root";
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
    const W = TOKEN_WINDOW;
    const shipped = firstWindow(await inspectRollout(await getRun("run-w"), "w-0"), null, 2500);
    const at = Math.floor(2500 / W) * W;
    expect(shipped?.offset).toBe(at);
    const w = new SequenceWindows(base, shipped);
    // Every other window of the sequence, once each.
    const others = Array.from({ length: Math.ceil(all.length / W) }, (_, p) => p * W).filter(
      (o) => o !== at,
    );
    let arrived = 0;
    let allLoaded: () => void = () => undefined;
    const loaded = new Promise<void>((resolve) => (allLoaded = resolve));
    w.start(() => ++arrived === others.length && allLoaded());
    expect(requests).toEqual([]);
    expect(w.opening?.total).toBe(all.length);
    expect(idsOf(w, at, at + W)).toEqual(all.slice(at, at + W));
    w.ensure(0, all.length);
    w.ensure(0, all.length); // asked again while in flight: not fetched twice
    await loaded;
    expect(requests.sort()).toEqual(others.map((o) => `${base}&offset=${o}&limit=${W}`).sort());
    expect(idsOf(w, 0, all.length)).toEqual(all);
  });

  it("without it: one request opens the sequence with its segments", async () => {
    requests.length = 0;
    const w = new SequenceWindows(base, null);
    await opened(w);
    expect(requests).toEqual([`${base}&offset=0&limit=${TOKEN_WINDOW}&segments=1`]);
    expect(w.opening?.segments.map((s) => `${s.call}:${s.kind}:${s.length}`)).toEqual([
      "a:prompt:4000",
      "a:generated:3",
      "b:interstitial:1000",
      "b:generated:2",
    ]);
    expect(idsOf(w, 0, TOKEN_WINDOW)).toEqual(all.slice(0, TOKEN_WINDOW));
    expect(w.error).toBeNull();
  });

  it("a sequence the rollout does not have is the route's error", async () => {
    const w = new SequenceWindows(base.replace("chain=main", "chain=branch-4"), null);
    await opened(w);
    expect(w.opening).toBeNull();
    expect(w.error).toMatch(/no chain branch-4/);
  });
});
