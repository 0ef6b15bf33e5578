// `rollout-lens`: the command line over the same lib the dashboard uses (`build` reads and decides
// each rollout with lib/rollout/build, as the routes and the index do; `index` summarises a
// shard of a run as the summary index does: ./index-command). Runs as the bundle
// dist/cli.mjs (scripts/build-node.mjs), started by cli/bin.mjs.
import { spawn } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { toVerdictRow, verdictRowJson } from "@/lib/builder";
import { listStore, isValidRolloutId } from "@/lib/store";
import { buildRollout } from "@/lib/rollout";
import { isOneRun } from "@/lib/runs";
import { formatTableRow, TABLE_HEADER } from "./table";
import { BUNDLED_ENCODINGS } from "@/lib/tokens";
import { parseCommand, serveEnvironment, UsageError, type Command } from "./args";
import { runIndex, runMerge } from "./index-command";
import { bindingProblem, serverCommand } from "./server-command";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

async function runBuild(cmd: Extract<Command, { command: "build" }>): Promise<number> {
  if (!existsSync(cmd.storeDir) || !statSync(cmd.storeDir).isDirectory()) {
    process.stderr.write(`rollout-lens: ${cmd.storeDir}: not a directory\n`);
    return 1;
  }
  const listing = await listStore(cmd.storeDir);
  for (const name of listing.skipped)
    process.stderr.write(`rollout-lens: skipped ${name}: not a valid rollout id\n`);
  let ids = [...listing.rollouts.keys()].sort();
  if (cmd.rollouts.length > 0) {
    const missing = cmd.rollouts.filter((id) => !isValidRolloutId(id) || !listing.rollouts.has(id));
    for (const id of missing)
      process.stderr.write(`rollout-lens: no rollout ${JSON.stringify(id)} in ${cmd.storeDir}\n`);
    if (missing.length > 0) return 1;
    const wanted = new Set(cmd.rollouts);
    ids = ids.filter((id) => wanted.has(id));
  }
  if (!cmd.jsonl) process.stdout.write(TABLE_HEADER + "\n");
  for (const id of ids) {
    const { verdict } = await buildRollout(cmd.storeDir, id, {
      profile: cmd.profile,
      sideCallPatterns: cmd.sideCallPatterns,
    });
    const row = toVerdictRow(verdict);
    process.stdout.write((cmd.jsonl ? verdictRowJson(row) : formatTableRow(row)) + "\n");
  }
  return 0;
}

type ServeCommand = Extract<Command, { command: "serve" }>;

/**
 * Serve's run.json flags name the settings of a directory served as one run (a bare capture
 * directory, or a run directory: lib/runs isOneRun): refused (with why) when the runs root holds
 * runs, or the tokenizer path is not a file. A tokenizer given as a directory means its
 * tokenizer.json.
 */
async function checkBareRun(cmd: ServeCommand): Promise<ServeCommand | string> {
  if (Object.keys(cmd.bareRun).length === 0) return cmd;
  const root = path.resolve(
    cmd.runsRoot ?? process.env.ROLLOUT_LENS_RUNS ?? path.join(ROOT, "fixtures", "runs"),
  );
  if (!(await isOneRun(root)))
    return `--tokenizer, --side-call-pattern and --profile apply to a directory served as one run (*.tokens.jsonl, or a run's tokens/ and rollouts.jsonl); ${root} holds runs: set them in each run's run.json`;
  const given = cmd.bareRun.tokenizer;
  if (given === undefined || !path.isAbsolute(given)) return cmd;
  const file =
    existsSync(given) && statSync(given).isDirectory() ? path.join(given, "tokenizer.json") : given;
  if (!existsSync(file) || !statSync(file).isFile())
    return `--tokenizer ${given}: no such file (give a tokenizer.json, its directory, or a bundled encoding: ${BUNDLED_ENCODINGS.join(", ")})`;
  return { ...cmd, bareRun: { ...cmd.bareRun, tokenizer: file } };
}

async function runServe(given: ServeCommand): Promise<number> {
  const checked = await checkBareRun(given);
  if (typeof checked === "string") {
    process.stderr.write(`rollout-lens: ${checked}\n`);
    return 2;
  }
  const cmd = checked;
  const loopback = cmd.host === "127.0.0.1" || cmd.host === "localhost" || cmd.host === "::1";
  if (!loopback && !process.env.ROLLOUT_LENS_TOKEN) {
    process.stderr.write(
      `rollout-lens: binding to ${cmd.host} needs ROLLOUT_LENS_TOKEN set (every request must then carry it)\n`,
    );
    return 2;
  }
  const notDir = cmd.allowPaths.find((p) => !existsSync(p) || !statSync(p).isDirectory());
  if (notDir !== undefined) {
    process.stderr.write(`rollout-lens: --allow-path ${notDir}: not a directory\n`);
    return 2;
  }
  const server = serverCommand(ROOT, cmd.port, cmd.host, cmd.runsRoot);
  if (server === null) {
    process.stderr.write("rollout-lens: no production build found; run `npm run build` first\n");
    return 1;
  }
  const problem = server.standalone ? bindingProblem(ROOT) : null;
  if (problem !== null) {
    process.stderr.write(`rollout-lens: ${problem}\n`);
    return 1;
  }
  const child = spawn(process.execPath, server.args, {
    cwd: ROOT,
    env: { ...serveEnvironment(cmd, process.env), ...server.env },
    stdio: "inherit",
  });
  // A supervisor that stops this process must stop the server too, not leave it holding the port.
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const)
    process.on(signal, () => child.kill(signal));
  return new Promise<number>((resolve) => child.on("exit", (code) => resolve(code ?? 0)));
}

async function main(argv: string[]): Promise<number> {
  let cmd: Command;
  try {
    cmd = parseCommand(argv);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`rollout-lens: ${err.message}\n${err.usage}\n`);
    return 2;
  }
  if (cmd.command === "help") {
    process.stdout.write(cmd.usage + "\n");
    return 0;
  }
  if (cmd.command === "index") return runIndex(cmd, ROOT);
  if (cmd.command === "merge") return runMerge(cmd);
  return cmd.command === "build" ? runBuild(cmd) : runServe(cmd);
}

// `rollout-lens build ... | head` closes stdout early: stop quietly instead of crashing.
process.stdout.on("error", (err: NodeJS.ErrnoException) => {
  if (err.code === "EPIPE") process.exit(0);
  throw err;
});

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`rollout-lens: ${(err as Error).stack ?? String(err)}\n`);
    process.exitCode = 1;
  },
);
