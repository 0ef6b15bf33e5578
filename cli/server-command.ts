// How `rollout-lens serve` starts the app: `next start` in a clone, the standalone server in the
// installed package. Not responsible for the serve flags (cli/args) or for supervising the child.
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import type BetterSqlite3 from "better-sqlite3";

export interface ServerCommand {
  /** The installed package's standalone server, or the clone's `next start`. */
  standalone: boolean;
  args: string[];
  env: Record<string, string>;
}

interface BuiltFor {
  platform: string;
  arch: string;
  node: string;
  modules: string;
}

const describe = (b: BuiltFor) => `${b.platform}-${b.arch}, Node ${b.node} (ABI ${b.modules})`;

/**
 * The installed package carries better-sqlite3 compiled for the machine that packed it (its
 * package.json says which, scripts/build-package.mjs): when that binding does not load here, one
 * line says why and what to do, before a server starts that could index nothing.
 */
export function bindingProblem(appDir: string): string | null {
  const load = createRequire(path.join(appDir, "server.js"));
  try {
    const Database = load("better-sqlite3") as typeof BetterSqlite3;
    new Database(":memory:").close();
    return null;
  } catch (err) {
    const manifest = JSON.parse(readFileSync(path.join(appDir, "package.json"), "utf8"));
    const { platform, arch, versions } = process;
    const here = { platform, arch, node: versions.node, modules: versions.modules };
    const built: BuiltFor | undefined = manifest.builtFor;
    return (
      `the package's SQLite binding does not load (${err instanceof Error ? err.message.split("\n")[0] : err}). ` +
      `It was built for ${built ? describe(built) : "another platform"}; this is ${describe(here)}. ` +
      "Pack it (npm pack) where it is to run, with the same Node major version."
    );
  }
}

/**
 * In a clone (.next/BUILD_ID from `npm run build`), `next start`. In the installed package the app
 * directory is .next/standalone (this CLI's bundle sits in its dist/): its server.js, which runs
 * from that directory, so paths are made absolute here, and the summary index goes to the user's
 * cache directory, never into the package. Null with no build.
 */
export function serverCommand(
  appDir: string,
  port: number,
  host: string,
  runsRoot: string | null,
): ServerCommand | null {
  const server = path.join(appDir, "server.js");
  if (existsSync(server)) {
    const cacheHome = process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache");
    return {
      standalone: true,
      args: [server],
      env: {
        PORT: String(port),
        HOSTNAME: host,
        ROLLOUT_LENS_RUNS: path.resolve(
          runsRoot ?? process.env.ROLLOUT_LENS_RUNS ?? path.join(appDir, "fixtures", "runs"),
        ),
        ROLLOUT_LENS_CACHE: path.resolve(
          process.env.ROLLOUT_LENS_CACHE || path.join(cacheHome, "rollout-lens"),
        ),
      },
    };
  }
  if (!existsSync(path.join(appDir, ".next", "BUILD_ID"))) return null;
  const next = path.join(appDir, "node_modules", "next", "dist", "bin", "next");
  return { standalone: false, args: [next, "start", "-p", String(port), "-H", host], env: {} };
}
