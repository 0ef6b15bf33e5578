// Every JSON route answers through json() or errorResponse(), so every answer carries
// `cache-control: no-store`; malformed run ids are 400 on every run route, unknown ones 404; a run
// whose paths are refused is listed with its error by /api/runs, not a crash.
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { errorResponse } from "@/lib/http/errors";
import { json } from "@/lib/http/params";
import { line, tokenRecord } from "@/lib/testing/temp-store";
import { API as ROUTES, DOWNLOADS, runListSchema } from "@/lib/schema";
import { GET as getCompare } from "./compare/route";
import { GET as getRuns } from "./runs/route";
import { GET as getExport } from "./runs/[run]/export/route";
import { GET as getHealth } from "./runs/[run]/health/route";
import { GET as getRollouts } from "./runs/[run]/rollouts/route";
import { GET as getRollout } from "./runs/[run]/rollouts/[rollout]/route";
import { GET as getCall } from "./runs/[run]/rollouts/[rollout]/calls/[call]/route";
import { GET as getConversation } from "./runs/[run]/rollouts/[rollout]/conversation/route";
import { GET as getNeighbors } from "./runs/[run]/rollouts/[rollout]/neighbors/route";
import { GET as getProgress } from "./runs/[run]/rollouts/[rollout]/progress/route";
import { GET as getTokens } from "./runs/[run]/rollouts/[rollout]/tokens/route";

const API = path.dirname(new URL(import.meta.url).pathname);

function routeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory()
      ? routeFiles(path.join(dir, d.name))
      : d.name === "route.ts"
        ? [path.join(dir, d.name)]
        : [],
  );
}

describe("no-store on every JSON route", () => {
  it("every route file answers through answer() (json() or errorResponse()) or a no-store Response", () => {
    const files = routeFiles(API);
    expect(files.length).toBeGreaterThanOrEqual(16);
    for (const file of files) {
      const src = readFileSync(file, "utf8");
      const name = path.relative(API, file);
      expect(src, name).toMatch(/^export const GET = answer\(/m);
      expect(src, name).not.toMatch(/export (async )?function/);
      if (src.includes("new Response(")) expect(src, name).toContain('"cache-control": "no-store"');
      expect(src, name).not.toMatch(/Response\.json\(|NextResponse/);
    }
  });

  it("every route of the table has its route file, and each route file names its routes", () => {
    const files = new Set(routeFiles(API).map((f) => path.relative(API, f)));
    const params = { run: "[run]", rollout: "[rollout]", call: "[call]" };
    const named = new Set<string>();
    const entries = [
      ...Object.entries(ROUTES).map(([key, r]) => [`API.${key}`, r.path] as const),
      ...Object.entries(DOWNLOADS).map(([key, r]) => [`DOWNLOADS.${key}`, r.path] as const),
    ];
    for (const [key, pathOf] of entries) {
      // The table encodes parameters; the bracketed names come back as the folders' own.
      const at = decodeURIComponent((pathOf as (p: typeof params) => string)(params));
      const file = `${at.replace(/^\/api\//, "")}/route.ts`;
      expect(files, key).toContain(file);
      expect(readFileSync(path.join(API, file), "utf8"), `${file} names ${key}`).toContain(key);
      named.add(file);
    }
    expect([...files].filter((f) => !named.has(f))).toEqual([]);
  });

  it("json() and errorResponse() set it", () => {
    vi.spyOn(console, "error").mockImplementation(() => {}); // errorResponse logs a 500
    expect(json({ a: 1 }).headers.get("cache-control")).toBe("no-store");
    for (const err of [new Error("x"), "y"])
      expect(errorResponse(err).headers.get("cache-control")).toBe("no-store");
    vi.restoreAllMocks();
  });
});

let root: string;
const prev = process.env.ROLLOUT_LENS_RUNS;
const ctx = (params: Record<string, string>) => ({ params: Promise.resolve(params) }) as never;
const req = (url = "/x") => new Request(`http://localhost${url}`);

beforeAll(() => {
  root = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-json-routes-"));
  mkdirSync(path.join(root, "good", "tokens"), { recursive: true });
  writeFileSync(
    path.join(root, "good", "tokens", "0-0.tokens.jsonl"),
    line(tokenRecord("0-0", "a", [1, 2], [3])),
  );
  const outside = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-json-outside-"));
  writeFileSync(path.join(outside, "0-0.tokens.jsonl"), line(tokenRecord("0-0", "a", [1], [2])));
  mkdirSync(path.join(root, "leaky"));
  symlinkSync(outside, path.join(root, "leaky", "tokens"));
  process.env.ROLLOUT_LENS_RUNS = root;
});
afterAll(() => {
  if (prev === undefined) delete process.env.ROLLOUT_LENS_RUNS;
  else process.env.ROLLOUT_LENS_RUNS = prev;
});

describe("run ids and refused paths, through the routes", () => {
  it("/api/runs is no-store and lists a run with a refused tokens/ directory with its error", async () => {
    const res = await getRuns();
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const { runs } = runListSchema.parse(await res.json());
    // Worst first: the run with a refused path is an error, listed above the good one.
    expect(runs.map((r) => r.id)).toEqual(["leaky", "good"]);
    expect(runs[0]?.manifest_error).toMatch(
      /^tokens: a symlink that points outside the runs root; refused/,
    );
    expect(runs[0]?.worst_alert).toMatchObject({ kind: "manifest", severity: "error" });
    expect(runs[1]?.manifest_error).toBeNull();
  }, 60_000);

  it("a malformed run id is 400 and an unknown one 404 on every run route, all no-store", async () => {
    const routes: Array<[string, (run: string) => Promise<Response>]> = [
      ["health", (run) => getHealth(req(), ctx({ run }))],
      ["rollouts", (run) => getRollouts(req(), ctx({ run }))],
      ["export", (run) => getExport(req(), ctx({ run }))],
      ["rollout", (run) => getRollout(req(), ctx({ run, rollout: "0-0" }))],
      ["call", (run) => getCall(req(), ctx({ run, rollout: "0-0", call: "a" }))],
      ["conversation", (run) => getConversation(req(), ctx({ run, rollout: "0-0" }))],
      ["neighbors", (run) => getNeighbors(req(), ctx({ run, rollout: "0-0" }))],
      ["progress", (run) => getProgress(req(), ctx({ run, rollout: "0-0" }))],
      ["tokens", (run) => getTokens(req("/x?chain=main"), ctx({ run, rollout: "0-0" }))],
      ["compare", (run) => getCompare(req(`/x?a=${encodeURIComponent(run)}&b=good`))],
    ];
    for (const [name, get] of routes) {
      for (const [run, status] of [
        ["bad!id", 400],
        ["../good", 400],
        ["nope", 404],
      ] as const) {
        const res = await get(run);
        expect(res.status, `${name} ${run}`).toBe(status);
        expect(res.headers.get("cache-control"), name).toBe("no-store");
        const { error } = (await res.json()) as { error: string };
        expect(error, name).toMatch(status === 400 ? /^invalid run id / : /^no run "nope"/);
      }
    }
  }, 60_000);
});
