// Command-line parsing for `rollout-lens`; kept apart from main so it is testable.
import { parseArgs } from "node:util";
import { z } from "zod";
import { builderProfileSchema } from "@/lib/schema";

export const USAGE = `usage:
  rollout-lens build <store-dir> [--jsonl] [--profile seed|gym-v1|auto] [--side-call-pattern P]... [--rollout ID]...
  rollout-lens serve [<runs-root>] [--port N] [--host H]

build   decides every rollout's verdict in a token store, as the trainer's consumer would.
        --jsonl prints one JSON object per rollout (sorted by id); without it, a table.
serve   serves the dashboard (needs a prior \`npm run build\`) on a runs root
        (default: $ROLLOUT_LENS_RUNS, else the bundled fixtures/runs).`;

export type Command =
  | {
      command: "build";
      storeDir: string;
      jsonl: boolean;
      profile: z.infer<typeof builderProfileSchema>;
      sideCallPatterns: string[];
      rollouts: string[];
    }
  | { command: "serve"; runsRoot: string | null; port: number; host: string }
  | { command: "help" };

export class UsageError extends Error {}

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
    return { command: "serve", runsRoot: positionals[0] ?? null, port, host: values.host };
  }
  throw new UsageError(`unknown command ${JSON.stringify(command)}`);
}
