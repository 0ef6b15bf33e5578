"use client";
// Find within the inspected sequence (docs/pages.md, "Find"): the query typed in the find bar is
// kept in the URL (`find`), asked of the find route (every match in the whole sequence, decoded on
// the server) and walked with next and previous. Moving to a match selects its first token (`pos`)
// and its call, so the token view scrolls there through its usual target; on the conversation tab
// the message holding the token is looked up first and selected with it. Not the bar's pixels
// (./find-bar) or the scrolling (./use-scroll-target).
import { useCallback, useEffect, useRef, useState } from "react";
import { API, type FindResult } from "@/lib/schema";
import type { InspectorTab } from "@/lib/view";
import type { UrlPatch } from "@/components/shared/url-state";
import { fetchRoute } from "@/components/shared/api";
import { rolloutUrl, type RolloutAsk } from "./rollout-api";
import { firstItem } from "./use-call-select";

/** How long typing pauses before the route is asked. */
const TYPING_MS = 150;

export type FindMatch = FindResult["matches"][number];

export interface FindState {
  open: boolean;
  text: string;
  /** The answer for `text` in this sequence; null while it is asked. */
  found: FindResult | null;
  error: string | null;
  /** Index of the current match in `found.matches`, or null before one is chosen. */
  at: number | null;
  current: FindMatch | null;
}

export interface FindInput {
  ask: RolloutAsk;
  sequence: string;
  /** The URL's `find` and `pos`. */
  query: string | null;
  pos: number | null;
  tab: InspectorTab;
  set: (patch: UrlPatch) => void;
  /** False when there is no sequence to find in: Ctrl/⌘-F is then the browser's. */
  enabled: boolean;
}

export function useFind({ ask, sequence, query, pos, tab, set, enabled }: FindInput) {
  const [open, setOpen] = useState(query !== null);
  const [text, setText] = useState(query ?? "");
  const [answer, setAnswer] = useState<{ url: string; found: FindResult } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [at, setAt] = useState<number | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const typed = useRef(false); // the answer should move to a match (the user typed, not a link)
  // A link's `find` with a `pos` outside every match (a search hit: its call's first token) moves to
  // the first match from there, once.
  const fromLink = useRef(query !== null);
  const lookup = useRef<AbortController | null>(null); // the conversation's, for the last move
  const latest = useRef({ pos, tab, set, ask, sequence, enabled });
  useEffect(() => {
    latest.current = { pos, tab, set, ask, sequence, enabled };
  });
  const url = text === "" ? null : rolloutUrl(API.find, ask, { q: text, chain: sequence });
  const found = answer !== null && answer.url === url ? answer.found : null;

  const go = useCallback(async (matches: readonly FindMatch[], i: number) => {
    const m = matches[i];
    if (!m) return;
    setAt(i);
    lookup.current?.abort();
    const { tab: on, set: patch, ask: a, sequence: seq } = latest.current;
    const move = { pos: String(m.start), call: m.call };
    if (on !== "conversation") {
      patch({ ...move, message: null, ...(on === "tokens" ? {} : { tab: "tokens" }) });
      return;
    }
    const conv = rolloutUrl(API.conversation, a, { chain: seq });
    const holds = (item: { kind: string; start?: number; end?: number }) =>
      item.kind === "message" && (item.start ?? 0) <= m.start && m.start < (item.end ?? 0);
    const ctl = (lookup.current = new AbortController());
    const message = await firstItem(conv, holds, ctl.signal).catch(() => null);
    if (ctl.signal.aborted) return; // a later move, or the bar unmounted
    patch({ ...move, message: message === null ? null : String(message) });
  }, []);

  // Ask the route once typing pauses; a newer query or sequence drops the older answer.
  useEffect(() => {
    if (url === null) return;
    const ctl = new AbortController();
    const timer = setTimeout(() => {
      fetchRoute(API.find, url, ctl.signal).then(
        (result) => {
          setAnswer({ url, found: result });
          setError(null);
          const { pos: p } = latest.current;
          const inside = result.matches.findIndex((m) => p !== null && m.start <= p && p < m.end);
          const linked = fromLink.current;
          fromLink.current = false;
          if ((!typed.current && !linked) || inside >= 0) return setAt(inside >= 0 ? inside : null);
          typed.current = false;
          const next = result.matches.findIndex((m) => m.start >= (p ?? 0));
          void go(result.matches, next >= 0 ? next : 0);
        },
        (err: unknown) => {
          if (!ctl.signal.aborted) setError(err instanceof Error ? err.message : String(err));
        },
      );
    }, TYPING_MS);
    return () => {
      clearTimeout(timer);
      ctl.abort();
    };
  }, [url, go]);

  // Ctrl/⌘-F opens the bar while the inspector is on the page (the browser's own find otherwise).
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.altKey || e.key.toLowerCase() !== "f") return;
      if (!latest.current.enabled) return;
      e.preventDefault();
      setOpen(true);
      requestAnimationFrame(() => input.current?.select());
    };
    window.addEventListener("keydown", onKey);
    return () => {
      window.removeEventListener("keydown", onKey);
      lookup.current?.abort();
    };
  }, []);

  const change = (value: string) => {
    typed.current = true;
    setText(value);
    setAt(null);
    set({ find: value === "" ? null : value });
  };
  const step = (by: 1 | -1) => {
    const matches = found?.matches ?? [];
    if (matches.length === 0) return;
    const from = at ?? (by === 1 ? -1 : 0);
    void go(matches, (from + by + matches.length) % matches.length);
  };
  const close = () => {
    setOpen(false);
    setText("");
    setAt(null);
    set({ find: null });
  };
  const show = () => {
    setOpen(true);
    requestAnimationFrame(() => input.current?.focus());
  };
  const current = at === null ? null : (found?.matches[at] ?? null);
  const state: FindState = { open, text, found, error, at, current };
  return { state, input, change, step, close, show };
}
