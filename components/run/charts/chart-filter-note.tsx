"use client";
// A line above the charts while the table lists one chart bucket by a filter the table's toolbar
// has no control for (`calls=7`, `delivered=0.9`): what it lists, and the way back to every rollout.
import { useSearchParams } from "next/navigation";
import type { BucketLink } from "./use-bucket-link";

/** The bucket filters (lib/index/query BUCKET_FILTERS) in words. */
const BUCKET_WORDS: Record<string, string> = {
  mask_reason: "mask reason",
  delivered: "delivered fraction from",
  calls: "calls per rollout",
  chains: "chains per rollout",
  roots: "roots per rollout",
  side_call: "side calls found by",
  fallback: "parent-link fallback",
  error_category: "model-call error category",
  ledger: "generated tokens", // the signal ledger (docs/ledger.md): ./ledgerWords
};

/** A ledger stage's filter in words: where the rollouts' generated tokens went. */
function ledgerWords(v: string): string {
  // The trainer's stages have no filter of their own: their rollouts are the delivered ones.
  if (v === "delivered")
    return "generated tokens delivered on their main chain (which of them the trainer kept in its loss mask or gradient is not something the table filters by)";
  return `generated tokens lost to ${v.replace(/_/g, " ")}`;
}

export function ChartFilterNote({ link }: { link: BucketLink }) {
  const params = useSearchParams();
  const applied = Object.entries(BUCKET_WORDS).flatMap(([key, words]) => {
    const v = params.get(key);
    if (v && key === "ledger") return [ledgerWords(v)];
    return v ? [`${words} ${v.replace(/_/g, " ")}`] : [];
  });
  if (applied.length === 0) return null;
  return (
    <p className="muted small" data-testid="chart-filter">
      The rollouts table lists only the rollouts with {applied.join(" and ")}.{" "}
      <a
        href={link.href("")}
        onClick={(e) => {
          e.preventDefault();
          link.open("");
        }}
        data-testid="chart-filter-clear"
      >
        Show every rollout
      </a>
    </p>
  );
}
