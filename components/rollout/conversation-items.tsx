"use client";
// The conversation tab's items: a message (blocks of mask spans; shaded, the same blocks token by
// token, generated ones by probability), a side call's collapsible thread (its messages load when
// opened) and a failed call. Model text is always React text, never HTML. Container: conversation-view.
import { binColours as binStyle, shadeSpans, shadeWindow } from "@/lib/view";
import { useCallback, useEffect, useState } from "react";
import {
  type ConversationItem,
  type ConversationMessage,
  type ConversationPage,
  type TokenWindow,
  API,
} from "@/lib/schema";
import { fetchParsed } from "@/components/shared/url-state";
import styles from "./conversation-view.module.css";
import { rolloutUrl, type RolloutAsk } from "./rollout-api";
import { fetchRoute, withMore } from "@/components/shared/api";

/** Items per page, characters per block on a page and when a message is shown whole. */
export const PAGE = 40;
export const CLIP = 2000;
const FULL_CLIP = 200_000;

export const parsePage = (v: unknown) => API.conversation.schema.parse(v);

/** The conversation and token routes of one sequence (the profile and stamp query appended). */
export function sequenceUrls(ask: RolloutAsk, sequence: string) {
  return {
    conversation: rolloutUrl(API.conversation, ask, { chain: sequence }),
    tokens: rolloutUrl(API.tokens, ask, { chain: sequence }),
  };
}
export type Urls = ReturnType<typeof sequenceUrls>;

export interface ItemProps {
  item: ConversationItem;
  selected: boolean;
  shade: boolean;
  urls: Urls;
  ask: RolloutAsk;
  onPatch: (patch: Record<string, string | null>) => void;
}

export function ConversationItemView({ item, selected, shade, urls, ask, onPatch }: ItemProps) {
  if (item.kind === "failed_call") {
    return (
      <div className={styles.failed} data-testid="conversation-failed-call">
        call <span className={styles.mono}>{item.call.slice(0, 8)}</span> failed
        {item.status_code !== null ? ` with HTTP ${item.status_code}` : ""}: {item.error}
      </div>
    );
  }
  if (item.kind === "side_call") return <SideThread item={item} ask={ask} />;
  return <Message m={item} selected={selected} shade={shade} urls={urls} onPatch={onPatch} />;
}

const SOURCE = {
  tokens: "from tokens",
  request: "from the request body",
  response: "from the response body",
  segment: "segment",
} as const;

function Message({
  m,
  selected,
  shade,
  urls,
  onPatch,
}: {
  m: ConversationMessage;
  selected: boolean;
  shade: boolean;
  urls: Urls;
  onPatch?: ItemProps["onPatch"];
}) {
  const shaded = shade && m.generated > 0;
  // Shaded, the message comes split token by token (`shade=1`), with its tokens' log probs.
  const { shown, loading, expand } = useMessage(m, urls, shaded);
  const window = useShadeWindow(urls.tokens, m, shaded);
  return (
    <article
      className={`${styles.message} ${styles[m.role]} ${selected ? styles.selected : ""}`}
      data-testid="conversation-message"
      aria-current={selected ? "true" : undefined}
      data-role={m.role}
      data-shaded={shaded ? (shown && window ? "ready" : "loading") : undefined}
      onClick={() => onPatch?.({ message: String(m.index), call: m.call })}
    >
      <header className={styles.header}>
        <span className={styles.role}>{m.role}</span>
        {m.label && m.label !== m.role && <span className={styles.muted}>{m.label}</span>}
        <span className={styles.muted}>
          call <span className={styles.mono}>{m.call.slice(0, 8)}</span> ·{" "}
          {SOURCE[(shown ?? m).source]} · tokens {m.start}–{m.end}
          {m.generated > 0 && ` · ${m.generated} generated`}
          {m.mean_log_prob !== null && ` · mean log prob ${m.mean_log_prob.toFixed(2)}`}
        </span>
        {onPatch && (
          <button
            type="button"
            className={styles.link}
            onClick={(e) => {
              e.stopPropagation();
              onPatch({ tab: "tokens", pos: String(m.start) });
            }}
          >
            show tokens
          </button>
        )}
      </header>
      {shown ? (
        <Blocks
          blocks={shown.blocks}
          window={shaded ? (window ?? null) : undefined}
          loading={loading}
          onExpand={expand}
        />
      ) : (
        <div className={styles.muted}>Loading the message token by token…</div>
      )}
    </article>
  );
}

/**
 * The message as shown: the page's item, or (shaded, or expanded to all its characters) the same
 * item fetched again with `shade=1` and/or a larger clip. Null while the shaded one loads.
 */
function useMessage(m: ConversationMessage, urls: Urls, shaded: boolean) {
  const [full, setFull] = useState(false);
  const [got, setGot] = useState<{ key: string; message?: ConversationMessage } | null>(null);
  const key = `${urls.conversation}#${m.index}#${shaded}#${full}`;
  const wanted = shaded || full;
  useEffect(() => {
    if (!wanted) return;
    const ctl = new AbortController();
    const clip = full ? FULL_CLIP : CLIP;
    const url = withMore(urls.conversation, {
      offset: m.index,
      limit: 1,
      clip,
      shade: shaded ? 1 : null,
    });
    fetchParsed(url, parsePage, ctl.signal).then(
      (p) => setGot({ key, message: p.items.find((i) => i.kind === "message") }),
      () => !ctl.signal.aborted && setGot({ key }),
    );
    return () => ctl.abort();
  }, [wanted, full, shaded, key, m.index, urls.conversation]);
  const current = got?.key === key ? got : null;
  // Shaded, wait for the split message (the page's merged spans cannot be shaded); if it cannot
  // be had, show the page's own.
  const shown = current ? (current.message ?? m) : wanted && shaded ? null : m;
  return { shown, loading: wanted && !current, expand: () => setFull(true) };
}

/** The log probs over a shaded message's tokens (one window from its start). */
function useShadeWindow(url: string, m: ConversationMessage, on: boolean) {
  const [w, setW] = useState<{ key: string; window: TokenWindow | null } | null>(null);
  const { offset, limit } = shadeWindow(m.start, m.end);
  const key = `${url}#${offset}-${limit}`;
  useEffect(() => {
    if (!on) return;
    const ctl = new AbortController();
    fetchRoute(API.tokens, withMore(url, { offset, limit }), ctl.signal).then(
      (window) => setW({ key, window }),
      // Without log probs the text still shows, generated and re-fed apart, unshaded.
      () => !ctl.signal.aborted && setW({ key, window: null }),
    );
    return () => ctl.abort();
  }, [on, url, offset, limit, key]);
  return w?.key === key ? w.window : undefined;
}

const BLOCK_TITLE = { reasoning: "reasoning", tool_result: "tool result" } as const;
/**
 * A message's blocks. `window` undefined: spans by mask; null or a window: shaded by probability
 * (spans are single tokens then), with a log prob in each shaded span's title.
 */
function Blocks({
  blocks,
  window,
  loading,
  onExpand,
}: {
  blocks: ConversationMessage["blocks"];
  window: TokenWindow | null | undefined;
  loading: boolean;
  onExpand: () => void;
}) {
  return blocks.map((b, i) => (
    <section key={i} className={`${styles.block} ${styles[b.kind]}`}>
      {b.kind !== "text" && (
        <div className={styles.blockTitle}>
          {b.kind === "tool_call"
            ? `tool call${b.name ? ` · ${b.name}` : ""}`
            : BLOCK_TITLE[b.kind]}
        </div>
      )}
      <div
        className={styles.text}
        data-testid={window === undefined ? undefined : "conversation-shaded"}
      >
        {window === undefined
          ? b.spans.map((s, k) => (
              <span key={k} className={s.mask === 1 ? styles.gen : styles.refed}>
                {s.text}
              </span>
            ))
          : shadeSpans(b.spans, window).map((s, k) => (
              <span
                key={k}
                className={s.bin >= 0 ? styles.bin : s.mask === 1 ? styles.gen : styles.refed}
                style={binStyle(s.bin)}
                data-mask={s.mask}
                title={s.logProb === null ? undefined : `log prob ${s.logProb.toFixed(3)}`}
              >
                {s.text}
              </span>
            ))}
      </div>
      {b.truncated && (
        <button
          type="button"
          className={styles.link}
          disabled={loading}
          onClick={(e) => {
            e.stopPropagation();
            onExpand();
          }}
        >
          {loading ? "loading…" : `show all ${b.chars.toLocaleString("en-US")} characters`}
        </button>
      )}
    </section>
  ));
}

/** A side call, collapsed; opened, its own messages load (the sequence `call:<id>`). */
function SideThread({
  item,
  ask,
}: {
  item: Extract<ConversationItem, { kind: "side_call" }>;
  ask: RolloutAsk;
}) {
  const [thread, setThread] = useState<ConversationPage | "loading" | string | null>(null);
  const load = useCallback(() => {
    if (thread !== null) return;
    setThread("loading");
    const url = withMore(sequenceUrls(ask, item.sequence).conversation, {
      limit: PAGE,
      clip: CLIP,
    });
    fetchParsed(url, parsePage).then(setThread, (err: unknown) =>
      setThread((err as Error).message),
    );
  }, [thread, ask, item.sequence]);
  const urls = sequenceUrls(ask, item.sequence);
  return (
    <details
      className={styles.thread}
      data-testid="conversation-side-call"
      onToggle={(e) => e.currentTarget.open && load()}
    >
      <summary>
        side call <span className={styles.mono}>{item.call.slice(0, 8)}</span> · {item.model} ·{" "}
        {item.reason} · {item.prompt_len} → {item.generated_len} tokens · <q>{item.preview}</q>
      </summary>
      {thread === "loading" && <div className={styles.muted}>Loading the side call…</div>}
      {typeof thread === "string" && thread !== "loading" && (
        <div className={styles.error}>{thread}</div>
      )}
      {thread !== null && typeof thread === "object" && (
        <div className={styles.threadBody}>
          {thread.items.map((it) =>
            it.kind === "message" ? (
              <Message key={it.index} m={it} selected={false} shade={false} urls={urls} />
            ) : null,
          )}
          {thread.total > thread.items.length && (
            <div className={styles.muted}>
              First {thread.items.length} of {thread.total} messages.
            </div>
          )}
        </div>
      )}
    </details>
  );
}
