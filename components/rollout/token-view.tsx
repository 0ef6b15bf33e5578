"use client";
// The loss-mask token view: a chain (or one call) as the trainer sees it. Generated tokens (mask 1)
// are green, shaded by probability; re-fed tokens (mask 0) are slate. Each call segment starts with a
// header row. Only visible rows are in the DOM; windows of tokens load as they scroll into view.
import { useVirtualizer } from "@tanstack/react-virtual";
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from "react";
import { generatedAlpha, rowOfCall, rowOfPosition, tokenRows, visibleText, type TokenRow } from "@/lib/view/token-rows";
import type { TokenSegment } from "@/lib/schema/api";
import { useTokenWindows, type TokenAt } from "./use-token-windows";
import { LowProbList } from "./low-prob-list";
import { fmtInt, short } from "./labels";

const ROW = 24;
const PER_ROW = 20;

export interface TokenViewProps {
  base: string;
  profileQs: string;
  sequence: string;
  sequences: Array<{ value: string; label: string }>;
  pos: number | null;
  low: string | null;
  onPatch: (patch: Record<string, string | null>) => void;
}

export function TokenView({ base, profileQs, sequence, sequences, pos, low, onPatch }: TokenViewProps) {
  const url = `${base}/tokens?chain=${encodeURIComponent(sequence)}${profileQs}`;
  const { first, error, ensure, tokenAt } = useTokenWindows(url);
  const segments = useMemo(() => first?.segments ?? [], [first]);
  const rows = useMemo(() => tokenRows(segments, PER_ROW), [segments]);
  const scroller = useRef<HTMLDivElement>(null);
  const virt = useVirtualizer({ count: rows.length, getScrollElement: () => scroller.current, estimateSize: () => ROW, overscan: 10 });
  const [hover, setHover] = useState<number | null>(null);
  const items = virt.getVirtualItems();
  const firstRow = items[0]?.index ?? 0;
  const lastRow = items[items.length - 1]?.index ?? 0;
  const threshold = low === null ? null : Number(low);

  useEffect(() => {
    let from = Infinity, to = -1;
    for (let i = firstRow; i <= lastRow; i++) {
      const r = rows[i];
      if (r?.kind === "tokens") [from, to] = [Math.min(from, r.start), Math.max(to, r.start + r.count)];
    }
    if (to > from) ensure(from, to);
  }, [firstRow, lastRow, rows, ensure]);

  // Deep links: once the rows exist, bring the selected position into view.
  const scrolledFor = useRef<string | null>(null);
  useEffect(() => {
    const key = `${url}#${pos}`;
    if (pos === null || rows.length === 0 || scrolledFor.current === key) return;
    scrolledFor.current = key;
    const r = rowOfPosition(rows, pos);
    if (r >= 0) virt.scrollToIndex(r, { align: "center" });
  }, [pos, rows, url, virt]);

  const total = first?.total ?? 0;
  const generated = segments.reduce((n, s) => n + (s.kind === "generated" ? s.length : 0), 0);
  const callsInSeq = useMemo(() => [...new Set(segments.map((s) => s.call))], [segments]);
  const shown = hover ?? pos;
  const info = shown === null ? null : tokenAt(shown);

  // Key presses can outrun the URL update, so the cursor moves from the last key press, not the prop.
  const cursor = useRef<number | null>(pos);
  const sent = useRef(new Set<number | null>());
  useEffect(() => {
    if (sent.current.delete(pos)) return; // our own key press arriving late
    cursor.current = pos;
  }, [pos]);
  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const step = e.key === "ArrowRight" ? 1 : e.key === "ArrowLeft" ? -1 : e.key === "ArrowDown" ? PER_ROW : e.key === "ArrowUp" ? -PER_ROW : 0;
    if (step === 0 || total === 0) return;
    e.preventDefault();
    const next = Math.min(total - 1, Math.max(0, (cursor.current ?? -1) + step));
    cursor.current = next;
    sent.current.add(next);
    onPatch({ pos: String(next) });
    const r = rowOfPosition(rows, next);
    if (r >= 0) virt.scrollToIndex(r, { align: "auto" });
  };

  return (
    <div className="token-view" data-testid="token-view">
      <div className="toolbar">
        <label>
          sequence{" "}
          <select value={sequence} onChange={(e) => onPatch({ chain: e.target.value, pos: null })} data-testid="sequence-select">
            {sequences.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          jump to call{" "}
          <select
            value=""
            onChange={(e) => {
              const r = rowOfCall(rows, segments, e.target.value);
              if (r >= 0) virt.scrollToIndex(r, { align: "start" });
            }}
            data-testid="jump-to-call"
          >
            <option value="">—</option>
            {callsInSeq.map((c, i) => (
              <option key={c} value={c}>
                {i + 1}. {short(c)}
              </option>
            ))}
          </select>
        </label>
        <label>
          <input type="checkbox" checked={low !== null} onChange={(e) => onPatch({ low: e.target.checked ? "-2.3" : null })} data-testid="low-toggle" /> low-probability tokens below{" "}
          <input className="num" type="number" step="0.1" max="0" value={low ?? "-2.3"} disabled={low === null} onChange={(e) => onPatch({ low: e.target.value })} data-testid="low-threshold" />
        </label>
        <span className="muted" data-testid="token-counts">
          {fmtInt(total)} tokens · <span className="legend gen">{fmtInt(generated)} generated (mask 1)</span> · <span className="legend refed">{fmtInt(total - generated)} re-fed (mask 0)</span>
        </span>
      </div>
      {error && <div className="error-box">{error}</div>}
      {low !== null && <LowProbList url={`${url}&lowprob=${encodeURIComponent(low)}&limit=500`} onPick={(p) => onPatch({ pos: String(p) })} />}
      <TokenInfo t={info} />
      <div className="token-scroll" ref={scroller} tabIndex={0} onKeyDown={onKey} data-testid="token-scroll" aria-label="Tokens; arrow keys move the selection">
        <div style={{ height: virt.getTotalSize(), position: "relative" }}>
          {items.map((item) => (
            <div key={item.key} className="token-row" style={{ position: "absolute", top: 0, left: 0, right: 0, height: ROW, transform: `translateY(${item.start}px)` }}>
              <Row row={rows[item.index] as TokenRow} segments={segments} tokenAt={tokenAt} selected={pos} threshold={threshold} onHover={setHover} onPick={(p) => onPatch({ pos: String(p) })} />
            </div>
          ))}
        </div>
      </div>
    </div>
  );
}

function Row({ row, segments, tokenAt, selected, threshold, onHover, onPick }: { row: TokenRow; segments: TokenSegment[]; tokenAt: (p: number) => TokenAt | null; selected: number | null; threshold: number | null; onHover: (p: number | null) => void; onPick: (p: number) => void }) {
  const seg = segments[row.segment] as TokenSegment;
  if (row.kind === "header") {
    return (
      <div className={`seg-header seg-${seg.kind}`} data-testid="segment-header" data-call-id={seg.call}>
        call <span className="mono">{short(seg.call)}</span> · {seg.kind === "generated" ? "generated (trained, mask 1)" : seg.kind === "inherited" ? "inherited prefix (input)" : `${seg.kind} (re-fed, mask 0)`} · {fmtInt(seg.length)} tokens from {fmtInt(seg.start)}
      </div>
    );
  }
  const cells = [];
  for (let p = row.start; p < row.start + row.count; p++) {
    const t = tokenAt(p);
    if (!t) {
      cells.push(<span key={p} className="tok loading">…</span>);
      continue;
    }
    const gen = t.mask === 1;
    const dim = threshold !== null && gen && t.logProb !== null && t.logProb >= threshold;
    cells.push(
      <span
        key={p}
        className={`tok ${gen ? "gen" : "refed"} piece-${t.piece ?? "id"}${selected === p ? " sel" : ""}${dim ? " dim" : ""}`}
        style={gen ? { backgroundColor: `rgba(76, 195, 138, ${generatedAlpha(t.logProb)})` } : undefined}
        data-pos={p}
        data-mask={t.mask}
        onMouseEnter={() => onHover(p)}
        onMouseLeave={() => onHover(null)}
        onClick={() => onPick(p)}
      >
        {t.text === null ? t.id : visibleText(t.text)}
      </span>,
    );
  }
  return (
    <>
      <span className="gutter mono">{row.start}</span>
      {cells}
    </>
  );
}

function TokenInfo({ t }: { t: TokenAt | null }) {
  if (!t) return <div className="token-info muted" data-testid="token-info">Hover or select a token (arrow keys move the selection).</div>;
  return (
    <div className="token-info" data-testid="token-info">
      <span>pos {fmtInt(t.pos)}</span>
      <span>id {t.id}</span>
      <span className="mono">text {t.text === null ? "—" : JSON.stringify(t.text)}</span>
      {t.piece && t.piece !== "text" && <span className="badge">{t.piece}</span>}
      <span className={t.mask ? "gen-text" : "muted"}>mask {t.mask}</span>
      <span>log prob {t.logProb === null ? "—" : `${t.logProb.toFixed(4)} (p ${Math.exp(t.logProb).toFixed(3)})`}</span>
      <span className="mono">call {short(t.call)}</span>
    </div>
  );
}
