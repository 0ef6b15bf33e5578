// Run discovery: a runs root is a directory of runs (or itself one run); run ids are directory
// names. Where a run's files live comes from its run.json or the default layout; every such path must
// resolve inside the runs root or an `--allow-path` directory, else it is a manifest error and never
// read. Read-only; a malformed id is an InvalidInputError, an unknown run an UnknownRunError.
import "server-only";
import path from "node:path";
import {
  existsAt,
  holdsTokenFiles,
  isTokenFileName,
  readdirWithin,
  isDirectory,
  listSubdirectories,
  readTextFile,
  realpath,
  confinementOf,
  isInside,
  OutsideStoreError,
  resolveConfined,
  type Confinement,
  isValidRolloutId,
  describeZodError,
} from "@/lib/store";
import { runManifestSchema, type RunManifest } from "@/lib/schema";
import { databaseRunsOf } from "./database-runs";
import { heldRunsOf, type Held } from "./holders";
import { jsonSyntaxWords, manifestIssueWords } from "./manifest-words";
import { experimentRunName, experimentsOf, parseExperimentRunId } from "./experiments";
import { InvalidRunIdError, UnknownRunError } from "@/lib/errors";

export interface RunLayout {
  id: string;
  dir: string;
  /** The runs root the run was found in: with the --allow-path directories, where its paths may lead. */
  root: string;
  manifest: RunManifest;
  /** run.json could not be used, or a path it or the layout names was refused; still listed. */
  manifestError: string | null;
  tokensDir: string | null;
  modelCallsDir: string | null;
  rolloutsFile: string | null;
  metricsFile: string | null;
  /** builder_profile came from `serve --profile`, not run.json (lib/runs/profile says which). */
  profileFromFlag?: boolean;
}

/** The runs root the server serves, read when asked (never baked in at build time). */
export function runsRoot(): string {
  return path.resolve(
    /*turbopackIgnore: true*/ process.env.ROLLOUT_LENS_RUNS ??
      path.join(process.cwd(), "fixtures", "runs"),
  );
}

/** Run ids become directory names: the same rule as rollout ids. */
const isValidRunId = isValidRolloutId;

async function readManifest(
  dir: string,
  confinement: Confinement,
): Promise<{ manifest: RunManifest; error: string | null }> {
  let text: string;
  try {
    text = await readTextFile(await resolveConfined(dir, "run.json", confinement));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return { manifest: {}, error: null };
    return { manifest: {}, error: `run.json: ${(err as Error).message}` };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    return {
      manifest: {},
      error: `run.json is not valid JSON (${jsonSyntaxWords(text, err as Error)}); the run is read with the default layout and profile`,
    };
  }
  const parsed = runManifestSchema.safeParse(raw);
  return parsed.success
    ? { manifest: parsed.data, error: null }
    : {
        manifest: {},
        error: `run.json: ${manifestIssueWords(parsed.error)}; the run is read with the default layout and profile`,
      };
}

/**
 * The run's layout. Each place is the path run.json names, else the default found on disk; either
 * must resolve inside the confinement (the runs root and --allow-path directories), else it is left
 * out and the refusal is added to the manifest error.
 */
export async function resolveRunLayout(
  id: string,
  dir: string,
  root: string,
  confinement?: Confinement,
): Promise<RunLayout> {
  const c = confinement ?? (await confinementOf(root, "the runs root"));
  const { manifest, error } = await readManifest(dir, c);
  const errors = error ? [error] : [];
  const p = manifest.paths ?? {};
  const at = (rel: string) => path.resolve(dir, rel);
  const place = async (named: string | undefined, label: string, found: string | null) => {
    const given = named || undefined; // an empty path in run.json means the default, as before
    const rel = given ?? found;
    if (rel === null) return null;
    try {
      return await resolveConfined(dir, rel, c);
    } catch (err) {
      if (!(err instanceof OutsideStoreError)) throw err;
      errors.push(given === undefined ? err.message : `run.json paths.${label}: ${err.message}`);
      return null;
    }
  };
  const tokensDir = await place(
    p.tokens,
    "tokens",
    (await isDirectory(at("tokens"))) ? "tokens" : (await holdsTokenFiles(dir)) ? "." : null,
  );
  const modelCallsDir =
    p.model_calls || (await isDirectory(at("model-calls")))
      ? await place(p.model_calls, "model_calls", "model-calls")
      : tokensDir;
  const rolloutsFile = await place(
    p.rollouts,
    "rollouts",
    // Whatever is there (a directory, a FIFO): its reader names what is wrong, not silence.
    (await existsAt(at("rollouts.jsonl"))) ? "rollouts.jsonl" : null,
  );
  const metricsFile = await place(
    p.metrics,
    "metrics",
    (await existsAt(at("metrics.jsonl"))) ? "metrics.jsonl" : null,
  );
  return {
    id,
    dir,
    root,
    manifest,
    manifestError: errors.length > 0 ? errors.join("; ") : null,
    tokensDir,
    modelCallsDir,
    rolloutsFile,
    metricsFile,
  };
}

/**
 * A bare capture directory's run.json fields given on the command line (`rollout-lens serve DIR
 * --tokenizer … --side-call-pattern … --profile …`, passed by cli/args serveEnvironment as JSON).
 * They override a run.json the directory holds; unusable JSON is the manifest error.
 */
function withBareRunFields(run: RunLayout): RunLayout {
  const raw = process.env.ROLLOUT_LENS_BARE_RUN;
  if (!raw) return run;
  let parsed;
  try {
    parsed = runManifestSchema.safeParse(JSON.parse(raw));
  } catch (err) {
    return {
      ...run,
      manifestError: `ROLLOUT_LENS_BARE_RUN: not valid JSON (${(err as Error).message})`,
    };
  }
  if (!parsed.success)
    return {
      ...run,
      manifestError: `ROLLOUT_LENS_BARE_RUN: ${describeZodError(parsed.error)}`,
    };
  const profileFromFlag = parsed.data.builder_profile !== undefined;
  return { ...run, manifest: { ...run.manifest, ...parsed.data }, profileFromFlag };
}

/**
 * A root that is one run, with the flags' fields. A token store served as it is, a run's `tokens/`,
 * is named after the run holding it ("gym-main-v1/tokens"), not "tokens", unless run.json names it.
 */
function bareRun(run: RunLayout, root: string): RunLayout {
  const base = path.basename(root);
  const holder = path.basename(path.dirname(root));
  const name = base === "tokens" && holder ? `${holder}/tokens` : undefined;
  return withBareRunFields(named(run, name));
}

/**
 * Whether `dir`, given as the runs root, is one run rather than a directory of runs: it holds token
 * files itself (a bare capture directory), its own run.json or rollouts.jsonl, or a tokens/
 * directory of token files. `serve` pointed at a run directory serves that run, with its records;
 * as a root, its tokens/ alone was listed as a run named "tokens", without a reward.
 */
export async function isOneRun(dir: string): Promise<boolean> {
  // One read of the root (every request's getRun asks), and of its tokens/ only when it has one.
  const names = await readdirWithin(dir).then(
    (entries) => entries.map((e) => e.name),
    () => [] as string[],
  );
  if (names.some((n) => isTokenFileName(n) || n === "run.json" || n === "rollouts.jsonl"))
    return true;
  return names.includes("tokens") && holdsTokenFiles(path.join(dir, "tokens"));
}

/** Every run under the root, sorted by id. A root that is one run (isOneRun) is listed alone. */
export async function listRuns(root = runsRoot()): Promise<RunLayout[]> {
  if (await isOneRun(root))
    return [bareRun(await resolveRunLayout(path.basename(root), root, root), root)];
  const names = (await listSubdirectories(root)).filter(isValidRunId);
  const c = await confinementOf(root, "the runs root");
  // A NeMo-RL log directory in the root stands for its experiments, each a run, and so does a
  // directory whose MLflow database holds several runs (./holders).
  const held = await Promise.all(names.map((n) => heldRunsOf(root, n)));
  const runs = names.flatMap((name, i): Held[] => {
    const h = held[i] ?? [];
    return h.length > 0 ? h : [{ id: name, dir: path.join(root, name) }];
  });
  const ids = new Set(names);
  const listed = await Promise.all(
    runs
      // A directory named like an experiment's id is that run; the experiment is not listed twice.
      .filter((r) => r.name === undefined || !ids.has(r.id))
      .map(async (r) => named(await resolveRunLayout(r.id, r.dir, root, c), r.name, r.manifest)),
  );
  return listed.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** The layout with `name` as its name unless its run.json names it, and `manifest`'s fields. */
function named(run: RunLayout, name: string | undefined, manifest?: RunManifest): RunLayout {
  const m = manifest ? { ...run.manifest, ...manifest } : run.manifest;
  if (name === undefined || run.manifest.name !== undefined) return { ...run, manifest: m };
  return { ...run, manifest: { ...m, name } };
}

/** The run `id`: InvalidRunIdError for an id that cannot name a run, UnknownRunError for none. */
export async function getRun(id: string, root = runsRoot()): Promise<RunLayout> {
  if (!isValidRunId(id)) throw new InvalidRunIdError(id);
  if (await isOneRun(root)) {
    if (id !== path.basename(root)) throw new UnknownRunError(id);
    return bareRun(await resolveRunLayout(id, root, root), root);
  }
  let dir = path.join(/*turbopackIgnore: true*/ root, id);
  let name: string | undefined;
  let manifest: RunManifest | undefined;
  const exp = parseExperimentRunId(id);
  if (!(await isDirectory(dir)) && exp) {
    const holder = path.join(/*turbopackIgnore: true*/ root, exp.holder);
    if (isValidRunId(exp.holder) && (await experimentsOf(holder)).includes(exp.exp)) {
      dir = path.join(holder, exp.exp);
      name = experimentRunName(exp.holder, exp.exp);
    }
  }
  if (!(await isDirectory(dir))) {
    const held = await databaseRunNamed(root, id);
    if (held) ({ dir, name, manifest } = held);
  }
  if (!(await isDirectory(dir))) throw new UnknownRunError(id);
  // A run directory that is a symlink out of the runs root is not served.
  const [realRoot, realDir] = await Promise.all([realpath(root), realpath(dir)]);
  if (!isInside(realRoot, realDir)) throw new UnknownRunError(id);
  return named(await resolveRunLayout(id, dir, root), name, manifest);
}

/** The database run `id` names (`<dir>.<run>`, the directory's name itself holding dots maybe). */
async function databaseRunNamed(root: string, id: string) {
  for (let i = id.indexOf("."); i > 0; i = id.indexOf(".", i + 1)) {
    const holder = id.slice(0, i);
    const dir = path.join(/*turbopackIgnore: true*/ root, holder);
    if (!isValidRunId(holder) || !(await isDirectory(dir))) continue;
    const run = (await databaseRunsOf(holder, dir)).find((r) => r.id === id);
    if (run) return { dir, name: run.name, manifest: run.manifest };
  }
  return null;
}
