import { execFileSync, spawnSync } from "node:child_process";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { golden } from "@/lib/testing/golden";
import { fingerprintDir, line, tempStore, tokenRecord } from "@/lib/testing/temp-store";
import { parseCommand, serveEnvironment, UsageError } from "./args";

const KEYS = [
  "rollout_id",
  "profile",
  "mask_sample",
  "mask_reasons",
  "error",
  "metrics",
  "side_calls",
  "quarantined",
  "unresolved_retries",
  "roots",
  "torn_tail",
  "main",
];

// cli/bin.mjs runs dist/cli.mjs: build it from the current source first (esbuild, < 1 s).
beforeAll(() => void execFileSync(process.execPath, ["scripts/build-node.mjs"]), 60_000);

function cli(args: string[]) {
  return spawnSync(process.execPath, ["cli/bin.mjs", ...args], { encoding: "utf8" });
}

describe("rollout-lens build", () => {
  it("prints one JSON object per rollout, sorted, with exactly the documented keys", () => {
    const dir = tempStore(golden().example_token_store_directory_main_v1.files);
    const before = fingerprintDir(dir);
    const out = execFileSync(
      process.execPath,
      ["cli/bin.mjs", "build", dir, "--jsonl", "--profile", "auto"],
      { encoding: "utf8" },
    );
    const rows = out
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(rows.map((r) => r.rollout_id)).toEqual(["0-0", "0-0-a1", "1-0", "2-0", "3-0"]);
    for (const r of rows) expect(Object.keys(r)).toEqual(KEYS);
    expect(rows[0]!.main).toEqual({
      call_ids: ["c1", "c2"],
      token_ids: [1, 2, 3, 4, 5, 6, 7],
      loss_mask: [0, 0, 0, 1, 1, 0, 1],
      log_probs: [null, null, null, -0.5, -0.5, null, -0.5],
    });
    expect(fingerprintDir(dir)).toEqual(before);
  });

  it("applies side-call patterns and filters by --rollout", () => {
    const rec = (id: string, prompt: number[], gen: number[], model: string) =>
      line(tokenRecord("r1", id, prompt, gen, { requested_model: model }));
    const dir = tempStore({
      "r1.tokens.jsonl": rec("a", [1, 2], [3], "opus") + rec("t", [9], [8, 8, 8], "haiku"),
      "r2.tokens.jsonl": rec("b", [1], [2], "opus"),
    });
    const res = cli(["build", dir, "--jsonl", "--rollout", "r1", "--side-call-pattern", "HAIKU"]);
    expect(res.status).toBe(0);
    const row = JSON.parse(res.stdout.trim());
    expect(row.rollout_id).toBe("r1");
    expect(row.side_calls).toEqual([
      {
        model_call_id: "t",
        requested_model: "haiku",
        generated_tokens: 3,
        reason: { kind: "pattern", pattern: "haiku" },
      },
    ]);
    expect(row.main.call_ids).toEqual(["a"]);
  });

  it("says what is wrong with a missing directory, an unknown rollout or a bad flag", () => {
    expect(cli(["build", "/nonexistent-dir-xyz", "--jsonl"])).toMatchObject({
      status: 1,
      stderr: expect.stringContaining("not a directory"),
    });
    const dir = tempStore({});
    expect(cli(["build", dir, "--rollout", "../etc"])).toMatchObject({
      status: 1,
      stderr: expect.stringContaining('no rollout "../etc"'),
    });
    expect(cli(["build", dir, "--profile", "v9"])).toMatchObject({
      status: 2,
      stderr: expect.stringContaining("--profile must be seed, gym-v1 or auto"),
    });
  });

  it("parses serve options and refuses non-numeric ports", () => {
    expect(parseCommand(["serve", "/data/runs", "--port", "4000"])).toEqual({
      command: "serve",
      runsRoot: "/data/runs",
      port: 4000,
      host: "127.0.0.1",
      allowedHosts: [],
      allowPaths: [],
      bareRun: {},
    });
    expect(() => parseCommand(["serve", "--port", "x"])).toThrow(UsageError);
  });

  it("parses repeated --allowed-host and --allow-path, and refuses a malformed host", () => {
    const cmd = parseCommand([
      "serve",
      "--allowed-host",
      "Box.Lan",
      "--allowed-host",
      "tunnel:9000",
      "--allow-path",
      "/models",
      "--allow-path",
      "rel/dir",
    ]);
    expect(cmd).toMatchObject({
      allowedHosts: ["box.lan", "tunnel:9000"],
      allowPaths: ["/models", path.join(process.cwd(), "rel/dir")],
    });
    for (const bad of ["http://box", "a b", "box:", "", "evil.example/x"])
      expect(() => parseCommand(["serve", "--allowed-host", bad]), bad).toThrow(
        /--allowed-host takes a host name/,
      );
  });

  it("passes allowed hosts and paths to next start through the environment, after any given", () => {
    const cmd = parseCommand(["serve", "runs", "--allowed-host", "box", "--allow-path", "/m"]);
    if (cmd.command !== "serve") throw new Error("not serve");
    const env = serveEnvironment(cmd, {
      ...process.env,
      ROLLOUT_LENS_ALLOWED_HOSTS: "proxy.lan",
      ROLLOUT_LENS_ALLOW_PATHS: "/data",
    });
    expect(env.ROLLOUT_LENS_RUNS).toBe(path.join(process.cwd(), "runs"));
    expect(env.ROLLOUT_LENS_ALLOWED_HOSTS).toBe("proxy.lan,box");
    expect(env.ROLLOUT_LENS_ALLOW_PATHS).toBe(["/data", "/m"].join(path.delimiter));
    const bare = parseCommand(["serve"]);
    if (bare.command !== "serve") throw new Error("not serve");
    expect(serveEnvironment(bare, process.env)).toEqual(process.env);
  });
});

describe("serve", () => {
  it("refuses to bind beyond loopback without ROLLOUT_LENS_TOKEN", () => {
    const env = { ...process.env };
    delete env.ROLLOUT_LENS_TOKEN;
    const res = spawnSync(
      process.execPath,
      ["cli/bin.mjs", "serve", "fixtures/runs", "--host", "0.0.0.0", "--port", "3199"],
      { encoding: "utf8", env, timeout: 20_000 },
    );
    expect(res.status).toBe(2);
    expect(res.stderr).toBe(
      "rollout-lens: binding to 0.0.0.0 needs ROLLOUT_LENS_TOKEN set (every request must then carry it)\n",
    );
  });

  it("refuses an --allow-path that is not a directory before starting anything", () => {
    const res = cli(["serve", "fixtures/runs", "--allow-path", "/nonexistent/rollout-lens"]);
    expect(res.status).toBe(2);
    expect(res.stderr).toBe(
      "rollout-lens: --allow-path /nonexistent/rollout-lens: not a directory\n",
    );
  });
});
