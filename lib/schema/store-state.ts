// `<rollout_id>.tokens.state.json` (Gym main store lifecycle, docs/capture-format.md §3.1).
// Absent keys take the documented defaults.
import { z } from "zod";

export const storeStateSchema = z.looseObject({
  frozen: z.boolean().default(false),
  retired: z.boolean().default(false),
  incomplete: z.boolean().default(false),
  snapshot_id: z.string().default(""),
  version: z.int().default(0),
  entry_digests: z.record(z.string(), z.string()).default({}),
  indexed_size: z.int().default(0),
});

export type StoreState = z.infer<typeof storeStateSchema>;
