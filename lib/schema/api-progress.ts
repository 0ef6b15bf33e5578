// The wire contract of the inspector's loading and navigation routes: a rollout build's progress
// (…/progress) and a rollout's neighbours in the run table's order (…/neighbors). Strict objects,
// snake_case; the server builds the inferred types and the browser parses every body with them.
import { z } from "zod";

const count = z.int().nonnegative();

/** What a running build is doing: reading the rollout's files, deciding the verdict, building the view. */
export const buildPhaseSchema = z.enum(["reading", "deciding", "decoding"]);

/**
 * `ready`: the model is cached, the page renders at once. `queued`: no build of it runs yet (none
 * started, or waiting for a build slot); `total_bytes` is what the build will read. `building`: the
 * build's phase and the bytes of the token and capture files read so far.
 */
export const buildProgressSchema = z.discriminatedUnion("state", [
  z.strictObject({ state: z.literal("ready") }),
  z.strictObject({ state: z.literal("queued"), total_bytes: count }),
  z.strictObject({
    state: z.literal("building"),
    phase: buildPhaseSchema,
    bytes_read: count,
    total_bytes: count,
    elapsed_ms: count,
  }),
]);

/**
 * The rollouts before and after one in the run table's order under the table's sort and filters.
 * `index` is its 0-based place among the `total` rollouts that pass the filters; null when it does
 * not pass them (prev and next are then the rollouts it would sit between) or is not indexed yet.
 */
export const rolloutNeighborsSchema = z.strictObject({
  prev: z.string().nullable(),
  next: z.string().nullable(),
  index: count.nullable(),
  total: count,
});

export type BuildPhase = z.infer<typeof buildPhaseSchema>;
export type BuildProgress = z.infer<typeof buildProgressSchema>;
export type RolloutNeighbors = z.infer<typeof rolloutNeighborsSchema>;
