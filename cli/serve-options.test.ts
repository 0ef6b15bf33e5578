import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { line, tempStore, tokenRecord } from "@/lib/testing/temp-store";
import { BARE_RUN_ENV, parseCommand, serveEnvironment } from "./args";

// cli/bin.mjs runs dist/cli.mjs: build it from the current source first (esbuild, < 1 s).
beforeAll(() => void execFileSync(process.execPath, ["scripts/build-node.mjs"]), 60_000);

function cli(args: string[]) {
  return spawnSync(process.execPath, ["cli/bin.mjs", ...args], { encoding: "utf8" });
}

/** A caller's environment with only what a test names. */
const envOf = (more: Record<string, string> = {}): NodeJS.ProcessEnv => ({
  NODE_ENV: "test",
  ...more,
});

function serveCommand(argv: string[]) {
  const cmd = parseCommand(argv);
  if (cmd.command !== "serve") throw new Error(`not serve: ${cmd.command}`);
  return cmd;
}

describe("--help", () => {
  it("every command answers --help with its own usage on stdout and exit 0", () => {
    const cases: [string[], string[], string[]][] = [
      [["--help"], ["rollout-lens build", "rollout-lens serve"], []],
      [["-h"], ["rollout-lens build", "rollout-lens serve"], []],
      [["build", "--help"], ["rollout-lens build", "--jsonl"], ["rollout-lens serve"]],
      [["serve", "--help"], ["rollout-lens serve", "--tokenizer", "--profile"], ["--jsonl"]],
      [["serve", "-h"], ["rollout-lens serve"], ["rollout-lens build"]],
      [["help", "serve"], ["rollout-lens serve"], ["rollout-lens build"]],
    ];
    for (const [args, has, hasNot] of cases) {
      const res = cli(args);
      expect(res.status, args.join(" ")).toBe(0);
      expect(res.stderr, args.join(" ")).toBe("");
      for (const h of has) expect(res.stdout, args.join(" ")).toContain(h);
      for (const h of hasNot) expect(res.stdout, args.join(" ")).not.toContain(h);
    }
  });

  it("a usage error prints the command's usage, not every command's", () => {
    const res = cli(["serve", "--profile", "v9"]);
    expect(res.status).toBe(2);
    expect(res.stderr).toContain('--profile must be seed, gym-v1 or auto, not "v9"');
    expect(res.stderr).toContain("rollout-lens serve");
    expect(res.stderr).not.toContain("rollout-lens build");
  });
});

describe("serve on a bare capture directory", () => {
  it("takes --tokenizer, repeated --side-call-pattern and --profile as the run.json fields", () => {
    const cmd = serveCommand([
      "serve",
      "captures",
      "--tokenizer",
      "o200k_base",
      "--side-call-pattern",
      "haiku",
      "--side-call-pattern",
      "mini",
      "--profile",
      "gym-v1",
    ]);
    expect(cmd.bareRun).toEqual({
      tokenizer: "o200k_base",
      side_call_patterns: ["haiku", "mini"],
      builder_profile: "gym-v1",
    });
    const env = serveEnvironment(cmd, envOf());
    expect(JSON.parse(env[BARE_RUN_ENV] ?? "null")).toEqual(cmd.bareRun);
    expect(env.ROLLOUT_LENS_ALLOW_PATHS).toBeUndefined();
  });

  it("leaves the run.json fields alone when no flag names them", () => {
    const cmd = serveCommand(["serve", "captures"]);
    expect(cmd.bareRun).toEqual({});
    expect(serveEnvironment(cmd, envOf())[BARE_RUN_ENV]).toBeUndefined();
  });

  it("a tokenizer path becomes absolute and its directory is allowed (it lies outside the run)", () => {
    const cmd = serveCommand(["serve", "captures", "--tokenizer", "models/q/tokenizer.json"]);
    const file = path.join(process.cwd(), "models/q/tokenizer.json");
    expect(cmd.bareRun).toEqual({ tokenizer: file });
    const env = serveEnvironment(cmd, envOf({ ROLLOUT_LENS_ALLOW_PATHS: "/data" }));
    expect(env.ROLLOUT_LENS_ALLOW_PATHS).toBe(["/data", path.dirname(file)].join(path.delimiter));
  });

  it("refuses the flags on a runs root of runs, saying where they belong", () => {
    const res = cli(["serve", "fixtures/runs", "--side-call-pattern", "haiku"]);
    expect(res.status).toBe(2);
    expect(res.stderr).toContain("apply to a directory served as one run");
    expect(res.stderr).toContain("set them in each run's run.json");
  });

  it("takes the flags for a run directory served as its root (tokens/ beside rollouts.jsonl)", () => {
    const dir = tempStore({ "rollouts.jsonl": "" });
    mkdirSync(path.join(dir, "tokens"));
    writeFileSync(
      path.join(dir, "tokens", "r1.tokens.jsonl"),
      line(tokenRecord("r1", "a", [1], [2])),
    );
    // Past the flags' check: the tokenizer path is what is refused.
    const res = cli(["serve", dir, "--tokenizer", path.join(dir, "no-such.json")]);
    expect(res.status).toBe(2);
    expect(res.stderr).toContain("no-such.json: no such file");
  });

  it("refuses a tokenizer path that is no file, naming the bundled encodings", () => {
    const dir = tempStore({ "r1.tokens.jsonl": line(tokenRecord("r1", "a", [1], [2])) });
    const res = cli(["serve", dir, "--tokenizer", path.join(dir, "no-such.json")]);
    expect(res.status).toBe(2);
    expect(res.stderr).toContain("no-such.json: no such file");
    expect(res.stderr).toContain("o200k_base");
    const models = path.join(dir, "..", `models-${path.basename(dir)}`);
    mkdirSync(models);
    writeFileSync(path.join(models, "vocab.txt"), "");
    expect(cli(["serve", dir, "--tokenizer", models]).stderr).toContain(": no such file");
  });

  it("refuses build-only options on serve and serve-only options on build", () => {
    expect(() => parseCommand(["serve", "--jsonl"])).toThrow("--jsonl is an option of build");
    expect(() => parseCommand(["build", "d", "--tokenizer", "o200k_base"])).toThrow(
      "--tokenizer is an option of serve",
    );
  });
});
