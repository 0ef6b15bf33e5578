// NeMo-RL's log directory as a holder of runs: each launch writes `<log_dir>/exp_001/`, `exp_002/`,
// … (nemo_rl.utils.logger get_next_experiment_dir), each with its own `tensorboard/`, `wandb/`,
// `mlflow/` and step files, and no run.json. A directory of the runs root that holds experiments
// and is not itself a run lists each experiment as a run, id `<dir>.exp_NNN`, named `<dir>/exp_NNN`.
// Not responsible for reading an experiment's logs (lib/trainer finds them in the run directory).
import "server-only";
import path from "node:path";
import { existsAt, listSubdirectories } from "@/lib/store";

const EXPERIMENT = /^exp_\d+$/;
/** `<dir>.exp_NNN`: the holder's directory name and the experiment's, as a run id. */
const EXPERIMENT_ID = /^(.+)\.(exp_\d+)$/;

/**
 * What makes a directory a run of its own, not a holder of runs: a run.json, a store, records or
 * metrics. A holder of experiments has no `logs/` either (there its exp_NNN are only its files).
 */
export const OWN_RUN_FILES = [
  "run.json",
  "tokens",
  "model-calls",
  "rollouts.jsonl",
  "metrics.jsonl",
];
const RUN_MARKERS = [...OWN_RUN_FILES, "logs"];

/** The experiments `dir` holds, in natural order; none when it is a run itself or has none. */
export async function experimentsOf(dir: string): Promise<string[]> {
  // The markers first: a few stats, where listing a run directory may read thousands of names.
  const marked = await Promise.all(RUN_MARKERS.map((m) => existsAt(path.join(dir, m))));
  if (marked.some(Boolean)) return [];
  const names = (await listSubdirectories(dir)).filter((n) => EXPERIMENT.test(n));
  return names.sort((a, b) => a.localeCompare(b, "en", { numeric: true }));
}

/** The run id of experiment `exp` of the log directory `holder` (a name in the runs root). */
export const experimentRunId = (holder: string, exp: string) => `${holder}.${exp}`;

/** The run's name as a person reads it: the log directory and the experiment, as on disk. */
export const experimentRunName = (holder: string, exp: string) => `${holder}/${exp}`;

/** `{holder, exp}` when `id` names an experiment of a log directory; null otherwise. */
export function parseExperimentRunId(id: string): { holder: string; exp: string } | null {
  const m = EXPERIMENT_ID.exec(id);
  return m ? { holder: m[1]!, exp: m[2]! } : null;
}
