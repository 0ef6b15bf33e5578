"use client";
// The loss-mask token view: a chain (or one call) as text, the way the trainer sees it. Tokens flow
// and wrap; a newline token ends its line. Generated tokens (mask 1) are green by probability when
// the sequence is trained on, amber when not (lib/view/sequence-training), re-fed ones (mask 0)
// slate. Only visible lines are in the DOM; windows load as they scroll in.
// It opens at the URL's position, else at the selected call's first token. On demand: trained
// tokens coloured by train/inference mismatch (`mismatch=1`), routed experts (`experts=1`).
import { LiveInput, LiveSelect } from "@/components/shared/live-controls";
import { useVirtualizer } from "@tanstack/react-virtual";
import { useEffect, useMemo, useRef, useState, type KeyboardEvent, type MouseEvent } from "react";
import {
  type SequenceTraining,
  CANVAS,
  callAt,
  callStart,
  itemOfCall,
  itemOfPosition,
  jumpValue,
  moveCursor,
  timelinePositions,
  tokenItems,
  type TokenItem,
} from "@/lib/view";
import { type TokenSegment, API } from "@/lib/schema";
import { useTokenWindows, WINDOW } from "./use-token-windows";
import { revealToken, useScrollTarget, type ScrollTarget } from "./use-scroll-target";
import { LowProbList } from "./low-prob-list";
import { ThresholdInput } from "./threshold-input";
import { TokenInfo } from "./token-info";
import { ExpertsPanel, ExpertsToggle } from "./experts-panel";
import { TokenLegend } from "./token-legend";
import { TokenItemView } from "./token-lines";
import { MismatchToggle, useTrainerMismatch } from "./trainer-mismatch";
import { fmtInt, short } from "./labels";
import { SequenceSelect } from "./sequence-select";
import { useRolloutFacts } from "./rollout-facts";
import styles from "./token-view.module.css";
import { rolloutUrl, type RolloutAsk } from "./rollout-api";
import { withMore } from "@/components/shared/api";

// Estimates until an item is measured: a wrapped row is 21 px and holds about 12 tokens.
const ROW_PX = 21;
const HEADER_PX = 28;
const TOKENS_PER_ROW = 12;
const OVERSCAN = 2;
// The server has no panel to measure: it renders the lines a typical panel shows, so the
// first tokens are in the page's HTML and painted before the scripts run; the client measures.
const INITIAL_RECT = { width: 900, height: 640 };
const estimate = (item: TokenItem | undefined) =>
  !item || item.kind === "header"
    ? HEADER_PX
    : Math.max(1, Math.ceil((item.end - item.start) / TOKENS_PER_ROW)) * ROW_PX + 2;

export interface TokenViewProps {
  ask: RolloutAsk;
  sequence: string;
  sequences: Array<{ value: string; label: string }>;
  /** Whether this sequence's generated tokens are trained on: headers, info line, legend, colours. */
  training: SequenceTraining;
  /** The same for one call's tokens in it (a branch chain holds main-chain calls too). */
  trainingOf?: (call: string) => SequenceTraining;
  pos: number | null;
  /** The current find match's tokens [start, end), marked (./use-find). */
  found?: { start: number; end: number } | null;
  /** The selected call (URL `call`): with no position selected, the view opens at its first token. */
  call?: string | null;
  low: string | null;
  onPatch: (patch: Record<string, string | null>) => void;
}

export function TokenView(props: TokenViewProps) {
  const { ask, sequence, sequences, training, pos, low, onPatch } = props;
  const call = props.call ?? null;
  const found = props.found ?? null;
  const url = rolloutUrl(API.tokens, ask, { chain: sequence });
  const { first, error, ensure, tokenAt } = useTokenWindows(url);
  const mismatch = useTrainerMismatch(ask, sequence);
  const segments = useMemo(() => first?.segments ?? [], [first]);
  const total = first?.total ?? 0;
  // Which windows are loaded, as a key: the line model is rebuilt when one arrives.
  let loadedKey = "";
  for (let w = 0; w * WINDOW < total; w++) loadedKey += tokenAt(w * WINDOW) ? "1" : "0";
  const items = useMemo(() => {
    void loadedKey;
    const textAt = (p: number) => {
      const t = tokenAt(p);
      return t === null ? undefined : t.text;
    };
    return tokenItems({ segments, windowSize: WINDOW, textAt });
  }, [segments, tokenAt, loadedKey]);

  const scroller = useRef<HTMLDivElement>(null);
  const virt = useVirtualizer({
    count: items.length,
    getScrollElement: () => scroller.current,
    estimateSize: (i) => estimate(items[i]),
    getItemKey: (i) => {
      const it = items[i];
      return it ? `${it.kind[0]}${it.segment}:${it.start}` : i;
    },
    overscan: OVERSCAN,
    initialRect: INITIAL_RECT,
  });
  const visible = virt.getVirtualItems();
  const [hover, setHover] = useState<number | null>(null);
  const threshold =
    low === null || low.trim() === "" || Number.isNaN(Number(low)) ? null : Number(low);

  // Placeholders that scroll into view (or into the overscan) load their window.
  const firstIndex = visible[0]?.index ?? 0;
  const lastIndex = visible.at(-1)?.index ?? -1;
  const range: [number, number] = [items[firstIndex]?.start ?? 0, items[lastIndex]?.end ?? 0];
  useEffect(() => {
    for (let i = firstIndex; i <= lastIndex; i++) {
      const it = items[i];
      if (it?.kind === "placeholder") ensure(it.start, it.end);
    }
  }, [firstIndex, lastIndex, items, ensure]);

  // Where the view opens: the URL's position (centred), else the selected call's first token (its
  // segment header at the top). Followed until it stays in view while the windows around it load.
  const target = useMemo((): ScrollTarget | null => {
    if (pos !== null)
      return { key: `${url}#p${pos}`, pos, index: itemOfPosition(items, pos), align: "center" };
    const start = call === null ? null : callStart(segments, call);
    if (call === null || start === null) return null;
    const index = itemOfCall(items, segments, call);
    return { key: `${url}#c${call}`, pos: start, index, align: "start" };
  }, [pos, call, items, segments, url]);
  const scroll = useScrollTarget(scroller, virt, target, first !== undefined || !!error);

  // A selected token (a click, a key, a `pos` link) selects its call too: its timeline row and its
  // detail. The view does not move: with a position selected, the target is the position. The
  // message was the previous call's.
  const tokenCall = pos === null ? null : callAt(segments, pos);
  useEffect(() => {
    if (tokenCall !== null && tokenCall !== call) onPatch({ call: tokenCall, message: null });
  }, [tokenCall, call, onPatch]);

  // Key presses can outrun the URL update, so the cursor moves from the last key press, not the prop.
  const cursor = useRef<number | null>(pos);
  const sent = useRef(new Set<number | null>());
  useEffect(() => {
    if (sent.current.delete(pos)) return; // our own key press arriving late
    cursor.current = pos;
  }, [pos]);
  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    scroll.release();
    const to = moveCursor(items, cursor.current, e.key, target?.pos ?? 0);
    if (to === null || total === 0) return;
    e.preventDefault();
    const next = Math.min(total - 1, Math.max(0, to));
    cursor.current = next;
    sent.current.add(next);
    scroll.hold(`${url}#p${next}`); // scrolled here below, not centred as a deep link
    onPatch({ pos: String(next) });
    const i = itemOfPosition(items, next);
    if (i >= 0) virt.scrollToIndex(i, { align: "auto" });
    // A wrapped line can be taller than the panel: bring the token itself into view.
    requestAnimationFrame(() => scroller.current && revealToken(scroller.current, next, "nearest"));
  };
  const posOf = (e: MouseEvent<HTMLElement>) => {
    const el = (e.target as HTMLElement).closest<HTMLElement>("[data-pos],[data-lead-pos]");
    const p = el?.dataset.pos ?? el?.dataset.leadPos;
    return p === undefined ? null : Number(p);
  };

  const generated = segments.reduce((n, s) => n + (s.kind === "generated" ? s.length : 0), 0);
  const calls = useMemo(() => [...new Set(segments.map((s) => s.call))], [segments]);
  // Numbered as the timeline and banners number calls (failed ones too), not by this sequence.
  const { view } = useRolloutFacts();
  const numbers = useMemo(() => timelinePositions(view.calls, view.failed), [view]);
  const { trainingOf } = props;
  const byCall = useMemo(
    () => new Map(calls.map((c) => [c, trainingOf ? trainingOf(c) : training])),
    [calls, trainingOf, training],
  );
  const trainingAt = (call: string) => byCall.get(call) ?? training;
  return (
    <div className={`token-view ${styles.view}`} data-testid="token-view">
      <div className="toolbar">
        <SequenceSelect
          value={sequence}
          sequences={sequences}
          clears="pos"
          onPatch={onPatch}
          testId="sequence-select"
        />
        <label>
          jump to call{" "}
          <LiveSelect
            value={jumpValue(segments, call)}
            onChange={(e) => {
              const id = e.target.value;
              if (!id) return;
              onPatch({ call: id, pos: null });
              scroll.go(`${url}#c${id}`); // again, when this call was already the selected one
            }}
            data-testid="jump-to-call"
          >
            <option value="">—</option>
            {calls.map((c) => (
              <option key={c} value={c}>
                {numbers.get(c) ?? "–"}. {short(c)}
              </option>
            ))}
          </LiveSelect>
        </label>
        <label>
          <LiveInput
            type="checkbox"
            checked={low !== null}
            onChange={(e) => onPatch({ low: e.target.checked ? "-2.3" : null })}
            data-testid="low-toggle"
          />{" "}
          low-probability tokens below{" "}
          <ThresholdInput low={low} onCommit={(value) => onPatch({ low: value })} />
        </label>
        <MismatchToggle
          head={mismatch.head}
          on={mismatch.on}
          failed={mismatch.failed}
          onPatch={onPatch}
        />
        <ExpertsToggle onPatch={onPatch} />
        <span className="muted" data-testid="token-counts">
          {first
            ? `${fmtInt(total)} tokens · ${fmtInt(generated)} generated (mask 1) · ${fmtInt(total - generated)} re-fed (mask 0)`
            : error
              ? "tokens not loaded"
              : "loading tokens…"}
        </span>
      </div>
      <TokenLegend
        filtering={threshold !== null}
        mismatch={mismatch.errorAt !== null}
        training={training}
      />
      {error && <div className="error-box">{error}</div>}
      {low !== null && (
        <LowProbList
          url={withMore(url, { lowprob: low, limit: 500 })}
          onPick={(p) => {
            onPatch({ pos: String(p) });
            scroll.go(`${url}#p${p}`); // again, when it was already selected and scrolled away
          }}
        />
      )}
      <TokenInfo selected={pos} hovered={hover} tokenAt={tokenAt} trainingOf={trainingAt} />
      <ExpertsPanel ask={ask} sequence={sequence} pos={pos} range={range} />
      <div
        className={styles.scroll}
        style={{ backgroundColor: CANVAS }}
        ref={scroller}
        tabIndex={0}
        onKeyDown={onKey}
        onWheel={scroll.release}
        onPointerDown={scroll.release}
        onTouchStart={scroll.release}
        onMouseOver={(e) => setHover(posOf(e))}
        onMouseLeave={() => setHover(null)}
        onClick={(e) => {
          const p = posOf(e);
          if (p === null) return;
          scroll.hold(`${url}#p${p}`); // a click keeps the scroll where it is
          onPatch({ pos: String(p) });
        }}
        data-testid="token-scroll"
        aria-label="Tokens; arrow keys move the selection: left and right a token, up and down a line"
      >
        <div className={styles.inner} style={{ height: virt.getTotalSize() }}>
          {/* Items flow inside one shifted block, so estimated heights (the server's) never overlap. */}
          <div
            className={styles.items}
            style={{ transform: `translateY(${visible[0]?.start ?? 0}px)` }}
          >
            {visible.map((v) => {
              const item = items[v.index] as TokenItem;
              return (
                <div key={v.key} ref={virt.measureElement} data-index={v.index}>
                  <TokenItemView
                    item={item}
                    segment={segments[item.segment] as TokenSegment}
                    training={trainingAt((segments[item.segment] as TokenSegment).call)}
                    tokenAt={tokenAt}
                    selected={pos !== null && pos >= item.start - 1 && pos < item.end ? pos : null}
                    found={found && found.start < item.end && found.end > item.start ? found : null}
                    threshold={threshold}
                    mismatchAt={mismatch.errorAt}
                    height={estimate(item)}
                  />
                </div>
              );
            })}
          </div>
        </div>
      </div>
    </div>
  );
}
