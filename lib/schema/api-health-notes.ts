// A note under a run's health (lib/health/notes): worth knowing, nothing to fix, so never
// an alert; with the rollouts table's query listing what it counts, where a filter does.
import { z } from "zod";

export const healthNoteSchema = z.strictObject({
  kind: z.enum(["profile_disagreement", "self_calibrated_side_calls"]),
  count: z.number().int().nonnegative(),
  message: z.string(),
  table_query: z.string().nullable(),
});
