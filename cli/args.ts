// Command-line parsing for `rollout-lens`; kept apart from main so it is testable.
import path from "node:path";
import { parseArgs } from "node:util";
import { z } from "zod";
import { builderProfileSchema, type RunManifest } from "@/lib/schema";
import { BUNDLED_ENCODINGS } from "@/lib/tokens";

const BUILD_LINE =
  "rollout-lens build <store-dir> [--jsonl] [--profile seed|gym-v1|auto] [--side-call-pattern P]... [--rollout ID]...";
const INDEX_LINE =
  "rollout-lens index <run-dir> --out DIR [--shard I/N] [--profile seed|gym-v1|auto] [--side-call-pattern P]...\n" +
  "       rollout-lens index --merge <shard-dir> --out FILE";
const SERVE_LINE =
  "rollout-lens serve [<runs-root>] [--port N] [--host H] [--allowed-host NAME[:PORT]]... [--allow-path DIR]...\n" +
  "                    [--tokenizer NAME|PATH] [--side-call-pattern P]... [--profile seed|gym-v1|auto]";

const BUILD_HELP = `build   decides every rollout's verdict in a token store, as the trainer's consumer would.
        --jsonl prints one JSON object per rollout (sorted by id); without it, a table.`;
const INDEX_HELP = `index   summarises a run's rollouts into a shard file for the summary index, outside the run:
        --shard I/N takes the rollouts whose id hashes to shard I of N (0 <= I < N; default 0/1,
        all) and writes DIR/shard-000I-of-000N.sqlite. Run the N shards as N jobs at once, then
        --merge reads the directory of shards (checking every shard is there, of one run and one
        build) and writes them as one file. --profile and --side-call-pattern act as the run's
        run.json builder_profile and side_call_patterns would (the server must use the same).
        See docs/sharded-indexing.md.`;
const SERVE_HELP = `serve   serves the dashboard (needs a prior \`npm run build\`) on a runs root
        (default: $ROLLOUT_LENS_RUNS, else the bundled fixtures/runs). Without ROLLOUT_LENS_TOKEN it
        answers only requests for loopback names (localhost, 127.0.0.1, [::1]) on its port;
        --allowed-host adds a name you reach it by (a tunnel, a proxy), on any port unless given.
        --allow-path lets run.json paths and tokenizers lead into DIR besides the runs root.
        On a bare capture directory (its *.tokens.jsonl served as one run), --tokenizer (a bundled
        encoding, ${BUNDLED_ENCODINGS.join(", ")}, or a tokenizer.json or its directory),
        --side-call-pattern and --profile act as its run.json's tokenizer, side_call_patterns and
        builder_profile would.`;

/** The top level's usage: every command. */
export const USAGE = `usage:\n  ${BUILD_LINE}\n  ${INDEX_LINE}\n  ${SERVE_LINE}\n\n${BUILD_HELP}\n${INDEX_HELP}\n${SERVE_HELP}`;
/** Each command's own usage, for `<command> --help` and its usage errors. */
export const COMMAND_USAGE = {
  build: `usage: ${BUILD_LINE}\n\n${BUILD_HELP}`,
  index: `usage: ${INDEX_LINE}\n\n${INDEX_HELP}`,
  serve: `usage: ${SERVE_LINE}\n\n${SERVE_HELP}`,
} as const;

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
      command: "index";
      runDir: string;
      out: string;
      shard: { index: number; count: number };
      /** What run.json's builder_profile and side_call_patterns would say; unset keeps run.json's. */
      profile: z.infer<typeof builderProfileSchema> | undefined;
      sideCallPatterns: string[] | undefined;
    }
  | { command: "merge"; shardDir: string; out: string }
  | {
      command: "serve";
      runsRoot: string | null;
      port: number;
      host: string;
      allowedHosts: string[];
      allowPaths: string[];
      /** What a bare capture directory's run.json would say; empty for a runs root of runs. */
      bareRun: BareRunOptions;
    }
  | { command: "help"; usage: string };

/** The fields of run.json that serve's flags set for a bare capture directory. */
export type BareRunOptions = Pick<
  RunManifest,
  "tokenizer" | "side_call_patterns" | "builder_profile"
>;

/** A usage error; `usage` is the usage of the command it is about. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly usage: string = USAGE,
  ) {
    super(message);
  }
}

/** What lib/http/access accepts as an allowed host: a name or [IPv6] address, maybe with a port. */
const HOST_NAME = /^(\[[0-9a-f:.]+\]|[a-z0-9._-]+)(:\d{1,5})?$/i;

/** The variable lib/runs/root reads a bare capture directory's run.json fields from (JSON). */
export const BARE_RUN_ENV = "ROLLOUT_LENS_BARE_RUN";

/**
 * The environment `next start` gets for a serve command: the runs root, and the allowed hosts and
 * paths added to any the caller's environment already names (the proxy and lib read them there);
 * for a bare directory, its run.json fields, with a tokenizer file's directory allowed.
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
  const tokenizer = cmd.bareRun.tokenizer;
  const allowPaths =
    tokenizer !== undefined && path.isAbsolute(tokenizer)
      ? [...cmd.allowPaths, path.dirname(tokenizer)]
      : cmd.allowPaths;
  if (allowPaths.length > 0)
    env.ROLLOUT_LENS_ALLOW_PATHS = join(base.ROLLOUT_LENS_ALLOW_PATHS, allowPaths, path.delimiter);
  if (Object.keys(cmd.bareRun).length > 0) env[BARE_RUN_ENV] = JSON.stringify(cmd.bareRun);
  return env;
}

const PROFILE_CHOICES = builderProfileSchema.options.join(", ").replace(/, (?=[^,]*$)/, " or ");

function parseProfile(given: string | undefined, usage: string) {
  if (given === undefined) return undefined;
  const profile = builderProfileSchema.safeParse(given);
  if (!profile.success)
    throw new UsageError(
      `--profile must be ${PROFILE_CHOICES}, not ${JSON.stringify(given)}`,
      usage,
    );
  return profile.data;
}

/** A bundled encoding's name as given; anything else is a path, made absolute (serve checks it). */
function parseTokenizer(given: string | undefined): string | undefined {
  if (given === undefined) return undefined;
  if ((BUNDLED_ENCODINGS as readonly string[]).includes(given)) return given;
  return path.resolve(given);
}

function parseOptions(rest: string[], usage: string) {
  try {
    return parseArgs({
      args: rest,
      allowPositionals: true,
      options: {
        help: { type: "boolean", short: "h", default: false },
        jsonl: { type: "boolean", default: false },
        profile: { type: "string" },
        "side-call-pattern": { type: "string", multiple: true, default: [] },
        rollout: { type: "string", multiple: true, default: [] },
        tokenizer: { type: "string" },
        port: { type: "string", default: "3123" },
        host: { type: "string", default: "127.0.0.1" },
        "allowed-host": { type: "string", multiple: true, default: [] },
        "allow-path": { type: "string", multiple: true, default: [] },
        shard: { type: "string" },
        out: { type: "string" },
        merge: { type: "string" },
      },
    });
  } catch (err) {
    throw new UsageError((err as Error).message, usage);
  }
}

export function parseCommand(argv: string[]): Command {
  const [command, ...rest] = argv;
  if (command === undefined || command === "help" || command === "--help" || command === "-h") {
    const about = rest[0];
    return {
      command: "help",
      usage:
        about === "build" || about === "index" || about === "serve" ? COMMAND_USAGE[about] : USAGE,
    };
  }
  if (command !== "build" && command !== "index" && command !== "serve")
    throw new UsageError(`unknown command ${JSON.stringify(command)}`);
  const usage = COMMAND_USAGE[command];
  const { values, positionals } = parseOptions(rest, usage);
  if (values.help) return { command: "help", usage };
  const foreign = (flags: readonly string[], owner: string) => {
    const flag = flags.find((f) => rest.some((a) => a === `--${f}` || a.startsWith(`--${f}=`)));
    if (flag !== undefined) throw new UsageError(`--${flag} is an option of ${owner}`, usage);
  };
  if (command !== "index") foreign(["shard", "out", "merge"], "index");
  if (command === "index") return parseIndex(values, positionals, rest, usage);
  if (command === "build") {
    if (positionals.length !== 1)
      throw new UsageError("build takes exactly one <store-dir>", usage);
    if (values.tokenizer !== undefined)
      throw new UsageError(
        "--tokenizer is an option of serve (build decides; it decodes no text)",
        usage,
      );
    return {
      command: "build",
      storeDir: positionals[0] as string,
      jsonl: values.jsonl,
      profile: parseProfile(values.profile, usage) ?? "auto",
      sideCallPatterns: values["side-call-pattern"],
      rollouts: values.rollout,
    };
  }
  foreign(["jsonl", "rollout"], "build");
  return parseServe(values, positionals, usage);
}

type Values = ReturnType<typeof parseOptions>["values"];

/** `I/N`: shard I (from 0) of N shards. */
function parseShard(given: string | undefined, usage: string): { index: number; count: number } {
  if (given === undefined) return { index: 0, count: 1 };
  const m = /^(\d{1,6})\/(\d{1,6})$/.exec(given);
  const [index, count] = m ? [Number(m[1]), Number(m[2])] : [NaN, NaN];
  if (!(count >= 1 && index < count))
    throw new UsageError(
      `--shard takes I/N with 0 <= I < N (shard I of N, from 0), not ${JSON.stringify(given)}`,
      usage,
    );
  return { index, count };
}

function parseIndex(values: Values, positionals: string[], rest: string[], usage: string): Command {
  const others = ["jsonl", "rollout", "tokenizer", "port", "host", "allowed-host", "allow-path"];
  const other = others.find((f) => rest.some((a) => a === `--${f}` || a.startsWith(`--${f}=`)));
  if (other !== undefined) throw new UsageError(`--${other} is not an option of index`, usage);
  if (values.out === undefined) throw new UsageError("index needs --out", usage);
  if (values.merge !== undefined) {
    if (positionals.length > 0 || values.shard !== undefined)
      throw new UsageError("index --merge takes only <shard-dir> and --out FILE", usage);
    if (values.profile !== undefined || values["side-call-pattern"].length > 0)
      throw new UsageError(
        "--profile and --side-call-pattern are for indexing, not --merge",
        usage,
      );
    return { command: "merge", shardDir: values.merge, out: values.out };
  }
  if (positionals.length !== 1) throw new UsageError("index takes exactly one <run-dir>", usage);
  const patterns = values["side-call-pattern"];
  return {
    command: "index",
    runDir: positionals[0] as string,
    out: values.out,
    shard: parseShard(values.shard, usage),
    profile: parseProfile(values.profile, usage),
    sideCallPatterns: patterns.length > 0 ? patterns : undefined,
  };
}

function parseServe(values: Values, positionals: string[], usage: string): Command {
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    throw new UsageError(`--port must be 1-65535, not ${values.port}`, usage);
  if (positionals.length > 1) throw new UsageError("serve takes at most one <runs-root>", usage);
  const allowedHosts = values["allowed-host"];
  const badHost = allowedHosts.find((h) => !HOST_NAME.test(h));
  if (badHost !== undefined)
    throw new UsageError(
      `--allowed-host takes a host name or address, with an optional :port, not ${JSON.stringify(badHost)}`,
      usage,
    );
  const patterns = values["side-call-pattern"];
  const bareRun: BareRunOptions = {
    tokenizer: parseTokenizer(values.tokenizer),
    side_call_patterns: patterns.length > 0 ? patterns : undefined,
    builder_profile: parseProfile(values.profile, usage),
  };
  return {
    command: "serve",
    runsRoot: positionals[0] ?? null,
    port,
    host: values.host,
    allowedHosts: allowedHosts.map((h) => h.toLowerCase()),
    allowPaths: values["allow-path"].map((p) => path.resolve(p)),
    bareRun: Object.fromEntries(Object.entries(bareRun).filter(([, v]) => v !== undefined)),
  };
}
