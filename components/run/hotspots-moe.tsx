// The hotspots' MoE table (./hotspots, docs/hotspots.md): mismatch by layer × expert over replayed
// routes, with the replayed and fallback tokens set side by side, each worst occurrence linked to
// the inspector at that token with mismatch colouring and the routed experts panel on.
import type { HotspotStat, TrainerHotspots } from "@/lib/schema";
import { HotspotTable, n, pct, WorstLink } from "./hotspots-table";

function Split({ runId, what, s }: { runId: string; what: string; s: HotspotStat | null }) {
  if (!s) return <li>{what}: none</li>;
  return (
    <li data-testid={`hotspots-moe-${what.split(" ")[0]}`}>
      {what}: {n(s.count)} tokens, mean {s.mean.toFixed(4)}, tail {pct(s.tail_share)}, worst{" "}
      <WorstLink runId={runId} s={s} experts />
    </li>
  );
}

export function MoeLayers({ runId, h }: { runId: string; h: TrainerHotspots }) {
  const moe = h.moe_layers;
  if (!moe)
    return (
      <p className="muted small" data-testid="hotspots-moe-none">
        MoE layers: none here; no trained token&apos;s call carries routed experts.
      </p>
    );
  return (
    <div className="hotspot-moe" data-testid="hotspots-moe">
      <h3>
        MoE layers ({moe.layers} layers, top-{moe.topk} experts)
      </h3>
      <ul>
        <Split runId={runId} what="replayed routes" s={moe.replayed} />
        <Split
          runId={runId}
          what="fallback routes (the trainer routed them itself)"
          s={moe.fallback}
        />
        <li>
          no route: {n(moe.no_route)} trained tokens (no capture joined, past a difference, or a
          call without routes)
        </li>
      </ul>
      <HotspotTable
        runId={runId}
        testId="hotspots-moe-rows"
        title="Layer × expert (replayed)"
        head="layer · expert"
        rows={moe.rows}
        distinct={moe.distinct}
        minCount={moe.min_count}
        label={(r) => `layer ${r.layer ?? "?"} · expert ${r.expert ?? "?"}`}
        experts
      />
    </div>
  );
}
