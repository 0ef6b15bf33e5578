"use client";
// View state lives in the URL (inspector: call, chain, tab, pos; run page: sort and filters), so
// any view can be linked. Updates use history.replaceState, which Next's router picks up
// (useSearchParams) without a server round trip; each update starts from the live URL, so quick
// key presses never drop one. Also the one fetch helper: every body is parsed with its schema.
import { useSearchParams } from "next/navigation";
import { useCallback, useEffect, useSyncExternalStore } from "react";
import { apiErrorSchema } from "@/lib/schema";
import { untilReady } from "./until-ready";

export type UrlPatch = Record<string, string | null>;

function writeUrl(patch: UrlPatch): void {
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
}

/**
 * Next's router sees replaceState only once its root's effect has patched it, and a root's effects
 * run after its children's: a control used as the page hydrates (an event React replays) changed
 * the URL under the router, and the page never showed it (the filter read "all" over a filtered
 * URL). Updates wait for the effects flush that mounts the first user of this hook to end.
 */
const urlWrites = untilReady(writeUrl);
const openWhenEffectsRan = () => queueMicrotask(urlWrites.open);

/**
 * Whether the URL's updates are taken now: controls that set it are disabled until then, so a
 * choice made while the page hydrates is not lost (a select reverts to its value on hydration).
 */
export function useUrlReady(): boolean {
  return useSyncExternalStore(urlWrites.subscribe, urlWrites.isOpen, () => false);
}

export function useUrlState(): [URLSearchParams, (patch: UrlPatch) => void] {
  const params = useSearchParams();
  useEffect(openWhenEffectsRan, []);
  const set = useCallback((patch: UrlPatch) => urlWrites.call(patch), []);
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
