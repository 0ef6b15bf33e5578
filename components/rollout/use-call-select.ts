"use client";
// Selecting a call (a timeline row): the URL patch lib/view decides from the live URL (key presses
// in the timeline outrun React), then, on the conversation tab, the call's first item looked up
// page by page (the view holds only the pages it shows) and put in the URL as `message`, which the
// conversation scrolls to. A newer selection aborts an older lookup.
import { useCallback, useEffect, useRef } from "react";
import { conversationPageSchema, MAX_CONVERSATION_LIMIT } from "@/lib/schema/api-conversation";
import { selectCall, sequenceOf, tabOf, type SequenceSource } from "@/lib/view/inspector-url";
import { fetchParsed, type UrlPatch } from "@/components/shared/url-state";

const asPage = (v: unknown) => conversationPageSchema.parse(v);

/** The index of the first item of `callId` in a conversation (`url` up to its query), or null. */
async function firstItemOf(url: string, callId: string, signal: AbortSignal) {
  // Each block cut to one character: only the items' calls are read.
  for (let offset = 0; ; offset += MAX_CONVERSATION_LIMIT) {
    const page = await fetchParsed(
      `${url}&offset=${offset}&limit=${MAX_CONVERSATION_LIMIT}&clip=1`,
      asPage,
      signal,
    );
    const hit = page.items.find((item) => item.call === callId);
    if (hit) return hit.index;
    if (offset + MAX_CONVERSATION_LIMIT >= page.total) return null;
  }
}

/** The user is still on the conversation with this call selected (not somewhere else by now). */
function stillOn(callId: string): boolean {
  const now = new URLSearchParams(window.location.search);
  return now.get("call") === callId && tabOf(now.get("tab")) === "conversation";
}

export function useCallSelect(
  view: SequenceSource,
  base: string,
  profileQs: string,
  set: (patch: UrlPatch) => void,
): (callId: string) => void {
  const lookup = useRef<AbortController | null>(null);
  useEffect(() => () => lookup.current?.abort(), []);
  return useCallback(
    (callId: string) => {
      lookup.current?.abort();
      const live = new URLSearchParams(window.location.search);
      const current = sequenceOf(view, live.get("chain"));
      const { patch, search } = selectCall(view, tabOf(live.get("tab")), current, callId);
      set(patch);
      if (search.length === 0) return;
      const ctl = new AbortController();
      lookup.current = ctl;
      void (async () => {
        for (const sequence of search) {
          const url = `${base}/conversation?chain=${encodeURIComponent(sequence)}${profileQs}`;
          const index = await firstItemOf(url, callId, ctl.signal).catch(() => null);
          if (ctl.signal.aborted || !stillOn(callId)) return;
          if (index === null) continue;
          set({ message: String(index), ...(sequence === current ? {} : { chain: sequence }) });
          return;
        }
      })();
    },
    [view, base, profileQs, set],
  );
}
