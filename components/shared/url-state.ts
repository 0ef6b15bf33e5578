"use client";
// View state lives in the URL (inspector: call, chain, tab, pos; run page: sort and filters), so
// any view can be linked. Updates use history.replaceState, which Next's router picks up
// (useSearchParams) without a server round trip; each update starts from the live URL, so quick
// key presses never drop one. Also the one fetch helper: every body is parsed with its schema.
import { useSearchParams } from "next/navigation";
import { useCallback } from "react";
import { apiErrorSchema } from "@/lib/schema";

export type UrlPatch = Record<string, string | null>;

export function useUrlState(): [URLSearchParams, (patch: UrlPatch) => void] {
  const params = useSearchParams();
  const set = useCallback((patch: UrlPatch) => {
    const next = new URLSearchParams(window.location.search);
    for (const [k, v] of Object.entries(patch)) {
      if (v === null || v === "") next.delete(k);
      else next.set(k, v);
    }
    const qs = next.toString();
    window.history.replaceState(
      null,
      "",
      qs ? `${window.location.pathname}?${qs}` : window.location.pathname,
    );
  }, []);
  return [new URLSearchParams(params.toString()), set];
}

/** Fetches JSON from our routes and parses it with the route's schema; errors carry the server's message. */
export async function fetchParsed<T>(
  url: string,
  parse: (v: unknown) => T,
  signal?: AbortSignal,
): Promise<T> {
  const res = await fetch(url, { signal });
  const body: unknown = await res.json().catch(() => ({ error: `HTTP ${res.status}` }));
  if (!res.ok) {
    const err = apiErrorSchema.safeParse(body);
    throw new Error(err.success ? err.data.error : `HTTP ${res.status}`);
  }
  return parse(body);
}
