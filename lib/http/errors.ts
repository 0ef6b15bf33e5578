// Maps the domain's errors (lib/errors) to HTTP answers a person can act on: an unknown thing is
// 404, malformed input 400, anything else 500 (logged); for pages, which errors are a not-found
// page. Uses the standard Response, not Next.
import {
  InvalidInputError,
  InvalidRolloutIdError,
  InvalidRunIdError,
  UnknownEntityError,
} from "@/lib/errors";

/** What a page answers with its not-found page: an unknown run or rollout, or an id no file can have. */
export function isNotFound(err: unknown): boolean {
  return (
    err instanceof UnknownEntityError ||
    err instanceof InvalidRunIdError ||
    err instanceof InvalidRolloutIdError
  );
}

export function statusOf(err: unknown): number {
  if (err instanceof UnknownEntityError) return 404;
  if (err instanceof InvalidInputError) return 400;
  return 500;
}

export function errorResponse(err: unknown): Response {
  const status = statusOf(err);
  const text = err instanceof Error ? err.message : String(err);
  const message = status === 500 ? `internal error: ${text}` : text;
  if (status === 500) console.error(err);
  return Response.json({ error: message }, { status, headers: { "cache-control": "no-store" } });
}
