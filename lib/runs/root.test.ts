// Confinement of a run's paths: store directories, run.json `paths` and run.json itself must resolve
// inside the runs root or an --allow-path directory; a refused path is the run's manifest error (the
// run is still listed) and is never read. Built in temp roots with real symlinks.
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { InvalidInputError, UnknownRunError } from "@/lib/errors";
import { line, tokenRecord } from "@/lib/testing/temp-store";
import { getRun, listRuns } from "./root";

const tokens = line(tokenRecord("r-0", "c1", [1, 2], [3]));

function tempDir(prefix: string): string {
  return mkdtempSync(path.join(os.tmpdir(), `rollout-lens-${prefix}-`));
}

function writeManifest(run: string, manifest: Record<string, unknown>): void {
  writeFileSync(path.join(run, "run.json"), JSON.stringify(manifest));
}

/** A runs root holding run `run` (with run.json when given) and a directory outside it. */
function layout(manifest?: Record<string, unknown>) {
  const root = tempDir("root");
  const run = path.join(root, "run");
  mkdirSync(run);
  if (manifest) writeManifest(run, manifest);
  const outside = tempDir("outside");
  writeFileSync(path.join(outside, "r-0.tokens.jsonl"), tokens);
  writeFileSync(path.join(outside, "rollouts.jsonl"), "{}\n");
  return { root, run, outside };
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("run paths are confined to the runs root", () => {
  it("refuses a tokens/ directory that is a symlink out of the root, and lists the run", async () => {
    const { root, run, outside } = layout();
    symlinkSync(outside, path.join(run, "tokens"));
    const r = await getRun("run", root);
    expect(r.tokensDir).toBeNull();
    expect(r.modelCallsDir).toBeNull();
    expect(r.manifestError).toBe(
      "tokens: a symlink that points outside the runs root; refused (rollout-lens serve --allow-path DIR, or ROLLOUT_LENS_ALLOW_PATHS, allows more)",
    );
    const listed = await listRuns(root);
    expect(listed.map((x) => [x.id, x.tokensDir, x.manifestError?.slice(0, 8)])).toEqual([
      ["run", null, "tokens: "],
    ]);
  });

  it("refuses a model-calls/ directory that is a symlink out of the root", async () => {
    const { root, run, outside } = layout();
    mkdirSync(path.join(run, "tokens"));
    symlinkSync(outside, path.join(run, "model-calls"));
    const r = await getRun("run", root);
    expect(r.tokensDir).toBe(path.join(run, "tokens"));
    expect(r.modelCallsDir).toBeNull();
    expect(r.manifestError).toMatch(/^model-calls: a symlink that points outside the runs root;/);
  });

  it("refuses run.json paths outside the root: absolute, by .., and through a symlink", async () => {
    const { root, run, outside } = layout();
    writeManifest(run, {
      paths: {
        rollouts: "/etc/passwd",
        metrics: path.relative(run, path.join(outside, "rollouts.jsonl")),
        tokens: "link/.",
      },
    });
    symlinkSync(outside, path.join(run, "link"));
    const r = await getRun("run", root);
    expect([r.tokensDir, r.rolloutsFile, r.metricsFile]).toEqual([null, null, null]);
    const errors = r.manifestError ?? "";
    expect(errors.match(/refused/g)).toHaveLength(3);
    expect(errors).toMatch(/^run\.json paths\.tokens: link\/\.: a symlink that points outside the/);
    expect(errors).toContain(
      "; run.json paths.rollouts: /etc/passwd: outside the runs root; refused",
    );
    expect(errors).toMatch(
      /; run\.json paths\.metrics: \.\.\/[^:]*: outside the runs root; refused/,
    );
  });

  it("refuses a run.json that is a symlink out of the root, without reading it", async () => {
    const { root, run, outside } = layout();
    writeFileSync(path.join(outside, "run.json"), JSON.stringify({ name: "leaked" }));
    symlinkSync(path.join(outside, "run.json"), path.join(run, "run.json"));
    const r = await getRun("run", root);
    expect(r.manifest).toEqual({});
    expect(r.manifestError).toMatch(/^run\.json: run\.json: a symlink that points outside/);
  });

  it("serves paths under an --allow-path directory (ROLLOUT_LENS_ALLOW_PATHS)", async () => {
    const { root, run, outside } = layout();
    writeManifest(run, {
      paths: { tokens: outside, rollouts: path.join(outside, "rollouts.jsonl") },
    });
    symlinkSync(outside, path.join(run, "model-calls"));
    const other = tempDir("other");
    vi.stubEnv("ROLLOUT_LENS_ALLOW_PATHS", [other, outside].join(path.delimiter));
    const r = await getRun("run", root);
    expect(r.manifestError).toBeNull();
    expect(r.tokensDir).toBe(outside);
    expect(r.modelCallsDir).toBe(path.join(run, "model-calls"));
    expect(r.rolloutsFile).toBe(path.join(outside, "rollouts.jsonl"));
    vi.stubEnv("ROLLOUT_LENS_ALLOW_PATHS", other);
    const refused = await getRun("run", root);
    expect(refused.tokensDir).toBeNull();
    expect(refused.manifestError).toContain(
      "outside the runs root and the --allow-path directories",
    );
  });

  it("accepts symlinks that stay inside the root, and missing files under it", async () => {
    const { root, run } = layout({ paths: { metrics: "not-yet.jsonl" } });
    const shared = path.join(root, "shared-tokens");
    mkdirSync(shared);
    writeFileSync(path.join(shared, "r-0.tokens.jsonl"), tokens);
    symlinkSync(shared, path.join(run, "tokens"));
    const r = await getRun("run", root);
    expect(r.manifestError).toBeNull();
    expect(r.tokensDir).toBe(path.join(run, "tokens"));
    expect(r.metricsFile).toBe(path.join(run, "not-yet.jsonl"));
  });

  it("accepts a runs root reached through a symlink", async () => {
    const { root, run } = layout({ paths: { rollouts: "rollouts.jsonl" } });
    writeFileSync(path.join(run, "rollouts.jsonl"), "{}\n");
    const alias = path.join(tempDir("alias"), "root");
    symlinkSync(root, alias);
    const r = await getRun("run", alias);
    expect(r.manifestError).toBeNull();
    expect(r.rolloutsFile).toBe(path.join(alias, "run", "rollouts.jsonl"));
  });
});

describe("run ids", () => {
  it("a malformed id is invalid input (400), an unknown valid id is unknown (404)", async () => {
    const { root } = layout();
    for (const bad of ["..", "a/b", "-x", "bad!id", "", "x".repeat(201)])
      await expect(getRun(bad, root), bad).rejects.toThrow(InvalidInputError);
    await expect(getRun("nope", root)).rejects.toThrow(UnknownRunError);
    await expect(getRun("run", root)).resolves.toMatchObject({ id: "run", root });
  });
});
