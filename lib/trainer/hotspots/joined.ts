// Turns and MoE layers of the mismatch hotspots (docs/hotspots.md): what only the capture can say,
// tallied where a trained sample meets the main chain the truth check joined it to. A turn is the
// index of the main chain's call whose generation holds the position (the builder's flattening,
// docs/builder.md §3); a token's route is row `pos` of that call's routed experts (docs/experts.md).
// Pure; the truth check (../truth-check) feeds it while it joins, one rollout's routes at a time.
import type { Verdict } from "@/lib/builder";
import { chainSegments } from "@/lib/builder";
import { callRoutes, isFallbackRow, type Routes } from "@/lib/experts";
import { addOccurrence, mergeAccs, type Acc, type TallySample } from "./tally";

/** An MoE row's key: layer · MOE_KEY + expert (experts at or past it are left out). */
export const MOE_KEY = 1 << 16;
const REPLAYED = 0;
const FALLBACK = 1;

/** The main chain's calls: per generating call, [start, end) of its generation and its index. */
export interface ChainCalls {
  spans: Array<[start: number, end: number, call: number]>;
  /** Whether a call of the chain carries routed experts (then MoE rows need its routes). */
  routed: boolean;
}

export interface JoinedTally {
  turns: Map<number, Acc>;
  /** Trained tokens in no turn: no capture joined, past the first difference, or not generated. */
  turnUnknown: number;
  /** Replayed tokens by layer · MOE_KEY + expert. */
  moe: Map<number, Acc>;
  /** REPLAYED and FALLBACK tokens as two sets. */
  routedSplit: Map<number, Acc>;
  /** Trained tokens in a turn whose call carries no routes. */
  noRoute: number;
  layers: number;
  topk: number;
}

export function emptyJoined(): JoinedTally {
  const [turns, moe, routedSplit] = [new Map(), new Map(), new Map()];
  return { turns, turnUnknown: 0, moe, routedSplit, noRoute: 0, layers: 0, topk: 0 };
}

export const replayedOf = (t: JoinedTally) => t.routedSplit.get(REPLAYED) ?? null;
export const fallbackOf = (t: JoinedTally) => t.routedSplit.get(FALLBACK) ?? null;

/** The main chain's generating calls in a verdict, or null when it has no main chain. */
export function chainCallsOf(v: Verdict): ChainCalls | null {
  const build = v.build;
  const chain = build && v.error === null ? build.chains[build.mainIndex] : undefined;
  if (!build || !chain) return null;
  const index = new Map(chain.nodes.map((n, k) => [n, k]));
  const spans: ChainCalls["spans"] = [];
  for (const s of chainSegments(build.nodes, chain).segments)
    if (s.kind === "generated") spans.push([s.start, s.start + s.to - s.from, index.get(s.node)!]);
  const routed = chain.nodes.some((n) => build.nodes[n]?.entry.routed_experts != null);
  return { spans, routed };
}

/** Each call of the verdict's main chain with its routes (null where it has none). */
export function chainRoutesOf(v: Verdict): Array<Routes | null> {
  const build = v.build;
  const chain = build && v.error === null ? build.chains[build.mainIndex] : undefined;
  if (!build || !chain) return [];
  return chain.nodes.map((n) => {
    const e = build.nodes[n]?.entry;
    if (!e) return null;
    return callRoutes(e.routed_experts, e.prompt_token_ids.length, e.generation_token_ids.length);
  });
}

export interface JoinedSample {
  sample: TallySample;
  /** ../mismatch tokenErrors of the sample. */
  errors: Float64Array;
  /** Positions below this hold the chain's own tokens (0: no capture joined). */
  limit: number;
  calls: ChainCalls | null;
  /** Per call index of the chain, its routes; empty when none is read. */
  routes: ReadonlyArray<Routes | null>;
}

function addRoute(t: JoinedTally, r: Routes, p: number, e: number, s: TallySample): void {
  if (isFallbackRow(r, p)) return void addOccurrence(t.routedSplit, FALLBACK, e, s, p);
  addOccurrence(t.routedSplit, REPLAYED, e, s, p);
  t.layers = Math.max(t.layers, r.layers);
  t.topk = Math.max(t.topk, r.topk);
  let i = p * r.layers * r.topk;
  for (let l = 0; l < r.layers; l++) {
    for (let k = 0; k < r.topk; k++, i++) {
      const x = r.data[i] as number;
      if (x >= 0 && x < MOE_KEY) addOccurrence(t.moe, l * MOE_KEY + x, e, s, p);
    }
  }
}

/** Adds one sample's trained tokens (position 0 and non-finite errors left out, as ./tally). */
export function addJoined(t: JoinedTally, j: JoinedSample): void {
  const { sample: s, errors } = j;
  const mask = s.tokenLossMask;
  if (!mask) return;
  const sampleMask = s.sampleLossMask ?? 1;
  const spans = j.calls?.spans ?? [];
  let k = 0;
  for (let p = 1; p < errors.length; p++) {
    if ((mask[p] as number) * sampleMask === 0) continue;
    const e = errors[p] as number;
    if (!Number.isFinite(e)) continue;
    while (k < spans.length && (spans[k] as ChainCalls["spans"][number])[1] <= p) k++;
    const span = spans[k];
    if (p >= j.limit || !span || p < span[0]) {
      t.turnUnknown++;
      continue;
    }
    addOccurrence(t.turns, span[2], e, s, p);
    const routes = j.routes[span[2]] ?? null;
    if (routes) addRoute(t, routes, p, e, s);
    else t.noRoute++;
  }
}

export function mergeJoined(parts: readonly JoinedTally[]): JoinedTally {
  const out = emptyJoined();
  for (const p of parts) {
    mergeAccs(out.turns, p.turns);
    mergeAccs(out.moe, p.moe);
    mergeAccs(out.routedSplit, p.routedSplit);
    out.turnUnknown += p.turnUnknown;
    out.noRoute += p.noRoute;
    out.layers = Math.max(out.layers, p.layers);
    out.topk = Math.max(out.topk, p.topk);
  }
  return out;
}
