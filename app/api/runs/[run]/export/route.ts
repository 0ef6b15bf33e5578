import { InvalidInputError } from "@/lib/errors";
import { errorResponse } from "@/lib/http";
import { parseRolloutQuery, exportStream, servedRows } from "@/lib/index";
import { getRun } from "@/lib/runs";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** The filtered rollouts table as a CSV or JSON download (the same filters as the table; JSON rows are exportRowSchema). */
export async function GET(
  req: Request,
  ctx: RouteContext<"/api/runs/[run]/export">,
): Promise<Response> {
  try {
    const run = await getRun((await ctx.params).run);
    const params = new URL(req.url).searchParams;
    const format = params.get("format") ?? "csv";
    if (format !== "csv" && format !== "json")
      throw new InvalidInputError(`format must be csv or json, got ${JSON.stringify(format)}`);
    params.delete("format");
    params.delete("offset");
    params.delete("limit");
    const rows = servedRows(run, parseRolloutQuery(params), 60_000);
    return new Response(exportStream(rows, format), {
      headers: {
        "content-type":
          format === "csv" ? "text/csv; charset=utf-8" : "application/json; charset=utf-8",
        "content-disposition": `attachment; filename="${run.id}-rollouts.${format}"`,
        "cache-control": "no-store",
      },
    });
  } catch (err) {
    return errorResponse(err);
  }
}
