"use client";
// The rollouts table: @tanstack/react-table owns the columns (headers, sorting, column choice);
// rows come in pages from the server (sorted and filtered there) and are virtualised, so 50,000
// rows scroll with a small DOM. Filters and sorting live in the URL; exports use the same filters.
import { getCoreRowModel, useReactTable, type ColumnDef, type SortingState, type VisibilityState } from "@tanstack/react-table";
import { useVirtualizer } from "@tanstack/react-virtual";
import Link from "next/link";
import { useEffect, useMemo, useRef } from "react";
import type { RolloutSummary } from "@/lib/schema/api-runs";
import { useUrlState } from "@/components/shared/url-state";
import { useRowPages } from "./use-row-pages";
import { TableFilters, queryFrom } from "./table-filters";
import type { RunHealth } from "@/lib/schema/api-runs";

const ROW = 30;
type Col = ColumnDef<RolloutSummary> & { meta: { render: (s: RolloutSummary, runId: string) => React.ReactNode; width: number } };

const num = (v: number | null, digits = 0) => (v === null ? "—" : digits ? v.toFixed(digits) : v.toLocaleString("en-US"));

const COLUMNS: Col[] = [
  { id: "rollout_id", accessorFn: (s) => s.rollout_id, header: "Rollout", meta: { width: 110, render: (s, run) => <Link href={`/runs/${encodeURIComponent(run)}/rollouts/${encodeURIComponent(s.rollout_id)}`} className="mono">{s.rollout_id}</Link> } },
  { id: "step", accessorFn: (s) => s.step, header: "Step", meta: { width: 60, render: (s) => num(s.step) } },
  { id: "reward", accessorFn: (s) => s.reward, header: "Reward", meta: { width: 70, render: (s) => num(s.reward, s.reward !== null && !Number.isInteger(s.reward) ? 3 : 0) } },
  { id: "mask_sample", accessorFn: (s) => s.mask_sample, header: "Verdict", meta: { width: 90, render: (s) => <span className={`badge ${s.mask_sample ? "bad" : "ok"}`}>{s.mask_sample ? "masked" : "trained"}</span> } },
  { id: "reasons", header: "Reasons / error", enableSorting: false, meta: { width: 320, render: (s) => <span className="cell-text" title={s.error ?? s.cut_short ?? ""}>{[s.mask_reasons.join(", "), s.error, s.cut_short ? `cut short: ${s.cut_short}` : ""].filter(Boolean).join(" · ")}</span> } },
  { id: "n_calls", accessorFn: (s) => s.n_calls, header: "Calls", meta: { width: 60, render: (s) => num(s.n_calls) } },
  { id: "chains", accessorFn: (s) => s.chains, header: "Chains", meta: { width: 64, render: (s) => num(s.chains) } },
  { id: "delivered_fraction", accessorFn: (s) => s.delivered_fraction, header: "Delivered", meta: { width: 80, render: (s) => (s.delivered_fraction === null ? "—" : `${(s.delivered_fraction * 100).toFixed(1)}%`) } },
  { id: "side_calls", accessorFn: (s) => s.side_calls, header: "Side calls", meta: { width: 80, render: (s) => num(s.side_calls) } },
  { id: "quarantined", accessorFn: (s) => s.quarantined, header: "Quarantined", meta: { width: 90, render: (s) => num(s.quarantined) } },
  { id: "status", header: "Status codes", enableSorting: false, meta: { width: 130, render: (s) => <span className="mono small">{Object.entries(s.status_codes).map(([k, n]) => `${k}×${n}`).join(" ")}</span> } },
  { id: "failed_calls", accessorFn: (s) => s.failed_calls, header: "Failed calls", meta: { width: 90, render: (s) => num(s.failed_calls) } },
  { id: "bytes", accessorFn: (s) => s.bytes, header: "Size", meta: { width: 80, render: (s) => (s.bytes ? `${(s.bytes / 1024).toFixed(1)} kB` : "—") } },
];

export function RolloutsTable({ runId, health, version }: { runId: string; health: RunHealth; version: number }) {
  const [params, set] = useUrlState();
  const query = queryFrom(params);
  const base = `/api/runs/${encodeURIComponent(runId)}/rollouts`;
  const { total, all, error, ensure, rowAt } = useRowPages(base, query, version);
  const sorting: SortingState = [{ id: params.get("sort") ?? "rollout_id", desc: params.get("dir") === "desc" }];
  const hidden = new Set((params.get("hide") ?? "").split(",").filter(Boolean));
  const visibility: VisibilityState = Object.fromEntries(COLUMNS.map((c) => [c.id as string, !hidden.has(c.id as string)]));
  const table = useReactTable<RolloutSummary>({
    data: useMemo(() => [], []),
    columns: COLUMNS,
    state: { sorting, columnVisibility: visibility },
    manualSorting: true,
    enableSortingRemoval: false,
    onSortingChange: (up) => {
      const next = typeof up === "function" ? up(sorting) : up;
      const s = next[0];
      set({ sort: s?.id ?? null, dir: s?.desc ? "desc" : null });
    },
    onColumnVisibilityChange: (up) => {
      const next = typeof up === "function" ? up(visibility) : up;
      set({ hide: Object.entries(next).filter(([, v]) => !v).map(([k]) => k).join(",") || null });
    },
    getCoreRowModel: getCoreRowModel(),
  });
  const columns = table.getVisibleLeafColumns();
  const width = columns.reduce((a, c) => a + (c.columnDef as Col).meta.width, 0);
  const scroller = useRef<HTMLDivElement>(null);
  const virt = useVirtualizer({ count: total ?? 0, getScrollElement: () => scroller.current, estimateSize: () => ROW, overscan: 15 });
  const items = virt.getVirtualItems();
  const firstRow = items[0]?.index ?? 0, lastRow = items[items.length - 1]?.index ?? 0;
  useEffect(() => {
    if (total) ensure(firstRow, lastRow + 1);
  }, [firstRow, lastRow, total, ensure]);
  const exportHref = (format: string) => `/api/runs/${encodeURIComponent(runId)}/export?format=${format}${query ? `&${query}` : ""}`;

  return (
    <section data-testid="rollouts-section">
      <TableFilters health={health} params={params} set={set} table={table} />
      <div className="table-meta">
        <span className="muted" data-testid="rollouts-count">
          {total === null ? "loading…" : `${total.toLocaleString("en-US")} of ${(all ?? 0).toLocaleString("en-US")} rollouts`}
        </span>
        <a href={exportHref("csv")} data-testid="export-csv" download>
          export CSV
        </a>
        <a href={exportHref("json")} data-testid="export-json" download>
          export JSON
        </a>
      </div>
      {error && <div className="error-box">{error}</div>}
      <div className="vtable" ref={scroller} data-testid="rollouts-table">
        <div className="vrow vhead" style={{ width }}>
          {table.getHeaderGroups()[0]!.headers.map((h) => {
            const sorted = h.column.getIsSorted();
            return (
              <div key={h.id} className="vcell" style={{ width: (h.column.columnDef as Col).meta.width }} role="columnheader" aria-sort={sorted ? (sorted === "desc" ? "descending" : "ascending") : "none"}>
                {h.column.getCanSort() ? (
                  <button className="linkish sort" onClick={h.column.getToggleSortingHandler()} data-testid={`sort-${h.id}`}>
                    {String(h.column.columnDef.header)} {sorted === "asc" ? "▲" : sorted === "desc" ? "▼" : ""}
                  </button>
                ) : (
                  String(h.column.columnDef.header)
                )}
              </div>
            );
          })}
        </div>
        <div style={{ height: virt.getTotalSize(), position: "relative", width }}>
          {items.map((item) => {
            const s = rowAt(item.index);
            return (
              <div key={item.key} className={`vrow ${s?.mask_sample ? "masked" : ""}`} style={{ position: "absolute", top: 0, transform: `translateY(${item.start}px)`, height: ROW, width }} data-testid="rollout-row" data-rollout-id={s?.rollout_id}>
                {columns.map((c) => (
                  <div key={c.id} className="vcell" style={{ width: (c.columnDef as Col).meta.width }}>
                    {s ? (c.columnDef as Col).meta.render(s, runId) : <span className="muted">…</span>}
                  </div>
                ))}
              </div>
            );
          })}
        </div>
      </div>
    </section>
  );
}
