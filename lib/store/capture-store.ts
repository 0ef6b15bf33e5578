// Reads a rollout's model-call capture (`<id>.capture.jsonl`, docs/capture-format.md §9) and joins the
// exchanges to token entries by model_call_id. Damaged lines are counted, never fatal: the
// exchanges are evidence next to the build, not an input to it.
import "server-only";
import path from "node:path";
import { captureExchangeSchema, type CaptureExchange, type TokenEntry } from "@/lib/schema";
import { readJsonl, type ReadProgress } from "./jsonl";
import { storePath, type FileKind } from "./files";
import { confine } from "./confine";
import { statWithin } from "./io";
import { assertRolloutId } from "./rollout-id";
import { describeZodError } from "./zod-message";

export interface ExchangeRecord {
  line: number;
  exchange: CaptureExchange;
}

export interface CaptureRead {
  exists: boolean;
  exchanges: ExchangeRecord[];
  unreadable: Array<{ line: number; reason: string }>;
  tornTail: boolean;
  /** The `.capture.incomplete` marker exists: writing an exchange failed. */
  incompleteMarker: boolean;
  error: string | null;
}

/** `onProgress`: told the capture file's bytes as they are read (lib/store/jsonl ReadProgress). */
export async function readCaptureStore(
  dir: string,
  rolloutId: string,
  signal?: AbortSignal,
  present?: ReadonlySet<FileKind>,
  onProgress?: ReadProgress,
): Promise<CaptureRead> {
  assertRolloutId(rolloutId);
  const out: CaptureRead = {
    exists: true,
    exchanges: [],
    unreadable: [],
    tornTail: false,
    incompleteMarker: false,
    error: null,
  };
  const filePath = storePath(dir, rolloutId, "capture");
  if (present && !present.has("capture")) {
    out.exists = false;
    out.incompleteMarker = present.has("captureIncomplete");
    return out;
  }
  try {
    await confine(dir, filePath);
    const result = await readJsonl(
      filePath,
      (l) => {
        if (l.problem) return void out.unreadable.push({ line: l.line, reason: l.problem });
        const parsed = captureExchangeSchema.safeParse(l.value);
        if (parsed.success) out.exchanges.push({ line: l.line, exchange: parsed.data });
        else out.unreadable.push({ line: l.line, reason: describeZodError(parsed.error) });
      },
      signal,
      onProgress,
    );
    out.tornTail = result.tornTail !== null;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") out.exists = false;
    else if ((err as Error).name === "AbortError") throw err;
    else out.error = `${path.basename(filePath)}: ${(err as Error).message}`;
  }
  out.incompleteMarker = await exists(storePath(dir, rolloutId, "captureIncomplete"));
  return out;
}

async function exists(p: string): Promise<boolean> {
  return statWithin(p).then(
    () => true,
    () => false,
  );
}

export interface CaptureJoin {
  /** model_call_id -> its exchanges (several when several servers appended for one id). */
  byCallId: Map<string, ExchangeRecord[]>;
  /** Exchanges whose call has no token entry: failed calls (a 422), uncaptured or dropped ones. */
  withoutEntry: ExchangeRecord[];
  /** Entries with no exchange (model-call capture was off for them). */
  entriesWithoutExchange: string[];
}

export function joinExchanges(
  entries: readonly TokenEntry[],
  exchanges: readonly ExchangeRecord[],
): CaptureJoin {
  const ids = new Set(entries.map((e) => e.model_call_id));
  const byCallId = new Map<string, ExchangeRecord[]>();
  const withoutEntry: ExchangeRecord[] = [];
  for (const x of exchanges) {
    const list = byCallId.get(x.exchange.model_call_id);
    if (list) list.push(x);
    else byCallId.set(x.exchange.model_call_id, [x]);
    if (!ids.has(x.exchange.model_call_id)) withoutEntry.push(x);
  }
  const entriesWithoutExchange = entries
    .filter((e) => !byCallId.has(e.model_call_id))
    .map((e) => e.model_call_id);
  return { byCallId, withoutEntry, entriesWithoutExchange };
}
