// Chain materialisation and main-chain selection (docs/builder.md §2).
// Both walks are iterative: rollouts can be thousands of calls deep.
import type { BuilderOptions, CallNode, Chain } from "./types";
import { compareCodePoints } from "./code-points";

export function walkChains(nodes: readonly CallNode[], walk: BuilderOptions["walk"]): Chain[] {
  const paths = walk === "depth_first" ? depthFirstPaths(nodes) : leafPaths(nodes);
  return paths.map((path) => {
    let generated = 0;
    for (const i of path) generated += (nodes[i] as CallNode).entry.generation_token_ids.length;
    return { chain_id: "", nodes: path, generated };
  });
}

/** Seed: depth-first from each root in processing order, children in attachment order. */
function depthFirstPaths(nodes: readonly CallNode[]): number[][] {
  const paths: number[][] = [];
  const path: number[] = [];
  const quarantinedOnPath: number[] = [];
  const stack: Array<[node: number, depth: number]> = [];
  for (let r = nodes.length - 1; r >= 0; r--)
    if ((nodes[r] as CallNode).parent < 0) stack.push([r, 0]);
  while (stack.length > 0) {
    const [i, depth] = stack.pop() as [number, number];
    const node = nodes[i] as CallNode;
    path.length = depth;
    quarantinedOnPath.length = depth;
    const above = depth > 0 ? (quarantinedOnPath[depth - 1] as number) : 0;
    path.push(i);
    quarantinedOnPath.push(above + (node.quarantine ? 1 : 0));
    if (node.children.length === 0) {
      if (quarantinedOnPath[depth] === 0) paths.push([...path]);
      continue;
    }
    for (let c = node.children.length - 1; c >= 0; c--)
      stack.push([node.children[c] as number, depth + 1]);
  }
  return paths;
}

/** gym-v1: one path per leaf in processing order, walked up to its root. */
function leafPaths(nodes: readonly CallNode[]): number[][] {
  const paths: number[][] = [];
  for (const leaf of nodes) {
    if (leaf.children.length > 0) continue;
    const path: number[] = [];
    let clean = true;
    for (let i = leaf.index; i >= 0; i = (nodes[i] as CallNode).parent) {
      if ((nodes[i] as CallNode).quarantine) {
        clean = false;
        break;
      }
      path.push(i);
    }
    if (clean) paths.push(path.reverse());
  }
  return paths;
}

/** Names the chains (main, branch-0, ...) in place and returns main's index, -1 if none. */
export function selectMain(
  nodes: readonly CallNode[],
  chains: Chain[],
  rule: BuilderOptions["mainRule"],
): number {
  let best = -1;
  for (let c = 0; c < chains.length; c++) {
    if (best < 0 || beats(nodes, chains[c] as Chain, chains[best] as Chain, rule)) best = c;
  }
  let branch = 0;
  chains.forEach((chain, c) => {
    chain.chain_id = c === best ? "main" : `branch-${branch++}`;
  });
  return best;
}

function beats(
  nodes: readonly CallNode[],
  a: Chain,
  b: Chain,
  rule: BuilderOptions["mainRule"],
): boolean {
  const rootA = (nodes[a.nodes[0] as number] as CallNode).entry;
  const rootB = (nodes[b.nodes[0] as number] as CallNode).entry;
  if (rule === "generated_mass") {
    // Greatest (generated, root prompt length, first call id); a full tie keeps the earlier chain.
    if (a.generated !== b.generated) return a.generated > b.generated;
    if (rootA.prompt_token_ids.length !== rootB.prompt_token_ids.length) {
      return rootA.prompt_token_ids.length > rootB.prompt_token_ids.length;
    }
    return compareCodePoints(rootA.model_call_id, rootB.model_call_id) > 0;
  }
  // Least (root created_at, root call id).
  if (rootA.created_at !== rootB.created_at) return rootA.created_at < rootB.created_at;
  return compareCodePoints(rootA.model_call_id, rootB.model_call_id) < 0;
}
