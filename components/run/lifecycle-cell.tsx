// The rollouts table's Lifecycle cell: what the token store's lifecycle files say (frozen or open,
// a retired tombstone and what it recorded, deleted with only its lock file left) and the other
// attempts of the same rollout, each a link to its inspector page (a deleted one has none).
import Link from "next/link";
import type { LifecycleState, RolloutSummary } from "@/lib/schema";
import { inspectorHref } from "@/lib/view";

const BADGE: Record<Exclude<LifecycleState, "none">, { className: string; label: string }> = {
  // Neither is a verdict: no green, so a frozen rollout that is masked never looks trained.
  open: { className: "badge muted", label: "open" },
  frozen: { className: "badge", label: "frozen" },
  retired: { className: "badge warn", label: "retired" },
  deleted: { className: "badge bad", label: "deleted" },
  unreadable: { className: "badge bad", label: "state unreadable" },
};

/** The badge's tooltip: the tombstone's record beside the consumer's answer, the snapshot version. */
function lifecycleTitle(s: RolloutSummary): string {
  const lc = s.lifecycle;
  const t = lc.tombstone;
  if (lc.state === "deleted") return "deleted from the store: only its lock file is left";
  if (t) {
    const at = `${t.frozen ? "frozen at" : "at"} snapshot ${t.snapshot_id || "?"}, version ${t.version ?? "?"}`;
    const answer = s.error ? `; the consumer answers ${s.error}` : "";
    return `retired tombstone: delivered ${at}, then its token files were deleted${answer}`;
  }
  if (lc.state === "unreadable") return "Gym's freeze cannot read this rollout's state.json";
  const version = lc.snapshot_version === null ? "" : `, snapshot version ${lc.snapshot_version}`;
  return `${lc.state === "frozen" ? "frozen" : "not frozen yet"}${version}`;
}

/** Whether the rollout has an inspector page: a deleted one with nothing left to read has none. */
export function hasInspectorPage(s: Pick<RolloutSummary, "mask_reasons">): boolean {
  return !s.mask_reasons.includes("deleted");
}

export function LifecycleCell({
  s,
  runId,
  params,
}: {
  s: RolloutSummary;
  runId: string;
  params: URLSearchParams;
}) {
  const lc = s.lifecycle;
  const badge = lc.state === "none" ? null : BADGE[lc.state];
  const others = lc.attempts.filter((a) => a.rollout_id !== s.rollout_id);
  return (
    <span className="cell-text" data-testid="rollout-lifecycle" data-state={lc.state}>
      {badge ? (
        <span className={badge.className} title={lifecycleTitle(s)}>
          {badge.label}
        </span>
      ) : (
        <span className="muted" title="no state.json: the store keeps no lifecycle for it">
          —
        </span>
      )}
      {others.length > 0 && (
        <span className="small" data-testid="rollout-attempts">
          {" attempts: "}
          {others.map((a, i) => (
            <span key={a.rollout_id}>
              {i > 0 && " "}
              {a.deleted ? (
                <s className="mono muted" title="deleted: only its lock file is left">
                  {a.rollout_id}
                </s>
              ) : (
                <Link
                  href={inspectorHref(runId, a.rollout_id, params)}
                  className="mono"
                  data-testid="rollout-attempt"
                >
                  {a.rollout_id}
                </Link>
              )}
            </span>
          ))}
        </span>
      )}
    </span>
  );
}
