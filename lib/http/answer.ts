// Every route handler is one call of `answer`: it names its route in the table (lib/schema
// api-routes), so what it returns is checked against that route's schema at compile time, and
// every error is mapped to a status in one place (./errors errorResponse). A handler that sends a
// file rather than JSON (the export) returns its Response as it is.
import type { z } from "zod";
import type { ApiRoute, Download } from "@/lib/schema";
import { errorResponse } from "./errors";
import { json } from "./params";

/** What a handler is asked: its path parameters, its query, the request's abort signal. */
export interface Ask<P> {
  params: P;
  query: URLSearchParams;
  signal: AbortSignal;
}

/** Next calls it with the request and the path's parameters; a test may call it bare. */
type Handler<P> = (req?: Request, ctx?: { params: Promise<P> }) => Promise<Response>;

const NEVER_ABORTED = new AbortController().signal;

type AnyRoute = ApiRoute<never, z.ZodType>;
type One<R> = R extends readonly (infer X)[] ? X : R;
type ParamsOfAll<R> = One<R> extends ApiRoute<infer P, z.ZodType> ? P : never;
type AnswerOfAll<R> = One<R> extends ApiRoute<never, infer S> ? z.infer<S> : never;

/** A GET handler for one route, or several of one path (`?stamp=1`, `?facts=1`, …). */
export function answer<R extends AnyRoute | readonly AnyRoute[]>(
  routes: R,
  handle: (ask: Ask<ParamsOfAll<R>>) => Promise<AnswerOfAll<R> | Response>,
): Handler<ParamsOfAll<R>>;
export function answer<P>(
  route: Download<P>,
  handle: (ask: Ask<P>) => Promise<Response>,
): Handler<P>;
export function answer<P>(_routes: unknown, handle: (ask: Ask<P>) => Promise<unknown>): Handler<P> {
  return async (req, ctx) => {
    try {
      const params = ((await ctx?.params) ?? {}) as P;
      const query = req ? new URL(req.url).searchParams : new URLSearchParams();
      const body = await handle({ params, query, signal: req?.signal ?? NEVER_ABORTED });
      return body instanceof Response ? body : json(body);
    } catch (err) {
      return errorResponse(err);
    }
  };
}
