// The trained samples the NeMo-RL step fixtures plant in a run (fixtures/generator/nemo-rl-steps),
// as the generator records them when it writes the GRPO runs again into a scratch root: the truth
// that tests of the truth check read, never the check's own answer.
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { writeGrpoRuns } from "@/fixtures/generator/grpo";
import { writeNemoRlSteps, type PlantedSample } from "@/fixtures/generator/nemo-rl-steps";

export async function plantedSamples(run: string): Promise<PlantedSample[]> {
  const root = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-planted-"));
  await writeGrpoRuns(root);
  return (await writeNemoRlSteps(root)).planted.filter((p) => p.run === run);
}
