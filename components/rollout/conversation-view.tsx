"use client";
// The conversation tab: a chain as messages by role, generated text (mask 1, trained) set apart
// from re-fed text (mask 0), tool calls and results as blocks, side calls as collapsible threads
// where they happened. Pages of items load as they scroll into view (virtualised, rows measured);
// the items themselves are drawn by conversation-items.tsx.
import { LiveInput } from "@/components/shared/live-controls";
import { useUrlFlag } from "@/components/shared/use-url-flag";
import { useVirtualizer } from "@tanstack/react-virtual";
import { useEffect, useMemo, useRef } from "react";
import { type ConversationItem, type ConversationPage, API } from "@/lib/schema";
import { binColours as binStyle, PROBABILITY_BINS, type SequenceTraining } from "@/lib/view";
import { usePages } from "@/components/shared/use-pages";
import { CLIP, ConversationItemView, PAGE, parsePage, sequenceUrls } from "./conversation-items";
import { SequenceSelect } from "./sequence-select";
import styles from "./conversation-view.module.css";
import { rolloutUrl, type RolloutAsk } from "./rollout-api";
import { useScrollTarget, type ScrollMarks, type ScrollTarget } from "./use-scroll-target";

/** A row drawn with its item (`data-item`), and a row whose page is still loading. */
const MARKS: ScrollMarks = {
  target: (index) => `[data-item="${index}"]`,
  placeholder: '[data-testid="conversation-placeholder"]',
};

export interface ConversationViewProps {
  /** The rollout, and the profile and stamp every request carries. */
  ask: RolloutAsk;
  /** `main`, a chain id or `call:<id>`. */
  sequence: string;
  sequences: Array<{ value: string; label: string }>;
  /** The selected item (URL `message`), scrolled into view once. */
  message: number | null;
  /** Probability shading on (URL `shade=1`). */
  shade: boolean;
  /** Whether mask-1 tokens of this sequence are trained on, and the words (lib/view/sequence-training). */
  training: SequenceTraining;
  onPatch: (patch: Record<string, string | null>) => void;
}

export function ConversationView({
  ask,
  sequence,
  sequences,
  message,
  shade,
  training,
  onPatch,
}: ConversationViewProps) {
  const [shadeShown, setShadeShown] = useUrlFlag(shade);
  const url = rolloutUrl(API.conversation, ask, { chain: sequence, clip: CLIP });
  const { first, error, ensure, pageOf } = usePages(url, PAGE, parsePage);
  const total = first?.total ?? 0;
  const scroller = useRef<HTMLDivElement>(null);
  const virt = useVirtualizer({
    count: total,
    getScrollElement: () => scroller.current,
    estimateSize: () => 140,
    overscan: 4,
  });
  const items = virt.getVirtualItems();
  const from = items[0]?.index ?? 0;
  const to = items[items.length - 1]?.index ?? 0;
  useEffect(() => {
    if (total > 0) ensure(from, to + 1);
  }, [from, to, total, ensure]);
  const itemAt = (i: number): ConversationItem | undefined => {
    const p = pageOf(i);
    return p?.items[i - p.offset];
  };

  // The selected message (a deep link, a find match): followed into view while the rows around
  // it are measured and their pages load, each of which moves it.
  const target = useMemo((): ScrollTarget | null => {
    if (message === null) return null;
    const index = total === 0 ? -1 : Math.min(message, total - 1);
    return { key: `${url}#${message}`, pos: index, index, align: "start" };
  }, [message, total, url]);
  const scroll = useScrollTarget(scroller, virt, target, first !== undefined || !!error, MARKS);

  const urls = sequenceUrls(ask, sequence);
  return (
    <div className={styles.view} data-testid="conversation-view">
      <div className={styles.toolbar}>
        <SequenceSelect
          value={sequence}
          sequences={sequences}
          clears="message"
          onPatch={onPatch}
          testId="conversation-sequence"
        />
        <label>
          <LiveInput
            type="checkbox"
            checked={shadeShown}
            onChange={(e) => {
              setShadeShown(e.target.checked);
              onPatch({ shade: e.target.checked ? "1" : null });
            }}
            data-testid="conversation-shade-toggle"
          />{" "}
          shade generated tokens by probability
        </label>
        {first && <Counts page={first} />}
      </div>
      <Legend shade={shade} training={training} />
      {error && <div className={styles.error}>{error}</div>}
      {!first && !error && <div className={styles.muted}>Loading the conversation…</div>}
      {first && total === 0 && <div className={styles.muted}>This sequence has no messages.</div>}
      <div
        className={styles.scroll}
        ref={scroller}
        data-testid="conversation-scroll"
        onWheel={scroll.release}
        onPointerDown={scroll.release}
        onTouchStart={scroll.release}
        onKeyDown={scroll.release}
      >
        <div style={{ height: virt.getTotalSize(), position: "relative" }}>
          {items.map((row) => {
            const item = itemAt(row.index);
            return (
              <div
                key={row.key}
                data-index={row.index}
                data-item={item ? row.index : undefined}
                ref={virt.measureElement}
                className={styles.row}
                style={{ transform: `translateY(${row.start}px)` }}
              >
                {item ? (
                  <ConversationItemView
                    item={item}
                    selected={message === row.index}
                    shade={shade}
                    urls={urls}
                    ask={ask}
                    onPatch={onPatch}
                  />
                ) : (
                  <div className={styles.placeholder} data-testid="conversation-placeholder">
                    …
                  </div>
                )}
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}

function Counts({ page }: { page: ConversationPage }) {
  const fmt = (n: number) => n.toLocaleString("en-US");
  return (
    <span className={styles.muted} data-testid="conversation-counts">
      {fmt(page.total)} items · {fmt(page.length)} tokens · {fmt(page.generated)} generated ·{" "}
      {page.template === "plain"
        ? "no chat template found: segments as they are"
        : `${page.template} template`}
      {!page.decoded && " · no tokenizer: ids shown"}
    </span>
  );
}

function Legend({ shade, training }: { shade: boolean; training: SequenceTraining }) {
  return (
    <div className={styles.legend} data-testid="conversation-legend">
      <span className={styles.gen}>
        {training.words ? `generated (mask 1, ${training.words})` : "generated (mask 1)"}
      </span>
      <span className={styles.refed}>re-fed (mask 0, context only)</span>
      {shade &&
        PROBABILITY_BINS.map((b, i) => (
          <span key={b.label} className={styles.bin} style={binStyle(i)}>
            {b.label}
          </span>
        ))}
    </div>
  );
}
