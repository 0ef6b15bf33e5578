// A run's optional `run.json`: what the run is and where its files live when not in the defaults.
import { z } from "zod";

export const builderProfileSchema = z.enum(["seed", "gym-v1", "auto"]);
export type BuilderProfileChoice = z.infer<typeof builderProfileSchema>;

export const runManifestSchema = z.strictObject({
  name: z.string().optional(),
  description: z.string().optional(),
  capture: z.enum(["on", "off"]).optional(),
  builder_profile: builderProfileSchema.optional(),
  side_call_patterns: z.array(z.string()).optional(),
  /** Path (relative to the run directory) of a Hugging Face `tokenizer.json`, or a bundled encoding name. */
  tokenizer: z.string().optional(),
  /** Run id of a run that differs from this one only by seed (the repeatability baseline). */
  seed_repeat_of: z.string().optional(),
  /** Runs sharing a seed_group are seeds of one configuration: compare reads them as one side. */
  seed_group: z.string().optional(),
  /** The MLflow run (its name or uuid) this run is, when its tracking database holds several. */
  mlflow_run: z.string().optional(),
  /** Optional relative or absolute paths overriding the default layout. */
  paths: z
    .strictObject({
      tokens: z.string().optional(),
      model_calls: z.string().optional(),
      rollouts: z.string().optional(),
      metrics: z.string().optional(),
      /**
       * A trainer's log directory (NeMo-RL's `log_dir`: `tensorboard/`, `wandb/`, `mlruns/`), an
       * MLflow tracking database file, or its `sqlite:///…` URI.
       */
      trainer_logs: z.string().optional(),
    })
    .optional(),
});

export type RunManifest = z.infer<typeof runManifestSchema>;
