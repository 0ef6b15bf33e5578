// Retry-sibling resolution (docs/builder.md §2, retries): calls with the same parent and the same
// prompt are one retry group; the extended members are kept, otherwise the smallest id is kept
// and the group is unresolved. Decisions apply in group order, as in the reference.
import { hashKey, type PromptScan } from "./prefix-index";
import type { BuilderOptions, CallNode, RetryGroup } from "./types";
import { compareCodePoints } from "./code-points";
import type { TokenIds } from "@/lib/schema";

export function resolveRetries(
  nodes: CallNode[],
  scans: readonly PromptScan[],
  rule: BuilderOptions["retryKeep"],
  quarantined: string[],
): { groups: RetryGroup[]; unresolvedRetries: string[] } {
  // Sibling groups by parent, in order of first appearance (roots form one group).
  const byParent = new Map<number, number[]>();
  for (const n of nodes) {
    const siblings = byParent.get(n.parent);
    if (siblings) siblings.push(n.index);
    else byParent.set(n.parent, [n.index]);
  }

  const groups: RetryGroup[] = [];
  const unresolvedRetries: string[] = [];
  for (const [parent, siblings] of byParent) {
    if (siblings.length < 2) continue;
    for (const members of samePromptGroups(nodes, scans, siblings)) {
      if (members.length < 2) continue;
      const group: RetryGroup = { parent, members, kept: [], unresolved: false };
      group.kept = members.filter((m) => isExtended(nodes, m, rule));
      if (group.kept.length === 0) {
        group.unresolved = true;
        group.kept = [smallestId(nodes, members)];
        for (const m of members) unresolvedRetries.push((nodes[m] as CallNode).entry.model_call_id);
      }
      const groupIndex = groups.length;
      for (const m of members) {
        const node = nodes[m] as CallNode;
        node.retryGroup = groupIndex;
        if (!group.kept.includes(m) && node.quarantine === null) {
          node.quarantine = "retry_dropped";
          quarantined.push(node.entry.model_call_id);
        }
      }
      groups.push(group);
    }
  }
  return { groups, unresolvedRetries };
}

function samePromptGroups(
  nodes: readonly CallNode[],
  scans: readonly PromptScan[],
  siblings: number[],
): number[][] {
  const groups: number[][] = [];
  const byHash = new Map<string, number[][]>();
  for (const s of siblings) {
    const prompt = (nodes[s] as CallNode).entry.prompt_token_ids;
    const scan = scans[s] as PromptScan;
    const key = hashKey(prompt.length, scan.h1, scan.h2);
    const candidates = byHash.get(key) ?? [];
    const same = candidates.find((g) =>
      samePrompt((nodes[g[0] as number] as CallNode).entry.prompt_token_ids, prompt),
    );
    if (same) {
      same.push(s);
      continue;
    }
    const group = [s];
    candidates.push(group);
    byHash.set(key, candidates);
    groups.push(group);
  }
  return groups;
}

function samePrompt(a: TokenIds, b: TokenIds): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function isExtended(
  nodes: readonly CallNode[],
  m: number,
  rule: BuilderOptions["retryKeep"],
): boolean {
  const children = (nodes[m] as CallNode).children;
  if (rule === "any_child") return children.length > 0;
  return children.some((c) => (nodes[c] as CallNode).quarantine === null);
}

function smallestId(nodes: readonly CallNode[], members: number[]): number {
  let best = members[0] as number;
  for (const m of members) {
    const id = (nodes[m] as CallNode).entry.model_call_id;
    if (compareCodePoints(id, (nodes[best] as CallNode).entry.model_call_id) < 0) best = m;
  }
  return best;
}
