"use client";
// A GRPO group's "diff" cell: pick two of its members (first offered: the highest and the lowest
// advantage, where the group's rewards disagree) and open the diff page on them.
import Link from "next/link";
import { useState } from "react";
import type { AdvantageRule, RolloutGroup } from "@/lib/schema";
import { diffHref } from "@/lib/view";

function defaultPair(g: RolloutGroup): [string, string] {
  const ids = g.members.map((m) => m.rollout_id);
  const ranked = g.members
    .filter((m) => m.advantage !== null)
    .sort((x, y) => (y.advantage as number) - (x.advantage as number));
  const [hi, lo] = [ranked[0], ranked[ranked.length - 1]];
  if (hi && lo && hi.advantage !== lo.advantage) return [hi.rollout_id, lo.rollout_id];
  return [ids[0] ?? "", ids[1] ?? ids[0] ?? ""];
}

export function GroupDiff({
  runId,
  g,
  rule,
}: {
  runId: string;
  g: RolloutGroup;
  /** The groups view's advantage rule: the diff page computes its advantages with it too. */
  rule: AdvantageRule;
}) {
  const [pair, setPair] = useState(() => defaultPair(g));
  if (g.members.length < 2) return <span className="muted">—</span>;
  const pick = (k: 0 | 1, label: string) => (
    <select
      aria-label={`${label} of the diff`}
      value={pair[k]}
      onChange={(e) => setPair((p) => (k === 0 ? [e.target.value, p[1]] : [p[0], e.target.value]))}
      data-testid={`group-diff-${label}`}
    >
      {g.members.map((m) => (
        <option key={m.rollout_id} value={m.rollout_id}>
          {m.rollout_id}
        </option>
      ))}
    </select>
  );
  return (
    <span style={{ whiteSpace: "nowrap" }}>
      {pick(0, "a")} {pick(1, "b")}{" "}
      <Link
        href={diffHref(
          { run: runId, rollout: pair[0] },
          { run: runId, rollout: pair[1] },
          { rule },
        )}
        data-testid="group-diff-link"
      >
        diff
      </Link>
    </span>
  );
}
