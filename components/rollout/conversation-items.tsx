"use client";
// The conversation tab's items: a message (blocks of mask spans, or its tokens shaded by
// probability), a side call's collapsible thread (its own messages load when opened) and a failed
// call. Model text is always React text, never HTML. The container is conversation-view.tsx.
import { useCallback, useEffect, useState } from "react";
import {
  conversationPageSchema,
  type ConversationItem,
  type ConversationMessage,
  type ConversationPage,
} from "@/lib/schema/api-conversation";
import { tokenWindowSchema, type TokenWindow } from "@/lib/schema/api-tokens";
import { probabilityBin } from "@/lib/view/conversation-page";
import { fetchParsed } from "@/components/shared/url-state";
import styles from "./conversation-view.module.css";

/** Items per page, characters per block on a page and when a message is shown whole. */
export const PAGE = 40;
export const CLIP = 2000;
const FULL_CLIP = 200_000;
const SHADE_TOKENS = 2000;

export const parsePage = (v: unknown) => conversationPageSchema.parse(v);

/** The conversation and token routes of one sequence (the profile and stamp query appended). */
export function sequenceUrls(base: string, sequence: string, profileQs: string) {
  const chain = encodeURIComponent(sequence);
  return {
    conversation: `${base}/conversation?chain=${chain}${profileQs}`,
    tokens: `${base}/tokens?chain=${chain}${profileQs}`,
  };
}
export type Urls = ReturnType<typeof sequenceUrls>;

export interface ItemProps {
  item: ConversationItem;
  selected: boolean;
  shade: boolean;
  urls: Urls;
  base: string;
  profileQs: string;
  onPatch: (patch: Record<string, string | null>) => void;
}

export function ConversationItemView({
  item,
  selected,
  shade,
  urls,
  base,
  profileQs,
  onPatch,
}: ItemProps) {
  if (item.kind === "failed_call") {
    return (
      <div className={styles.failed} data-testid="conversation-failed-call">
        call <span className={styles.mono}>{item.call.slice(0, 8)}</span> failed
        {item.status_code !== null ? ` with HTTP ${item.status_code}` : ""}: {item.error}
      </div>
    );
  }
  if (item.kind === "side_call")
    return <SideThread item={item} base={base} profileQs={profileQs} />;
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
  const [full, setFull] = useState<ConversationMessage | null>(null);
  const [loading, setLoading] = useState(false);
  const shown = full ?? m;
  const expand = () => {
    setLoading(true);
    fetchParsed(`${urls.conversation}&offset=${m.index}&limit=1&clip=${FULL_CLIP}`, parsePage).then(
      (p) => setFull(p.items[0]?.kind === "message" ? p.items[0] : null),
      () => setLoading(false),
    );
  };
  return (
    <article
      className={`${styles.message} ${styles[m.role]} ${selected ? styles.selected : ""}`}
      data-testid="conversation-message"
      data-role={m.role}
      onClick={() => onPatch?.({ message: String(m.index) })}
    >
      <header className={styles.header}>
        <span className={styles.role}>{m.role}</span>
        {m.label && m.label !== m.role && <span className={styles.muted}>{m.label}</span>}
        <span className={styles.muted}>
          call <span className={styles.mono}>{m.call.slice(0, 8)}</span> · {SOURCE[m.source]} ·
          tokens {m.start}–{m.end}
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
      {shade && m.generated > 0 ? (
        <ShadedTokens url={urls.tokens} start={m.start} end={m.end} />
      ) : (
        shown.blocks.map((b, i) => (
          <section key={i} className={`${styles.block} ${styles[b.kind]}`}>
            {b.kind !== "text" && (
              <div className={styles.blockTitle}>
                {b.kind === "tool_call"
                  ? `tool call${b.name ? ` · ${b.name}` : ""}`
                  : b.kind === "tool_result"
                    ? "tool result"
                    : "reasoning"}
              </div>
            )}
            <div className={styles.text}>
              {b.spans.map((s, k) => (
                <span key={k} className={s.mask === 1 ? styles.gen : styles.refed}>
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
                  expand();
                }}
              >
                {loading ? "loading…" : `show all ${b.chars.toLocaleString("en-US")} characters`}
              </button>
            )}
          </section>
        ))
      )}
    </article>
  );
}

/** A reply's tokens, shaded by probability; fetched when shown, at most SHADE_TOKENS of them. */
function ShadedTokens({ url, start, end }: { url: string; start: number; end: number }) {
  const [w, setW] = useState<{ key: string; window?: TokenWindow; error?: string } | null>(null);
  const key = `${url}#${start}-${end}`;
  useEffect(() => {
    const ctl = new AbortController();
    fetchParsed(
      `${url}&offset=${start}&limit=${Math.min(end - start, SHADE_TOKENS)}`,
      (v) => tokenWindowSchema.parse(v),
      ctl.signal,
    ).then(
      (window) => setW({ key, window }),
      (err: unknown) => !ctl.signal.aborted && setW({ key, error: (err as Error).message }),
    );
    return () => ctl.abort();
  }, [url, start, end, key]);
  const current = w?.key === key ? w : null;
  if (current?.error) return <div className={styles.error}>{current.error}</div>;
  if (!current?.window) return <div className={styles.muted}>Loading tokens…</div>;
  const t = current.window.tokens;
  return (
    <div className={styles.text} data-testid="conversation-shaded">
      {t.id.map((id, k) => {
        const bin = t.mask[k] === 1 ? probabilityBin(t.log_prob[k] ?? null) : -1;
        const lp = t.log_prob[k];
        return (
          <span
            key={k}
            className={bin >= 0 ? styles[`bin${bin}`] : t.mask[k] === 1 ? styles.gen : styles.refed}
            title={lp === null || lp === undefined ? undefined : `log prob ${lp.toFixed(3)}`}
          >
            {t.text?.[k] ?? `${id} `}
          </span>
        );
      })}
      {end - start > SHADE_TOKENS && (
        <div className={styles.muted}>
          First {SHADE_TOKENS.toLocaleString("en-US")} of {(end - start).toLocaleString("en-US")}{" "}
          tokens shaded.
        </div>
      )}
    </div>
  );
}

/** A side call, collapsed; opened, its own messages load (the sequence `call:<id>`). */
function SideThread({
  item,
  base,
  profileQs,
}: {
  item: Extract<ConversationItem, { kind: "side_call" }>;
  base: string;
  profileQs: string;
}) {
  const [thread, setThread] = useState<ConversationPage | "loading" | string | null>(null);
  const load = useCallback(() => {
    if (thread !== null) return;
    setThread("loading");
    const url = `${sequenceUrls(base, item.sequence, profileQs).conversation}&limit=${PAGE}&clip=${CLIP}`;
    fetchParsed(url, parsePage).then(setThread, (err: unknown) =>
      setThread((err as Error).message),
    );
  }, [thread, base, item.sequence, profileQs]);
  const urls = sequenceUrls(base, item.sequence, profileQs);
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
