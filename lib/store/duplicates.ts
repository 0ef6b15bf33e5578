// A call recorded twice in one token file: identical (a warning) or a conflicting payload (an
// error, the call listed in `conflicts`). Payloads are compared as JSON with typed arrays written out.
// Not responsible for which of the two the builder keeps (lib/builder).
import { isRoutes } from "@/lib/experts";
import type { TokenEntry } from "@/lib/schema";
import type { LineIssues } from "./line-issues";
import type { TokenLines } from "./token-store";

/** The entry as JSON: a scanned prompt (Int32Array) as its list, decoded routes as their bytes. */
const payloadText = (e: TokenEntry) =>
  JSON.stringify(e, (_k, v: unknown) =>
    v instanceof Int32Array
      ? Array.from(v)
      : isRoutes(v)
        ? [
            v.rows,
            v.layers,
            v.topk,
            Buffer.from(v.data.buffer, v.data.byteOffset, v.data.byteLength).toString("base64"),
          ]
        : v,
  );

export function recordDuplicate(
  out: TokenLines,
  listed: LineIssues,
  e: TokenEntry,
  earlierIndex: number,
  line: number,
): void {
  const first = out.entries[earlierIndex] as TokenEntry;
  const same = payloadText(first) === payloadText(e);
  const firstLine = out.lines[earlierIndex] as number;
  if (!same && !out.conflicts.includes(e.model_call_id)) out.conflicts.push(e.model_call_id);
  listed.note(line, same ? "warning" : "error", () =>
    same
      ? `call ${e.model_call_id} recorded again, identical to line ${firstLine}`
      : `call ${e.model_call_id} recorded again with a different payload than line ${firstLine} (conflicting payloads)`,
  );
}
