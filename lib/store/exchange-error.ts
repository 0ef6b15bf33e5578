// What a failed model call's error body says (docs/capture-format.md §9.2; FastAPI and OpenAI bodies):
// its type, where in the request it points, and the server's message, read once here; and the
// error in one line. The one place an error location is spelled (`messages[2].reasoning`): run
// summaries, the timeline, the conversation and the severity model's sentences all use it.
// Pure; deciding what the failure means for the rollout is lib/severity's job.
import type { CaptureExchange } from "@/lib/schema";

/** The facts of an error body; each null when the body does not say. */
export interface ErrorBodyFacts {
  /** The error's type when the body names one (FastAPI `detail[0].type`, OpenAI `error.code`). */
  error_type: string | null;
  /** Where in the request the error points, spelled by formatErrorLocation. */
  location: string | null;
  /** The server's message, when the body had one. */
  message: string | null;
}

/**
 * A validation `loc` as a reader writes it: FastAPI's leading `body` is dropped, keys join with
 * dots and indices go in brackets, so ["body", "messages", 2, "reasoning"] reads
 * `messages[2].reasoning`. Null when nothing is left to point at.
 */
export function formatErrorLocation(loc: readonly unknown[]): string | null {
  const parts = loc[0] === "body" ? loc.slice(1) : loc;
  let out = "";
  for (const p of parts) {
    if (typeof p === "number") out += `[${p}]`;
    else if (typeof p === "string") out += out === "" ? p : `.${p}`;
  }
  return out === "" ? null : out;
}

const MAX_RAW_MESSAGE = 200;

function text(v: unknown): string | null {
  return typeof v === "string" && v.trim() !== "" ? v.trim() : null;
}

function record(v: unknown): Record<string, unknown> | null {
  return v !== null && typeof v === "object" && !Array.isArray(v)
    ? (v as Record<string, unknown>)
    : null;
}

/** A raw body can be a whole HTML error page: keep its first line, shortened. */
function rawMessage(raw: string | undefined): string | null {
  const line = text(raw?.split("\n", 1)[0]);
  if (line === null) return null;
  return line.length > MAX_RAW_MESSAGE ? `${line.slice(0, MAX_RAW_MESSAGE)}…` : line;
}

/** The type, location and message of an exchange's error body (first validation detail). */
export function readErrorBody(
  x: Pick<CaptureExchange, "response" | "response_raw">,
): ErrorBodyFacts {
  const body = x.response;
  const detail = Array.isArray(body?.detail) ? record(body.detail[0]) : null;
  const error = record(body?.error);
  return {
    error_type: text(detail?.type) ?? text(error?.code) ?? text(error?.type),
    location: detail && Array.isArray(detail.loc) ? formatErrorLocation(detail.loc) : null,
    message:
      text(detail?.msg) ??
      text(body?.detail) ??
      text(error?.message) ??
      text(body?.error) ??
      rawMessage(x.response_raw),
  };
}

/**
 * The error in one line: "extra_forbidden at messages[2].reasoning: Extra inputs are not
 * permitted" for a validation detail, else the parsed body's message, else the §9.3 category.
 */
export function errorSummary(x: CaptureExchange): string {
  // A raw body's first line is often an HTML page's: the category says more in one line.
  const f = readErrorBody({ response: x.response });
  const hasDetail = Array.isArray(x.response?.detail) && x.response.detail.length > 0;
  if (hasDetail) {
    const where = f.location !== null ? ` at ${f.location}` : "";
    return `${f.error_type ?? "error"}${where}${f.message !== null ? `: ${f.message}` : ""}`;
  }
  return f.message ?? x.error_category ?? `HTTP ${x.status_code ?? "?"}`;
}
