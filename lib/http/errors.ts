// Maps the domain's errors (lib/errors) to HTTP answers a person can act on: an unknown thing is
// 404, malformed input 400, anything else 500 (logged); for pages, which errors are a not-found
// page (Next's notFound). Routes answer through ./answer, pages through orNotFound / pageAnswer.
import { notFound } from "next/navigation";
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

/** A page's data, or the not-found page when it names a run or rollout that is not there. */
export async function orNotFound<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    if (isNotFound(err)) notFound();
    throw err;
  }
}

/**
 * A page's data as a tagged result: the not-found page for an unknown run or rollout, the page's
 * own words for a bad parameter (`{ error }`), and anything else thrown to the error page.
 */
export async function pageAnswer<T>(work: Promise<T>): Promise<T | { error: string }> {
  try {
    return await orNotFound(work);
  } catch (err) {
    if (err instanceof InvalidInputError) return { error: err.message };
    throw err;
  }
}
