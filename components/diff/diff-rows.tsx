"use client";
// The two chains' messages aligned, one row per step (runs of equal messages folded into one),
// virtualised so a long pair renders only what is on screen; a changed row opens its token diff
// (the URL's `message`, so an open diff can be linked). The row holding the first divergence is
// marked. Rows come from the page; the token diff is fetched by ./token-diff.
import { useVirtualizer } from "@tanstack/react-virtual";
import { useRef } from "react";
import type { DiffMessage, DiffRow, RolloutDiff } from "@/lib/schema";
import { plural } from "@/lib/text";
import { useUrlState } from "@/components/shared/url-state";
import { TokenDiff } from "./token-diff";
import styles from "./diff.module.css";

const KIND_WORDS = { same: "same", changed: "changed", only_a: "only in a", only_b: "only in b" };
const KIND_CLASS = {
  same: "muted",
  changed: "badge warn",
  only_a: "badge bad",
  only_b: "badge ok",
};

function Message({ m }: { m: DiffMessage | null }) {
  if (!m) return <span className="muted">—</span>;
  return (
    <span className={styles.preview} title={`${m.role}, tokens ${m.start}–${m.end}`}>
      <strong>{m.role}</strong> {m.preview}
    </span>
  );
}

function RowHead({ r, open, toggle }: { r: DiffRow; open: boolean; toggle: () => void }) {
  return (
    <div className={styles.rowHead}>
      <span>
        <span className={KIND_CLASS[r.kind]}>
          {r.kind === "same" && r.count > 1
            ? `${plural(r.count, "message")} the same`
            : KIND_WORDS[r.kind]}
        </span>
        {r.kind === "changed" && (
          <>
            {" "}
            <button className="linkish" onClick={toggle} data-testid="diff-open-tokens">
              {open ? "close" : "tokens"}
            </button>
          </>
        )}
      </span>
      <Message m={r.a} />
      <Message m={r.b} />
    </div>
  );
}

export function DiffRows({ d, ask }: { d: RolloutDiff; ask: Record<string, string> }) {
  const [params, set] = useUrlState();
  const message = params.get("message");
  const openRow = message !== null && /^\d+$/.test(message) ? Number(message) : null;
  const scroller = useRef<HTMLDivElement>(null);
  const virt = useVirtualizer({
    count: d.rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 40,
    overscan: 8,
  });
  const c = d.counts;
  return (
    <section data-testid="diff-rows-section">
      <h2>Messages</h2>
      <p className="muted small" data-testid="diff-counts">
        {c.same} same · {c.changed} changed · {c.only_a} only in a · {c.only_b} only in b
        {!d.aligned && " (too many differences to align: messages paired by position)"}
        {d.rows.length < d.rows_total && ` · rows 1–${d.rows.length} of ${d.rows_total}`}
      </p>
      <div className={styles.scroll} ref={scroller} data-testid="diff-rows">
        <div style={{ height: virt.getTotalSize(), position: "relative" }}>
          {virt.getVirtualItems().map((v) => {
            const r = d.rows[v.index] as DiffRow;
            const open = openRow === r.index && r.kind === "changed";
            const diverges = d.first_divergence?.row === r.index;
            return (
              <div
                key={v.key}
                data-index={v.index}
                ref={virt.measureElement}
                className={`${styles.row} ${diverges ? styles.diverges : ""}`}
                style={{ transform: `translateY(${v.start}px)` }}
                data-testid="diff-row"
                data-kind={r.kind}
                data-row={r.index}
                data-diverges={diverges ? "1" : "0"}
              >
                <RowHead
                  r={r}
                  open={open}
                  toggle={() => set({ message: open ? null : String(r.index) })}
                />
                {open && <TokenDiff ask={ask} row={r.index} />}
              </div>
            );
          })}
        </div>
      </div>
    </section>
  );
}
