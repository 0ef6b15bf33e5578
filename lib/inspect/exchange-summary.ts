// A failed model call in one line, for trees, tables and alerts: the first validation detail of a
// 4xx body, else the server's message, else the error category.
import type { CaptureExchange } from "@/lib/schema";

/** One line for a failed exchange: the first validation detail of a 4xx body, else the category. */
export function errorSummary(x: CaptureExchange): string {
  const body = x.response as { detail?: Array<{ type?: string; loc?: unknown[]; msg?: string }> | string; error?: { message?: string } | string } | null | undefined;
  const detail = Array.isArray(body?.detail) ? body.detail[0] : undefined;
  if (detail) return `${detail.type ?? "error"} at ${(detail.loc ?? []).join(".")}: ${detail.msg ?? ""}`.trim();
  if (typeof body?.detail === "string") return body.detail;
  if (body?.error) return typeof body.error === "string" ? body.error : (body.error.message ?? "error");
  return x.error_category ?? `HTTP ${x.status_code ?? "?"}`;
}
