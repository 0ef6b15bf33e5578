// An accepted entry's `routed_experts` decoded in place, once, while its line is read: the envelope
// (often the line's own bytes, lib/store/token-line) or nested lists become one typed array
// (lib/experts). A malformed envelope or too many rows is a warning naming the numbers; the call's
// routes are then read as missing. Not responsible for what the routes mean (lib/experts).
import { decodeRoutes, rowCountProblem } from "@/lib/experts";
import type { TokenEntry } from "@/lib/schema";
import type { LineIssues } from "./line-issues";

export function decodeEntryRoutes(e: TokenEntry, line: number, listed: LineIssues): void {
  const decoded = decodeRoutes(e.routed_experts);
  if (decoded === null) return;
  const problem = decoded.ok
    ? rowCountProblem(decoded.routes, e.prompt_token_ids.length, e.generation_token_ids.length)
    : decoded.problem;
  e.routed_experts = problem === null && decoded.ok ? decoded.routes : null;
  if (problem !== null)
    listed.note(
      line,
      "warning",
      () => `routed_experts of call ${e.model_call_id}: ${problem}; read as missing routes`,
    );
}
