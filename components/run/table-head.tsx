"use client";
// The rollouts table's header row: one column header per shown column, each one button, so a
// click anywhere in it sorts; aria-sort says the order. Row 1 of the table (ARIA), as the table is
// divs (./rollouts-table).
import type { Table } from "@tanstack/react-table";
import type { RolloutSummary } from "@/lib/schema";
import type { Col } from "./rollout-columns";

/** The column that stays in view when the table scrolls sideways (app/globals.css `.vsticky`). */
const STICKY = "rollout_id";

export const cellClass = (col: string, extra = "") =>
  ["vcell", col === STICKY ? "vsticky" : "", extra].filter(Boolean).join(" ");

export function TableHead({ table, width }: { table: Table<RolloutSummary>; width: number }) {
  return (
    <div className="vrow vhead" style={{ width }} role="row" aria-rowindex={1}>
      {table.getHeaderGroups()[0]!.headers.map((h) => {
        const sorted = h.column.getIsSorted();
        return (
          <div
            key={h.id}
            className={cellClass(h.id, h.column.getCanSort() ? "vsortable" : "")}
            style={{ width: (h.column.columnDef as Col).meta.width }}
            role="columnheader"
            aria-sort={sorted ? (sorted === "desc" ? "descending" : "ascending") : "none"}
          >
            {h.column.getCanSort() ? (
              <button
                className="linkish sort"
                onClick={h.column.getToggleSortingHandler()}
                data-testid={`sort-${h.id}`}
              >
                {String(h.column.columnDef.header)}{" "}
                {sorted === "asc" ? "▲" : sorted === "desc" ? "▼" : ""}
              </button>
            ) : (
              String(h.column.columnDef.header)
            )}
          </div>
        );
      })}
    </div>
  );
}
