import { InvalidInputError } from "@/lib/errors";
import { answer } from "@/lib/http";
import { exportStream, parseRolloutQuery, servedRows } from "@/lib/index";
import { getRun } from "@/lib/runs";
import { DOWNLOADS } from "@/lib/schema";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** The filtered rollouts table as a CSV or JSON download (the same filters as the table; JSON rows are exportRowSchema). */
export const GET = answer(DOWNLOADS.export, async ({ params, query }) => {
  const run = await getRun(params.run);
  const format = query.get("format") ?? "csv";
  if (format !== "csv" && format !== "json")
    throw new InvalidInputError(`format must be csv or json, got ${JSON.stringify(format)}`);
  const q = new URLSearchParams(query);
  for (const k of ["format", "offset", "limit"]) q.delete(k);
  const rows = servedRows(run, parseRolloutQuery(q), 60_000);
  return new Response(exportStream(rows, format), {
    headers: {
      "content-type":
        format === "csv" ? "text/csv; charset=utf-8" : "application/json; charset=utf-8",
      "content-disposition": `attachment; filename="${run.id}-rollouts.${format}"`,
      "cache-control": "no-store",
    },
  });
});
