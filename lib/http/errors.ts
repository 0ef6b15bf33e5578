// Maps errors from lib to HTTP answers a person can act on. Uses the standard Response, not Next.
import { InvalidRolloutIdError } from "@/lib/store/rollout-id";
import { UnknownRunError } from "@/lib/runs/runs-root";

export class NotFoundError extends Error {}
export class BadRequestError extends Error {}

export function statusOf(err: unknown): number {
  if (err instanceof UnknownRunError || err instanceof NotFoundError) return 404;
  if (err instanceof InvalidRolloutIdError || err instanceof BadRequestError) return 400;
  return 500;
}

export function errorResponse(err: unknown): Response {
  const status = statusOf(err);
  const message = status === 500 ? `internal error: ${(err as Error)?.message ?? String(err)}` : (err as Error).message;
  if (status === 500) console.error(err);
  return Response.json({ error: message }, { status, headers: { "cache-control": "no-store" } });
}
