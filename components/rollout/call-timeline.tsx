"use client";
// The call timeline: a row per call in time order (failed calls, dangling intents where they happened),
// indented only at branches, bars on one time axis. Virtualised; ↑↓ Home End, ← → fold, Enter selects.
import { useVirtualizer } from "@tanstack/react-virtual";
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from "react";
import type { CallView, FailedCall } from "@/lib/schema";
import {
  buildTimeline,
  isCall,
  type DanglingIntent,
  type TimelineRow,
  moveInTimeline,
  timelineCursor,
  visibleRows,
  timelinePositions,
  compact,
  modelText,
  seconds,
} from "@/lib/view";
import { fmtInt, short } from "./labels";
import styles from "./call-timeline.module.css";

// Two lines a row (role and status; call, model and lengths), so each label has room to be read.
const ROW = 40;
// What the server renders before any panel is measured: the rows a 68vh panel shows.
const INITIAL_RECT = { width: 560, height: 640 };
const INDENT = 10; // px per branch level
const MAX_INDENT = 6; // deeper branches stop indenting (their depth is in the title)
const MOVES = ["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Home", "End"] as const;
type Move = (typeof MOVES)[number];
const isMove = (key: string): key is Move => MOVES.some((m) => m === key);
const TONE = { ok: styles.ok, warn: styles.warn, bad: styles.bad, "": "" } as const;

export interface CallTimelineProps {
  calls: readonly CallView[];
  failed: readonly FailedCall[];
  /** Intents with no token entry. */
  intents: readonly DanglingIntent[];
  selectedCallId: string | null;
  onSelect: (callId: string) => void;
}

export function CallTimeline(props: CallTimelineProps) {
  const { calls, failed, intents, selectedCallId, onSelect } = props;
  const timeline = useMemo(() => buildTimeline(calls, failed, intents), [calls, failed, intents]);
  // The numbers banners use ("call 2 got HTTP 422"); dangling intents have none.
  const numbers = useMemo(() => timelinePositions(calls, failed), [calls, failed]);
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(() => new Set());
  const rows = useMemo(() => visibleRows(timeline.rows, collapsed), [timeline, collapsed]);
  const rowOf = useMemo(() => new Map(rows.map((r, i) => [r.call_id, i])), [rows]);
  const cursorOf = useMemo(() => timelineCursor(rows, timeline.rows), [rows, timeline]);
  const selectedRow = selectedCallId === null ? -1 : (rowOf.get(selectedCallId) ?? -1);
  // Key presses can outrun the URL: moves start from the last id sent here until the selection
  // changes to something this view did not send.
  const sent = useRef<{ ids: Set<string>; last: string | null; basis: string | null }>({
    ids: new Set(),
    last: null,
    basis: null,
  });
  const scroller = useRef<HTMLDivElement>(null);
  const virt = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW,
    overscan: 12,
    initialRect: INITIAL_RECT,
  });

  useEffect(() => {
    if (selectedRow >= 0) virt.scrollToIndex(selectedRow, { align: "auto" });
  }, [selectedRow, virt]);

  const select = (row: TimelineRow | undefined) => {
    if (!row) return;
    const s = sent.current;
    if (s.last === null) s.basis = selectedCallId;
    s.ids.add(row.call_id);
    s.last = row.call_id;
    onSelect(row.call_id);
  };
  const cursor = (): number => {
    const s = sent.current;
    // Still on the way: the selection is what it was when we sent, or one of ours but not the last.
    const ours =
      selectedCallId === s.basis || (selectedCallId !== null && s.ids.has(selectedCallId));
    const pending = ours && s.last !== null && selectedCallId !== s.last;
    if (!pending) sent.current = { ids: new Set(), last: null, basis: null };
    // -1 with nothing selected: the first key then lands on the first row, not the second.
    return cursorOf(pending ? s.last : selectedCallId);
  };
  const toggle = (id: string) =>
    setCollapsed((prev) => {
      const next = new Set(prev);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === "Enter") {
      e.preventDefault();
      select(rows[Math.max(0, cursor())]);
      return;
    }
    if (!isMove(e.key) || rows.length === 0) return;
    e.preventDefault();
    const from = cursor();
    const move = moveInTimeline(rows, from, e.key, collapsed);
    if (move.toggle !== null) toggle(move.toggle);
    if (move.row !== from) {
      select(rows[move.row]);
      virt.scrollToIndex(move.row, { align: "auto" });
    }
  };

  return (
    <div className={styles.timeline} data-testid="call-timeline">
      <Header axis={timeline.axis} />
      <div
        className={styles.scroller}
        role="tree"
        aria-label="Calls in time order"
        tabIndex={0}
        ref={scroller}
        onKeyDown={onKey}
        aria-activedescendant={selectedRow >= 0 ? rowDomId(rows[selectedRow]) : undefined}
      >
        <div style={{ height: virt.getTotalSize(), position: "relative" }}>
          {virt.getVirtualItems().map((item) => {
            const row = rows[item.index] as TimelineRow;
            return (
              <Row
                key={row.call_id}
                row={row}
                number={numbers.get(row.call_id) ?? null}
                top={item.start}
                selected={item.index === selectedRow}
                expanded={row.branches > 0 ? !collapsed.has(row.call_id) : null}
                axisStart={timeline.axis?.start ?? null}
                onSelect={() => select(row)}
                onToggle={() => toggle(row.call_id)}
              />
            );
          })}
        </div>
      </div>
    </div>
  );
}

const rowDomId = (row: TimelineRow | undefined) => (row ? `timeline-${row.call_id}` : undefined);
function Header({ axis }: { axis: { start: number; end: number } | null }) {
  return (
    <div className={`${styles.columns} ${styles.header}`} aria-hidden>
      <div className={styles.top}>
        <span className={styles.cell}>Role</span>
        <span className={`${styles.cell} ${styles.status}`}>Status</span>
      </div>
      <span className={`${styles.cell} ${styles.callId}`}>Call</span>
      <span className={`${styles.cell} ${styles.model}`}>Model</span>
      <span
        className={`${styles.cell} ${styles.lengths} ${styles.plain}`}
        title="prompt → generated tokens"
      >
        Prompt → gen
      </span>
      <span className={`${styles.cell} ${styles.axis}`}>
        <span>0 s</span>
        <span>{axis ? seconds(axis.end - axis.start) : "no times"}</span>
      </span>
    </div>
  );
}

interface RowProps {
  row: TimelineRow;
  number: number | null;
  top: number;
  selected: boolean;
  expanded: boolean | null;
  axisStart: number | null;
  onSelect: () => void;
  onToggle: () => void;
}

/**
 * A call on two lines: its role (and why) with its status above, its number and id, model and
 * prompt → generated lengths below; the time bar spans both. The role cell comes first in the DOM.
 */
function Row({ row, number, top, selected, expanded, axisStart, onSelect, onToggle }: RowProps) {
  const onCall = isCall(row);
  const depthNote = row.depth > 0 ? ` (branch level ${row.depth})` : "";
  const models = modelText(row);
  const mark = selected ? styles.selected : "";
  const statusTone = row.status_ok === null ? styles.muted : row.status_ok ? "" : styles.bad;
  return (
    <div
      id={rowDomId(row)}
      role="treeitem"
      aria-selected={selected}
      aria-level={row.depth + 1}
      aria-expanded={expanded ?? undefined}
      className={`${styles.columns} ${styles.row} ${onCall ? "" : styles.failed} ${mark}`}
      style={{ height: ROW, transform: `translateY(${top}px)` }}
      onClick={onSelect}
      data-testid="timeline-row"
      data-call-id={row.call_id}
      data-role={row.role}
      data-depth={row.depth}
      data-call-number={number ?? undefined}
    >
      <div className={styles.top}>
        <span
          className={`${styles.cell} ${styles.role}`}
          style={{ paddingLeft: Math.min(row.depth, MAX_INDENT) * INDENT }}
          title={`${row.label}${row.reason ? `: ${row.reason}` : ""}${depthNote}`}
          data-testid="timeline-role"
        >
          <span
            className={styles.twisty}
            aria-hidden
            onClick={expanded === null ? undefined : (e) => (e.stopPropagation(), onToggle())}
          >
            {expanded === null ? "" : expanded ? "▾" : "▸"}
          </span>
          <span className={styles.cell}>
            <span className={TONE[row.tone]}>{row.label}</span>
            {/* Why a call is a side call (or excluded, or quarantined), in the row itself. */}
            {onCall && row.reason && (
              <span className={styles.muted} data-testid="timeline-reason">
                {" "}
                · {row.reason}
              </span>
            )}
          </span>
        </span>
        <span
          className={`${styles.cell} ${styles.status} ${statusTone}`}
          title={row.status}
          data-testid="timeline-status"
        >
          {row.status}
        </span>
      </div>
      <span
        className={`${styles.cell} ${styles.callId} ${styles.mono}`}
        title={number === null ? row.call_id : `call ${number}: ${row.call_id}`}
      >
        {number !== null && <span className={styles.muted}>{number} </span>}
        {short(row.call_id)}
      </span>
      <span
        className={`${styles.cell} ${onCall ? styles.model : styles.error}`}
        title={models.title}
        data-testid="timeline-model"
      >
        {models.text}
      </span>
      {onCall && <Lengths row={row} />}
      <TimeBar row={row} axisStart={axisStart} />
    </div>
  );
}

function Lengths({ row }: { row: TimelineRow }) {
  const [prompt, generated] = [row.prompt_len, row.generated_len ?? 0];
  const counts = `${fmtInt(prompt ?? 0)} prompt → ${fmtInt(generated)} generated tokens`;
  return (
    <span
      className={`${styles.cell} ${styles.lengths} ${styles.mono}`}
      title={prompt === null ? "no token entry" : counts}
      data-testid="timeline-lengths"
    >
      {prompt === null ? null : `${compact(prompt)} → ${compact(generated)}`}
    </span>
  );
}

function TimeBar({ row, axisStart }: { row: TimelineRow; axisStart: number | null }) {
  const pct = (f: number) => `${(Math.min(1, Math.max(0, f)) * 100).toFixed(3)}%`;
  const t = row.time;
  const title =
    t && axisStart !== null
      ? `starts at +${seconds(t.start - axisStart)}, takes ${seconds(t.end - t.start)}`
      : "no time recorded: placed by order";
  return (
    <span className={`${styles.cell} ${styles.time}`} title={title}>
      {row.bar ? (
        <span
          className={`${styles.bar} ${TONE[row.tone]}`}
          style={{ left: pct(Math.min(row.bar.left, 0.99)), width: pct(row.bar.width) }}
        />
      ) : row.marker !== null ? (
        <span
          className={styles.marker}
          style={{ left: `clamp(4px, ${pct(row.marker)}, calc(100% - 4px))` }}
        />
      ) : null}
    </span>
  );
}
