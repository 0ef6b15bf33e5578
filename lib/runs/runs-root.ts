// Run discovery: a runs root is a directory of runs (or itself one run); run ids are directory
// names. Where a run's files live comes from its run.json or the default layout. Read-only; an
// unknown run, or a run directory that is a symlink out of the root, is an UnknownRunError.
import "server-only";
import path from "node:path";
import {
  holdsTokenFiles,
  isDirectory,
  isRegularFile,
  listSubdirectories,
  readTextFile,
  realpath,
} from "@/lib/store/run-files";
import { isInside } from "@/lib/store/confine";
import { runManifestSchema, type RunManifest } from "@/lib/schema";
import { isValidRolloutId } from "@/lib/store/rollout-id";
import { describeZodError } from "@/lib/store/zod-message";
import { UnknownRunError } from "@/lib/errors";

export interface RunLayout {
  id: string;
  dir: string;
  manifest: RunManifest;
  /** run.json exists but could not be used; the run is still listed with defaults. */
  manifestError: string | null;
  tokensDir: string | null;
  modelCallsDir: string | null;
  rolloutsFile: string | null;
  metricsFile: string | null;
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

async function readManifest(dir: string): Promise<{ manifest: RunManifest; error: string | null }> {
  let text: string;
  try {
    text = await readTextFile(path.join(dir, "run.json"));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return { manifest: {}, error: null };
    return { manifest: {}, error: `run.json: ${(err as Error).message}` };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    return { manifest: {}, error: `run.json: not valid JSON (${(err as Error).message})` };
  }
  const parsed = runManifestSchema.safeParse(raw);
  return parsed.success
    ? { manifest: parsed.data, error: null }
    : { manifest: {}, error: `run.json: ${describeZodError(parsed.error)}` };
}

export async function resolveRunLayout(id: string, dir: string): Promise<RunLayout> {
  const { manifest, error } = await readManifest(dir);
  const p = manifest.paths ?? {};
  const at = (rel: string) => path.resolve(dir, rel);
  const tokensDir = p.tokens
    ? at(p.tokens)
    : (await isDirectory(at("tokens")))
      ? at("tokens")
      : (await holdsTokenFiles(dir))
        ? dir
        : null;
  const modelCallsDir = p.model_calls
    ? at(p.model_calls)
    : (await isDirectory(at("model-calls")))
      ? at("model-calls")
      : tokensDir;
  const rolloutsFile = p.rollouts
    ? at(p.rollouts)
    : (await isRegularFile(at("rollouts.jsonl")))
      ? at("rollouts.jsonl")
      : null;
  const metricsFile = p.metrics
    ? at(p.metrics)
    : (await isRegularFile(at("metrics.jsonl")))
      ? at("metrics.jsonl")
      : null;
  return {
    id,
    dir,
    manifest,
    manifestError: error,
    tokensDir,
    modelCallsDir,
    rolloutsFile,
    metricsFile,
  };
}

/** Every run under the root, sorted by id. A root that holds token files itself is one run. */
export async function listRuns(root = runsRoot()): Promise<RunLayout[]> {
  if (await holdsTokenFiles(root)) return [await resolveRunLayout(path.basename(root), root)];
  const names = await listSubdirectories(root);
  const ids = names.filter(isValidRunId).sort();
  return Promise.all(
    ids.map((id) => resolveRunLayout(id, path.join(/*turbopackIgnore: true*/ root, id))),
  );
}

export async function getRun(id: string, root = runsRoot()): Promise<RunLayout> {
  if (!isValidRunId(id)) throw new UnknownRunError(id);
  if (await holdsTokenFiles(root)) {
    if (id !== path.basename(root)) throw new UnknownRunError(id);
    return resolveRunLayout(id, root);
  }
  const dir = path.join(/*turbopackIgnore: true*/ root, id);
  if (!(await isDirectory(dir))) throw new UnknownRunError(id);
  // A run directory that is a symlink out of the runs root is not served.
  const [realRoot, realDir] = await Promise.all([realpath(root), realpath(dir)]);
  if (!isInside(realRoot, realDir)) throw new UnknownRunError(id);
  return resolveRunLayout(id, dir);
}
