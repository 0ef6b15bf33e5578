"use client";
// How the token view draws one item of its line model: a segment header worded by the sequence's
// training (lib/view/sequence-training: trained, or not and why), a placeholder for a window still
// loading, or a line of tokens coloured by the token palette (or, with `mismatchAt`, trained
// tokens by their train/inference mismatch), the current find match marked. The list, its
// virtualisation and the selection belong to token-view.tsx.
import { memo } from "react";
import type { TokenSegment } from "@/lib/schema";
import {
  mismatchShade,
  NO_MISMATCH,
  type SequenceTraining,
  CHROME,
  tokenSwatch,
  type Swatch,
  headOfText,
  segmentLabel,
  tailOfText,
  visibleText,
  type TokenItem,
  type TokenLine,
} from "@/lib/view";
import type { TokenAt } from "./use-token-windows";
import { fmtInt, short } from "./labels";
import styles from "./token-view.module.css";

export interface ItemProps {
  item: TokenItem;
  segment: TokenSegment;
  /** Whether this sequence's generated tokens are trained on: headers and colours follow it. */
  training: SequenceTraining;
  tokenAt: (p: number) => TokenAt | null;
  selected: number | null;
  /** The current find match's tokens, when they reach this item. */
  found: { start: number; end: number } | null;
  threshold: number | null;
  /** exp(|gen − prev|) at a position (null: the trainer has no value there); null when off. */
  mismatchAt: ((pos: number) => number | null) | null;
  height: number;
}

// Memoised: hovering re-renders the view, but only the lines whose selection changed re-render.
export const TokenItemView = memo(function Item({
  item,
  segment,
  training,
  tokenAt,
  selected,
  found,
  threshold,
  mismatchAt,
  height,
}: ItemProps) {
  if (item.kind === "header") {
    const gen = segment.kind === "generated";
    const color = !gen
      ? CHROME.muted
      : training.trained
        ? CHROME.generated
        : training.notTrained
          ? CHROME.notTrained
          : CHROME.text;
    return (
      <div
        className={styles.header}
        style={{ color }}
        data-testid="segment-header"
        data-call-id={segment.call}
        data-trained={gen ? String(training.trained) : undefined}
      >
        call <span className="mono">{short(segment.call)}</span> ·{" "}
        {segmentLabel(segment.kind, training)} · {fmtInt(segment.length)} tokens from{" "}
        {fmtInt(segment.start)}
      </div>
    );
  }
  if (item.kind === "placeholder") {
    return (
      <div
        className={styles.placeholder}
        style={{ height, color: CHROME.muted }}
        data-testid="token-placeholder"
      >
        tokens {fmtInt(item.start)}–{fmtInt(item.end - 1)} · loading…
      </div>
    );
  }
  return (
    <Line
      line={item}
      tokenAt={tokenAt}
      selected={selected}
      found={found}
      threshold={threshold}
      mismatchAt={mismatchAt}
      notTrained={training.notTrained}
    />
  );
});

type TokenProps = Pick<ItemProps, "selected" | "found" | "threshold" | "mismatchAt"> & {
  notTrained: boolean;
};

function Line({
  line,
  tokenAt,
  ...shown
}: { line: TokenLine; tokenAt: ItemProps["tokenAt"] } & TokenProps) {
  const cells = [];
  const lead = line.lead ? tokenAt(line.start - 1) : null;
  if (lead?.text)
    cells.push(<Token key="lead" t={lead} text={tailOfText(lead.text)} lead {...shown} />);
  for (let p = line.start; p < line.end; p++) {
    const t = tokenAt(p);
    if (!t) continue; // lines only cover loaded windows
    const text =
      t.text === null ? String(t.id) : line.cut && p === line.end - 1 ? headOfText(t.text) : t.text;
    cells.push(<Token key={p} t={t} text={text} lead={false} {...shown} />);
  }
  return (
    <div
      className={styles.line}
      data-testid="token-line"
      data-start={line.start}
      data-end={line.end}
    >
      <span
        className={styles.gutter}
        style={{ color: CHROME.gutter }}
        title={line.wrapped ? "continues the line above (long lines are split)" : undefined}
      >
        {line.wrapped ? "↪" : fmtInt(line.start)}
      </span>
      <span className={styles.text}>{cells}</span>
    </div>
  );
}

function Token({
  t,
  text,
  lead,
  selected,
  found,
  threshold,
  mismatchAt,
  notTrained,
}: { t: TokenAt; text: string; lead: boolean } & TokenProps) {
  const match = threshold !== null && t.mask === 1 && t.logProb !== null && t.logProb < threshold;
  const error = mismatchAt ? mismatchAt(t.pos) : null;
  const sw = mismatchAt
    ? mismatchSwatch(t.mask, error)
    : tokenSwatch(t.mask, t.logProb, threshold !== null && !match, notTrained);
  const sel = selected === t.pos;
  const hit = found !== null && t.pos >= found.start && t.pos < found.end;
  const cls = [
    styles.token,
    lead ? "" : "tok",
    sel ? `sel ${styles.selected}` : "",
    match ? styles.low : "",
    hit ? styles.found : "",
    notTrained && t.mask === 1 ? styles.untrained : "",
    t.piece === "special"
      ? styles.special
      : t.piece === "bytes" || t.piece === "unknown" || t.piece === "outside"
        ? styles.raw
        : "",
  ];
  return (
    <span
      className={cls.filter(Boolean).join(" ")}
      style={{ backgroundColor: sw.bg, color: sw.fg }}
      {...(lead
        ? { "data-lead-pos": t.pos }
        : {
            "data-pos": t.pos,
            "data-mask": t.mask,
            ...(hit ? { "data-found": "" } : {}),
            ...(t.mask === 1 && notTrained ? { "data-not-trained": "" } : {}),
          })}
      {...(error !== null && !lead ? { "data-mismatch": error.toFixed(4) } : {})}
    >
      {visibleText(text)}
    </span>
  );
}

/** A token the trainer trained has its mismatch's colour; generated ones it has no value for are grey. */
function mismatchSwatch(mask: number, error: number | null): Swatch {
  if (error !== null) return mismatchShade(error);
  return mask === 1 ? NO_MISMATCH : tokenSwatch(0, null, false);
}
