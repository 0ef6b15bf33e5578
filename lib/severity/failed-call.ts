// A failed model call as the severity model needs it: its place in the rollout's timeline, the
// HTTP status, the §9.3 error category and the first validation detail, and the clause a banner
// says about it. Reading and joining the capture store is not done here.
import type { CaptureExchange } from "@/lib/schema";
import { readErrorBody } from "@/lib/store/pure";

/** One model call that failed (non-2xx, or an error category on a 2xx). */
export interface FailedCallFact {
  /** 1-based number of the call in the rollout's timeline (time order, failed calls included). */
  position: number;
  status_code: number | null;
  /** docs/capture-format.md §9.3 vocabulary; null when the exchange recorded none. */
  error_category: string | null;
  /** The error's type when the body names one (FastAPI `detail[0].type`, OpenAI `error.code`). */
  error_type: string | null;
  /** Where in the request it points (`messages[2].reasoning`, lib/store formatErrorLocation). */
  location: string | null;
  /** The server's message, when the body had one. */
  message: string | null;
}

const CATEGORY_WORDS: Record<string, string> = {
  timeout: "timeout",
  rate_limit: "rate limited",
  auth: "not authorised",
  not_found: "not found",
  client_error: "client error",
  upstream_error: "upstream error",
  connection: "connection error",
  exception: "exception",
  cancelled: "cancelled",
  incomplete: "incomplete response",
  stream_truncated: "stream closed early",
  capture_parse_error: "unparseable body",
};

/** The §9.3 category in a few words (unknown categories keep their own name). */
export function errorCategoryWords(category: string): string {
  return CATEGORY_WORDS[category] ?? category.replace(/_/g, " ");
}

/** The structured facts of one failed exchange: its status and what its error body says. */
export function failedCallFromExchange(x: CaptureExchange, position: number): FailedCallFact {
  return {
    position,
    status_code: x.status_code,
    error_category: x.error_category,
    ...readErrorBody(x),
  };
}

/** True for a call the severity model counts as failed: non-2xx, or any error category. */
export function isFailedExchange(x: Pick<CaptureExchange, "status_code" | "error_category">) {
  const ok = x.status_code !== null && x.status_code >= 200 && x.status_code < 300;
  return !ok || x.error_category !== null;
}

/**
 * What happened to the call, as a clause: "call 2 got HTTP 422 `extra_forbidden` at
 * `messages[2].reasoning`". A named error type with its location says enough; otherwise the
 * category and the server's message are given.
 */
export function describeFailedCall(f: FailedCallFact): string {
  const is2xx = f.status_code !== null && f.status_code >= 200 && f.status_code < 300;
  let verb = `call ${f.position} failed`;
  if (f.status_code !== null) {
    verb = is2xx
      ? `call ${f.position} failed after HTTP ${f.status_code}`
      : `call ${f.position} got HTTP ${f.status_code}`;
  }
  if (f.error_type !== null) {
    const where = f.location !== null ? ` at \`${f.location}\`` : "";
    const why = f.location === null && f.message !== null ? ` (“${f.message}”)` : "";
    return `${verb} \`${f.error_type}\`${where}${why}`;
  }
  const category = f.error_category !== null ? errorCategoryWords(f.error_category) : null;
  const notes = [category, f.message !== null ? `“${f.message}”` : null].filter(
    (s): s is string => s !== null,
  );
  return notes.length > 0 ? `${verb} (${notes.join(": ")})` : verb;
}
