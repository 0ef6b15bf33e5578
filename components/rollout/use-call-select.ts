"use client";
// Selecting a call (a timeline row): the URL patch lib/view decides from the live URL (key presses
// in the timeline outrun React), then, on the conversation tab, the call's first item looked up
// page by page (the view holds only the pages it shows) and put in the URL as `message`, which the
// conversation scrolls to. A newer selection aborts an older lookup. The same lookup runs when the
// conversation tab opens on a selected call with no message (a tab switch or a deep link).
import { useCallback, useEffect, useRef } from "react";
import { type ConversationItem, MAX_CONVERSATION_LIMIT, API } from "@/lib/schema";
import {
  callToFind,
  conversationSearch,
  selectCall,
  sequenceOf,
  tabOf,
  type SequenceSource,
} from "@/lib/view";
import { type UrlPatch } from "@/components/shared/url-state";
import { rolloutUrl, type RolloutAsk } from "./rollout-api";
import { fetchRoute, withMore } from "@/components/shared/api";

/** The index of the first item in a conversation (`url` up to its query) that passes, or null. */
export async function firstItem(
  url: string,
  test: (item: ConversationItem) => boolean,
  signal: AbortSignal,
) {
  // Each block cut to one character: only the items' calls and ranges are read.
  for (let offset = 0; ; offset += MAX_CONVERSATION_LIMIT) {
    const page = await fetchRoute(
      API.conversation,
      withMore(url, { offset, limit: MAX_CONVERSATION_LIMIT, clip: 1 }),
      signal,
    );
    const hit = page.items.find(test);
    if (hit) return hit.index;
    if (offset + MAX_CONVERSATION_LIMIT >= page.total) return null;
  }
}

/** The user is still on the conversation with this call selected (not somewhere else by now). */
function stillOn(callId: string): boolean {
  const now = new URLSearchParams(window.location.search);
  return now.get("call") === callId && tabOf(now.get("tab")) === "conversation";
}

/**
 * The timeline's selection handler. Also, when the conversation tab opens (switched to, or deep
 * linked) with a call selected and no message, the same lookup finds the call's item: once per
 * call and visit of the tab, so picking another sequence there does not pull the view back.
 */
export function useCallSelect(
  view: SequenceSource,
  ask: RolloutAsk,
  set: (patch: UrlPatch) => void,
  /** The selected call while the conversation tab is showing, else null. */
  onConversation: string | null,
): (callId: string) => void {
  const lookup = useRef<AbortController | null>(null);
  // The call the conversation was last moved to in this visit of the tab.
  const found = useRef<string | null>(null);
  useEffect(
    () => () => {
      lookup.current?.abort();
      found.current = null; // a remount (strict mode) looks again
    },
    [],
  );
  const find = useCallback(
    (callId: string, current: string, search: readonly string[]) => {
      lookup.current?.abort();
      found.current = callId;
      if (search.length === 0) return;
      const ctl = new AbortController();
      lookup.current = ctl;
      void (async () => {
        for (const sequence of search) {
          const url = rolloutUrl(API.conversation, ask, { chain: sequence });
          const index = await firstItem(url, (item) => item.call === callId, ctl.signal).catch(
            () => null,
          );
          if (ctl.signal.aborted || !stillOn(callId)) return;
          if (index === null) continue;
          set({ message: String(index), ...(sequence === current ? {} : { chain: sequence }) });
          return;
        }
      })();
    },
    [ask, set],
  );
  useEffect(() => {
    if (onConversation === null) {
      found.current = null;
      return;
    }
    if (found.current === onConversation) return;
    const live = new URLSearchParams(window.location.search);
    if (callToFind(live) !== onConversation) {
      found.current = onConversation; // a message is selected already: keep it
      return;
    }
    const current = sequenceOf(view, live.get("chain"));
    find(onConversation, current, conversationSearch(view, current, onConversation));
  }, [onConversation, view, find]);
  return useCallback(
    (callId: string) => {
      const live = new URLSearchParams(window.location.search);
      const current = sequenceOf(view, live.get("chain"));
      const { patch, search } = selectCall(view, tabOf(live.get("tab")), current, callId);
      // Marked before the URL changes, so the effect above does not look a second time.
      if (search.length > 0) found.current = callId;
      else lookup.current?.abort();
      set(patch);
      if (search.length > 0) find(callId, current, search);
    },
    [view, set, find],
  );
}
