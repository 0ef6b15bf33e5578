// Maps the domain's errors (lib/errors) to HTTP answers a person can act on: an unknown thing is
// 404, malformed input 400, anything else 500 (logged). Uses the standard Response, not Next.
import { InvalidInputError, UnknownEntityError } from "@/lib/errors";

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
