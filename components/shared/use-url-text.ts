"use client";
// A text box whose value is a URL parameter: what is typed shows at once and reaches the URL after
// a pause (one update per pause, not per key, since each update refetches). The box follows the
// URL when something else changes it (back, a link, "clear the filters"); a key pressed while our
// own update is on its way is kept (the typed text was based on the value being sent). A value
// `ready` refuses waits for the returned `commit` (Enter) instead of the pause.
import { useCallback, useEffect, useState } from "react";
import type { UrlPatch } from "./url-state";

interface Typed {
  /** The URL's value when the text was typed. */
  at: string;
  /** The last value this box put in the URL. */
  sent: string | null;
  value: string;
}

export function useUrlText(
  key: string,
  params: URLSearchParams,
  set: (patch: UrlPatch) => void,
  delayMs = 300,
  ready: (value: string) => boolean = () => true,
): [string, (value: string) => void, { held: boolean; commit: () => void }] {
  const fromUrl = params.get(key) ?? "";
  const [typed, setTyped] = useState<Typed | null>(null);
  // Once the URL holds what was sent, the text is based on it: a later change back to the value it
  // was typed over (a link, a chart's bar) is someone else's, and the box follows it.
  if (typed !== null && typed.sent === fromUrl && typed.at !== fromUrl)
    setTyped({ ...typed, at: fromUrl });
  const current = typed !== null && (typed.at === fromUrl || typed.sent === fromUrl);
  const shown = current ? typed.value : fromUrl;
  const pending = current && typed.value !== fromUrl ? typed.value : null;
  const held = pending !== null && !ready(pending);
  const send = useCallback(
    (value: string) => {
      setTyped((p) => (p ? { ...p, sent: value } : p));
      set({ [key]: value || null });
    },
    [key, set],
  );
  useEffect(() => {
    if (pending === null || held) return;
    const t = setTimeout(() => send(pending), delayMs);
    return () => clearTimeout(t);
  }, [pending, held, send, delayMs]);
  const commit = () => void (pending !== null && send(pending));
  return [
    shown,
    (value) => setTyped((p) => ({ at: fromUrl, sent: p?.sent ?? null, value })),
    { held, commit },
  ];
}
