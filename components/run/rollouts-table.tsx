"use client";
// The rollouts table: @tanstack/react-table owns the columns (headers, sorting, column choice);
// rows come in pages from the server (sorted and filtered there) and are virtualised, so 50,000
// rows scroll with a small DOM. Filters and sorting live in the URL; exports use the same filters.
// Record-field columns (./column-picker) and the GRPO groups view (`?group=`, ./groups-table)
// are URL state too. The rollout id column stays in view when the table scrolls sideways, and a
// header cell is one button, so a click anywhere in it sorts. While the rollouts' text is searched
// (`?text=`, ./text-search), each row is taller by a line: its best hit, linked to the inspector.
import {
  getCoreRowModel,
  useReactTable,
  type SortingState,
  type VisibilityState,
} from "@tanstack/react-table";
import { useVirtualizer } from "@tanstack/react-virtual";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { type RolloutSummary, type RunHealth, DOWNLOADS, withQuery } from "@/lib/schema";
import { useUrlState } from "@/components/shared/url-state";
import { useHydrated } from "@/components/shared/use-hydrated";
import { tableCountWords, type IndexState } from "@/lib/health/pure";
import { parseTextQuery } from "@/lib/index/pure";
import { noTextMatchWords, textHitHref } from "@/lib/view";
import { COLUMNS, recordColumn, type Col, type Ctx } from "./rollout-columns";
import { BadFields, pickedFields, useRecordFields, useRecordValues } from "./column-picker";
import { GroupsView } from "./groups-table";
import type { RowPages } from "./use-row-pages";
import { FILTER_KEYS, TableFilters, queryFrom } from "./table-filters";
import { ChartFilterNote } from "./charts/chart-filter-note";
import { useBucketLink } from "./charts/use-bucket-link";
import { BadQuery } from "./bad-query";
import { hasInspectorPage } from "./lifecycle-cell";
import { TextHitLine, TextSearchBox } from "./text-search";
import { cellClass, TableHead } from "./table-head";

const ROW = 30;
/** The header row's height, rounded up (a box of rows that fit is sized to them: `fits`). */
const HEAD = 40;
/** The hit line under each row while the text is searched (app/globals.css `.vhit`). */
const HIT_LINE = 24; // the line (23px) and the row's bottom border

/**
 * `rows`: the table's pages (components/run/use-row-pages, owned by the run overview, whose
 * progress line reads the same response); `state`: the index's state in that response.
 */
export function RolloutsTable({
  runId,
  health,
  rows,
  state,
}: {
  runId: string;
  health: RunHealth;
  rows: RowPages;
  state: IndexState | null;
}) {
  const [params, set] = useUrlState();
  const bucketLink = useBucketLink(runId);
  const query = queryFrom(params);
  const { page, error, bad, ensure, rowAt, hitAt } = rows;
  const total = page?.total ?? null,
    all = page?.all ?? null;
  const badKeys = new Set(bad.map((b) => b.key));
  const text = badKeys.has("text") ? "" : (params.get("text") ?? "");
  const textQuery = useMemo(() => parseTextQuery(text), [text]);
  const searching = textQuery !== null;
  const rowHeight = searching ? ROW + HIT_LINE : ROW;
  // Every row fits in the 62vh box: it is sized to them, with no empty box below. Decided against
  // the window, not the box, so shrinking it changes nothing; the rows in view stay the same
  // (they are all of them), so no request for their record fields is cut short and made again.
  const hydrated = useHydrated();
  const sorting: SortingState = [
    {
      id: (!badKeys.has("sort") && params.get("sort")) || "rollout_id",
      desc: params.get("dir") === "desc",
    },
  ];
  const recordFields = useRecordFields(runId);
  const known = new Set(recordFields?.map((f) => f.path));
  const picked = recordFields ? pickedFields(params) : [];
  const shownFields = picked.filter((p) => known.has(p));
  const fieldsKey = shownFields.join(",");
  const allColumns = useMemo(
    () => [...COLUMNS, ...(fieldsKey ? fieldsKey.split(",").map(recordColumn) : [])],
    [fieldsKey],
  );
  const hidden = new Set((params.get("hide") ?? "").split(",").filter(Boolean));
  const visibility: VisibilityState = Object.fromEntries(
    allColumns.map((c) => [c.id as string, !hidden.has(c.id as string)]),
  );
  const table = useReactTable<RolloutSummary>({
    data: useMemo(() => [], []),
    columns: allColumns,
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
      set({
        hide:
          Object.entries(next)
            .filter(([, v]) => !v)
            .map(([k]) => k)
            .join(",") || null,
      });
    },
    getCoreRowModel: getCoreRowModel(),
  });
  const columns = table.getVisibleLeafColumns();
  const width = columns.reduce((a, c) => a + (c.columnDef as Col).meta.width, 0);
  const scroller = useRef<HTMLDivElement>(null);
  const virt = useVirtualizer({
    count: total ?? 0,
    getScrollElement: () => scroller.current,
    estimateSize: () => rowHeight,
    // A new key function makes the virtualiser measure again when rows change height.
    getItemKey: useCallback((i: number) => (searching ? `hit:${i}` : i), [searching]),
    overscan: 15,
  });
  const items = virt.getVirtualItems();
  const firstRow = items[0]?.index ?? 0,
    lastRow = items[items.length - 1]?.index ?? 0;
  useEffect(() => {
    if (total) ensure(firstRow, lastRow + 1);
  }, [firstRow, lastRow, total, ensure]);
  const inView = items.flatMap((it) => rowAt(it.index)?.rollout_id ?? []);
  const values = useRecordValues(runId, shownFields, inView);
  const ctx: Ctx = { runId, params, values };
  // Remounting the filters on "clear" drops their typed-but-unsent text too.
  const [clears, setClears] = useState(0);
  const clearFilters = () => {
    set(Object.fromEntries(FILTER_KEYS.map((k) => [k, null])));
    setClears((n) => n + 1);
  };
  const exportHref = (format: string) =>
    withQuery(DOWNLOADS.export.path({ run: runId }), { format }, new URLSearchParams(query));

  if (params.get("group"))
    return (
      <section data-testid="rollouts-section">
        <GroupsView runId={runId} params={params} set={set} />
      </section>
    );
  return (
    <section data-testid="rollouts-section">
      <TextSearchBox
        key={`text-${clears}`}
        params={params}
        set={set}
        search={page?.text_search ?? null}
        indexTotal={state?.kind === "indexing" ? state.total : null}
      />
      <TableFilters
        key={clears}
        health={health}
        params={params}
        set={set}
        table={table}
        recordFields={recordFields ?? []}
      />
      <div className="table-meta">
        <span
          className="muted"
          data-testid="rollouts-count"
          data-matching={total ?? undefined}
          data-indexed={state && state.kind !== "counting" ? state.indexed : undefined}
          data-state={state?.kind}
        >
          {bad.length > 0
            ? "bad query"
            : error
              ? "could not load the rollouts"
              : total === null || state === null
                ? "loading…"
                : tableCountWords(total, state)}
        </span>
        <a href={exportHref("csv")} data-testid="export-csv" download>
          export CSV
        </a>
        <a href={exportHref("json")} data-testid="export-json" download>
          export JSON
        </a>
      </div>
      <ChartFilterNote link={bucketLink} />
      {bad.length > 0 && (
        <BadQuery bad={bad} drop={() => set(Object.fromEntries(bad.map((b) => [b.key, null])))} />
      )}
      {recordFields && picked.length > shownFields.length && (
        <BadFields
          bad={picked.filter((p) => !known.has(p))}
          allowed={recordFields.map((f) => f.path)}
          keep={(kept) => set({ fields: kept.join(",") || null })}
          picked={shownFields}
        />
      )}
      {error && bad.length === 0 && (
        <div className="error-box" role="alert" data-testid="rollouts-error">
          Could not load the rollouts: {error}
        </div>
      )}
      {total === 0 && (all ?? 0) > 0 && (
        <div className="card empty" data-testid="rollouts-none-match">
          {textQuery
            ? (page?.text_search.unavailable ??
              noTextMatchWords(
                textQuery,
                FILTER_KEYS.some((k) => k !== "text" && params.get(k)),
              ))
            : "No rollouts match these filters."}{" "}
          <button className="linkish" onClick={clearFilters} data-testid="clear-filters">
            Clear the filters
          </button>
        </div>
      )}
      {/* Divs, virtualised: ARIA roles make it a table; aria-rowindex counts the header as 1. */}
      <div
        className={`vtable ${fitsClass(hydrated, total, rowHeight)}`}
        ref={scroller}
        data-testid="rollouts-table"
        hidden={bad.length > 0 || Boolean(error)}
        role="table"
        aria-label="Rollouts"
        aria-rowcount={total === null ? -1 : total + 1}
      >
        <TableHead table={table} width={width} />
        <div style={{ height: virt.getTotalSize(), position: "relative", width }} role="rowgroup">
          {items.map((item) => {
            const s = rowAt(item.index);
            const cells = columns.map((c) => (
              <div
                key={c.id}
                className={cellClass(c.id)}
                data-col={c.id}
                style={{ width: (c.columnDef as Col).meta.width }}
                role="cell"
              >
                {s ? (c.columnDef as Col).meta.render(s, ctx) : <span className="muted">…</span>}
              </div>
            ));
            const hit = searching ? hitAt(item.index) : null;
            return (
              <div
                key={item.key}
                className={`vrow ${s?.severity === "masked" ? "masked" : ""} ${searching ? "with-hit" : ""}`}
                style={{
                  position: "absolute",
                  top: 0,
                  transform: `translateY(${item.start}px)`,
                  height: rowHeight,
                  width,
                }}
                data-testid="rollout-row"
                data-rollout-id={s?.rollout_id}
                role="row"
                aria-rowindex={item.index + 2}
              >
                {searching ? (
                  <>
                    <div className="vcells" style={{ height: ROW }} role="none">
                      {cells}
                    </div>
                    <TextHitLine
                      hit={hit}
                      href={
                        s && hit && hasInspectorPage(s)
                          ? textHitHref(runId, s.rollout_id, params, hit)
                          : null
                      }
                    />
                  </>
                ) : (
                  cells
                )}
              </div>
            );
          })}
        </div>
      </div>
    </section>
  );
}

/** "no-rows" for an empty table, "fits" when every row fits in the 62vh box (app/globals.css). */
function fitsClass(hydrated: boolean, total: number | null, rowHeight: number): string {
  if (total === 0) return "no-rows";
  if (!hydrated || total === null) return "";
  return HEAD + total * rowHeight + 4 <= window.innerHeight * 0.62 ? "fits" : "";
}
