// The rollouts table's export as a byte stream: CSV (RFC 4180, ./query's cells) or a JSON
// array, one row per line, pulled from the summary index a page at a time so a million rows never
// sit in memory at once. Not responsible for selecting the rows (./served servedRows).
import { csvLine, EXPORT_COLUMNS, exportRow } from "./query";
import type { RolloutSummary } from "@/lib/schema";

/**
 * The rows as CSV (RFC 4180, lib/index/query's cells) or a JSON array (one row per line),
 * streamed from the index a page at a time: a million rows never sit in memory at once.
 */
export function exportStream(
  rows: AsyncGenerator<RolloutSummary>,
  format: "csv" | "json",
): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  let first = true;
  return new ReadableStream({
    async pull(controller) {
      let chunk = "";
      if (first) chunk = format === "csv" ? `${EXPORT_COLUMNS.join(",")}\n` : "[";
      for (let i = 0; i < 500; i++) {
        const next = await rows.next();
        if (next.done) {
          if (format === "json") chunk += first ? "]" : "\n]";
          controller.enqueue(enc.encode(chunk));
          return controller.close();
        }
        const row = exportRow(next.value);
        if (format === "csv") chunk += csvLine(row);
        else chunk += `${first ? "" : ","}\n ${JSON.stringify(row)}`;
        first = false;
      }
      controller.enqueue(enc.encode(chunk));
    },
    async cancel() {
      await rows.return(undefined);
    },
  });
}
