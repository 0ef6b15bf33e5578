// Responses of the run-level routes the browser parses at the fetch boundary (the rollouts table,
// run health) and every route's error body. The rollout inspector's contract is api-rollout.ts.
import { z } from "zod";

export const apiErrorSchema = z.object({ error: z.string() });
