// The browser's one way to call our JSON routes: a route from the table (lib/schema/api-routes)
// with its parameters and query, fetched and parsed with that route's schema, so no component
// builds an /api URL or picks a schema by hand.
import type { z } from "zod";
import { apiUrl, withQuery, type ApiRoute, type Query } from "@/lib/schema";
import { fetchParsed } from "./url-state";

export function getApi<P, S extends z.ZodType>(
  route: ApiRoute<P, S>,
  params: P,
  query?: Query,
  signal?: AbortSignal,
): Promise<z.infer<S>> {
  return fetchParsed(apiUrl(route, params, query), (v) => route.schema.parse(v), signal);
}

/** The same for a URL already built for the route (apiUrl), where a hook keys its state by it. */
export function fetchRoute<S extends z.ZodType>(
  route: ApiRoute<never, S>,
  url: string,
  signal?: AbortSignal,
): Promise<z.infer<S>> {
  return fetchParsed(url, (v) => route.schema.parse(v), signal);
}

/** The URL with more query appended (a page's offset and limit), replacing keys it names. */
export function withMore(url: string, more: Query): string {
  const at = url.indexOf("?");
  if (at < 0) return withQuery(url, more);
  return withQuery(url.slice(0, at), new URLSearchParams(url.slice(at + 1)), more);
}
