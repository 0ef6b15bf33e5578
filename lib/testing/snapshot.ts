// Typed test builders: token entries (parsed with the real schema) and capture snapshots without a
// store on disk, and chains in the golden vectors' shape for comparing builds.
import { tokenEntrySchema, type TokenEntry, type TokenEntryInput } from "@/lib/schema";
import { type CaptureSnapshot, chainSegments, type Build } from "@/lib/builder";

export function entry(
  fields: Partial<TokenEntryInput> &
    Pick<TokenEntryInput, "model_call_id" | "prompt_token_ids" | "generation_token_ids">,
): TokenEntry {
  return tokenEntrySchema.parse({
    rollout_id: "t0-r0",
    model: "m",
    generation_log_probs: fields.generation_token_ids.map(() => -0.1),
    created_at: 0,
    ...fields,
  });
}

export function parseEntries(raw: readonly unknown[]): TokenEntry[] {
  return raw.map((r) => tokenEntrySchema.parse(r));
}

export function snapshotOf(
  entries: TokenEntry[],
  overrides: Partial<CaptureSnapshot> = {},
): CaptureSnapshot {
  return {
    rollout_id: entries[0]?.rollout_id ?? "t0-r0",
    entries,
    incompleteMarker: null,
    stateIncomplete: false,
    danglingIntents: [],
    retired: false,
    readError: null,
    logProbMismatches: [],
    conflictingPayloads: [],
    tornTail: false,
    ...overrides,
  };
}

/** Chains in the golden-vector shape: ids with each link's interstitial tokens. */
export function describeChains(build: Build) {
  return build.chains.map((chain) => {
    const { segments } = chainSegments(build.nodes, chain);
    return {
      chain_id: chain.chain_id,
      links: chain.nodes.map((i, k) => {
        const e = build.nodes[i]!.entry;
        const inter =
          k === 0 ? undefined : segments.find((s) => s.node === i && s.kind === "interstitial");
        return {
          model_call_id: e.model_call_id,
          interstitial: inter ? e.prompt_token_ids.slice(inter.from, inter.to) : [],
        };
      }),
    };
  });
}
