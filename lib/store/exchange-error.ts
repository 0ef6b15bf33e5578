// A failed model call's error in one line, from its capture exchange (capture-format.md §9): the
// first validation detail of a 4xx body, else the server's message, else the error category.
// Pure; used by run summaries ("cut short by …") and the inspector alike.
import type { CaptureExchange } from "@/lib/schema";

export function errorSummary(x: CaptureExchange): string {
  const body = x.response as
    | {
        detail?: Array<{ type?: string; loc?: unknown[]; msg?: string }> | string;
        error?: { message?: string } | string;
      }
    | null
    | undefined;
  const detail = Array.isArray(body?.detail) ? body.detail[0] : undefined;
  if (detail)
    return `${detail.type ?? "error"} at ${(detail.loc ?? []).join(".")}: ${detail.msg ?? ""}`.trim();
  if (typeof body?.detail === "string") return body.detail;
  if (body?.error)
    return typeof body.error === "string" ? body.error : (body.error.message ?? "error");
  return x.error_category ?? `HTTP ${x.status_code ?? "?"}`;
}
