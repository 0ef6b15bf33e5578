// Command-line parsing for `rollout-lens`; kept apart from main so it is testable.
import path from "node:path";
import { parseArgs } from "node:util";
import { z } from "zod";
import { builderProfileSchema } from "@/lib/schema";

export const USAGE = `usage:
  rollout-lens build <store-dir> [--jsonl] [--profile seed|gym-v1|auto] [--side-call-pattern P]... [--rollout ID]...
  rollout-lens serve [<runs-root>] [--port N] [--host H] [--allowed-host NAME[:PORT]]... [--allow-path DIR]...

build   decides every rollout's verdict in a token store, as the trainer's consumer would.
        --jsonl prints one JSON object per rollout (sorted by id); without it, a table.
serve   serves the dashboard (needs a prior \`npm run build\`) on a runs root
        (default: $ROLLOUT_LENS_RUNS, else the bundled fixtures/runs). Without ROLLOUT_LENS_TOKEN it
        answers only requests for loopback names (localhost, 127.0.0.1, [::1]) on its port;
        --allowed-host adds a name you reach it by (a tunnel, a proxy), on any port unless given.
        --allow-path lets run.json paths and tokenizers lead into DIR besides the runs root.`;

export type Command =
  | {
      command: "build";
      storeDir: string;
      jsonl: boolean;
      profile: z.infer<typeof builderProfileSchema>;
      sideCallPatterns: string[];
      rollouts: string[];
    }
  | {
      command: "serve";
      runsRoot: string | null;
      port: number;
      host: string;
      allowedHosts: string[];
      allowPaths: string[];
    }
  | { command: "help" };

export class UsageError extends Error {}

/** What lib/http/access accepts as an allowed host: a name or [IPv6] address, maybe with a port. */
const HOST_NAME = /^(\[[0-9a-f:.]+\]|[a-z0-9._-]+)(:\d{1,5})?$/i;

/**
 * The environment `next start` gets for a serve command: the runs root, and the allowed hosts and
 * paths added to any the caller's environment already names (the proxy and lib read them there).
 */
export function serveEnvironment(
  cmd: Extract<Command, { command: "serve" }>,
  base: NodeJS.ProcessEnv,
): NodeJS.ProcessEnv {
  const env = { ...base };
  if (cmd.runsRoot) env.ROLLOUT_LENS_RUNS = path.resolve(cmd.runsRoot);
  const join = (given: string | undefined, more: string[], sep: string) =>
    [...(given ? given.split(sep) : []), ...more].filter((x) => x !== "").join(sep);
  if (cmd.allowedHosts.length > 0)
    env.ROLLOUT_LENS_ALLOWED_HOSTS = join(base.ROLLOUT_LENS_ALLOWED_HOSTS, cmd.allowedHosts, ",");
  if (cmd.allowPaths.length > 0)
    env.ROLLOUT_LENS_ALLOW_PATHS = join(
      base.ROLLOUT_LENS_ALLOW_PATHS,
      cmd.allowPaths,
      path.delimiter,
    );
  return env;
}

export function parseCommand(argv: string[]): Command {
  const [command, ...rest] = argv;
  if (command === undefined || command === "help" || command === "--help" || command === "-h")
    return { command: "help" };
  let parsed;
  try {
    parsed = parseArgs({
      args: rest,
      allowPositionals: true,
      options: {
        jsonl: { type: "boolean", default: false },
        profile: { type: "string", default: "seed" },
        "side-call-pattern": { type: "string", multiple: true, default: [] },
        rollout: { type: "string", multiple: true, default: [] },
        port: { type: "string", default: "3123" },
        host: { type: "string", default: "127.0.0.1" },
        "allowed-host": { type: "string", multiple: true, default: [] },
        "allow-path": { type: "string", multiple: true, default: [] },
      },
    });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const { values, positionals } = parsed;
  if (command === "build") {
    if (positionals.length !== 1) throw new UsageError("build takes exactly one <store-dir>");
    const profile = builderProfileSchema.safeParse(values.profile);
    if (!profile.success)
      throw new UsageError(
        `--profile must be seed, gym-v1 or auto, not ${JSON.stringify(values.profile)}`,
      );
    return {
      command: "build",
      storeDir: positionals[0] as string,
      jsonl: values.jsonl,
      profile: profile.data,
      sideCallPatterns: values["side-call-pattern"],
      rollouts: values.rollout,
    };
  }
  if (command === "serve") {
    const port = Number(values.port);
    if (!Number.isInteger(port) || port < 1 || port > 65535)
      throw new UsageError(`--port must be 1-65535, not ${values.port}`);
    if (positionals.length > 1) throw new UsageError("serve takes at most one <runs-root>");
    const badHost = values["allowed-host"].find((h) => !HOST_NAME.test(h));
    if (badHost !== undefined)
      throw new UsageError(
        `--allowed-host takes a host name or address, with an optional :port, not ${JSON.stringify(badHost)}`,
      );
    return {
      command: "serve",
      runsRoot: positionals[0] ?? null,
      port,
      host: values.host,
      allowedHosts: values["allowed-host"].map((h) => h.toLowerCase()),
      allowPaths: values["allow-path"].map((p) => path.resolve(p)),
    };
  }
  throw new UsageError(`unknown command ${JSON.stringify(command)}`);
}
