"use client";
// The call tree: every call nested under its parent, edges labelled by how the parent was found,
// side calls, quarantined calls and retries marked, failed HTTP calls where they happened.
// Virtualised (1,000+ calls) and keyboard navigable (arrows, Home/End; Left/Right collapse).
import { useVirtualizer } from "@tanstack/react-virtual";
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from "react";
import type { CallView, FailedCall } from "@/lib/schema/api-rollout";
import { indexTree, moveSelection, treeRows, type TreeRow } from "@/lib/view/call-tree";
import { fmtInt, linkLabel, roleLabel, short, sideReason } from "./labels";

const ROW = 30;

export function CallTree({ calls, failed, selected, onSelect }: { calls: CallView[]; failed: FailedCall[]; selected: string | null; onSelect: (id: string) => void }) {
  const index = useMemo(() => indexTree(calls, failed), [calls, failed]);
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const rows = useMemo(() => treeRows(index, collapsed), [index, collapsed]);
  // Key presses can outrun the URL update, so moves start from the last selection made here.
  const cursor = useRef<string | null>(selected);
  const sent = useRef(new Set<string | null>());
  useEffect(() => {
    if (sent.current.delete(selected)) return; // our own selection arriving late
    cursor.current = selected;
  }, [selected]);
  const rowIndex = (id: string | null) => Math.max(0, rows.findIndex((r) => r.id === id || r.id === `failed:${id}`));
  const selectedIndex = rows.findIndex((r) => r.id === selected || r.id === `failed:${selected}`);
  const current = Math.max(0, selectedIndex);
  const scroller = useRef<HTMLDivElement>(null);
  const virt = useVirtualizer({ count: rows.length, getScrollElement: () => scroller.current, estimateSize: () => ROW, overscan: 12 });

  const toggle = (id: string) =>
    setCollapsed((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const select = (row: TreeRow | undefined) => {
    if (!row) return;
    cursor.current = row.kind === "call" ? row.id : row.failed.model_call_id;
    sent.current.add(cursor.current);
    onSelect(cursor.current);
  };

  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    if (!["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Home", "End"].includes(e.key)) return;
    e.preventDefault();
    const from = rowIndex(cursor.current);
    const move = moveSelection(rows, from, e.key, index);
    if (move.toggle) toggle(move.toggle);
    if (move.row !== from) {
      select(rows[move.row]);
      virt.scrollToIndex(move.row, { align: "auto" });
    }
  };

  return (
    <div
      className="tree"
      role="tree"
      aria-label="Calls"
      tabIndex={0}
      ref={scroller}
      onKeyDown={onKey}
      aria-activedescendant={rows[current] ? `tree-${rows[current].id}` : undefined}
      data-testid="call-tree"
    >
      <div style={{ height: virt.getTotalSize(), position: "relative" }}>
        {virt.getVirtualItems().map((item) => {
          const row = rows[item.index] as TreeRow;
          const isSel = item.index === selectedIndex;
          return (
            <div
              key={row.id}
              id={`tree-${row.id}`}
              role="treeitem"
              aria-selected={isSel}
              aria-level={row.depth + 1}
              aria-expanded={row.kind === "call" && row.childCount > 0 ? row.expanded : undefined}
              className={`tree-row ${isSel ? "selected" : ""} role-${row.kind === "call" ? row.call.role : "failed"}`}
              style={{ position: "absolute", top: 0, left: 0, right: 0, height: ROW, transform: `translateY(${item.start}px)`, paddingLeft: 6 + row.depth * 16 }}
              onClick={() => select(row)}
              data-testid="tree-row"
              data-call-id={row.kind === "call" ? row.id : row.failed.model_call_id}
              data-role={row.kind === "call" ? row.call.role : "failed"}
            >
              {row.kind === "call" ? <CallRow row={row} onToggle={() => toggle(row.id)} /> : <FailedRow f={row.failed} />}
            </div>
          );
        })}
      </div>
    </div>
  );
}

function CallRow({ row, onToggle }: { row: Extract<TreeRow, { kind: "call" }>; onToggle: () => void }) {
  const c = row.call;
  const role = roleLabel(c);
  const link = linkLabel(c);
  const side = sideReason(c);
  const status = c.exchange?.status_code;
  return (
    <>
      <button className="twisty" aria-hidden tabIndex={-1} onClick={(e) => (e.stopPropagation(), onToggle())} style={{ visibility: row.childCount > 0 ? "visible" : "hidden" }}>
        {row.expanded ? "▾" : "▸"}
      </button>
      {link && c.link !== "root" && <span className={`edge edge-${c.link}`} title={`parent found by: ${link}`}>{link}</span>}
      <span className={`badge ${role.tone}`} title={side ?? c.excluded_reason ?? undefined} data-testid="tree-role">
        {role.text}
      </span>
      {c.retry && <span className={`badge ${c.retry === "kept" ? "" : "bad"}`}>retry {c.retry}</span>}
      <span className="mono">{short(c.model_call_id)}</span>
      <span className="muted small">{c.requested_model ?? c.model}</span>
      <span className="muted small mono" title="prompt (inherited + interstitial) / generated tokens">
        {fmtInt(c.prompt_len)}
        {c.inherited_len > 0 ? ` (+${fmtInt(c.interstitial_len)})` : ""} → {fmtInt(c.generated_len)}
      </span>
      {side && <span className="warn-text small" data-testid="side-reason">{side}</span>}
      {status !== undefined && status !== null && status !== 200 && <span className="badge bad">HTTP {status}</span>}
    </>
  );
}

function FailedRow({ f }: { f: FailedCall }) {
  return (
    <>
      <span className="twisty" style={{ visibility: "hidden" }}>▸</span>
      <span className="badge bad" data-testid="failed-status">
        HTTP {f.status_code ?? "?"} {f.error_category ?? ""}
      </span>
      <span className="mono">{short(f.model_call_id)}</span>
      <span className="small bad-text">{f.error}</span>
      <span className="muted small">failed: no token entry</span>
    </>
  );
}
