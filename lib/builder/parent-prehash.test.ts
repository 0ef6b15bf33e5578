// The prehash computes exactly the digests verification asks for (a child's prompt prefix of its
// parent's cumulative length), only for a rollout long enough to be worth it; checked against the
// digest written out with BigInt, and by changing the arrays after the prehash: an answer known
// ahead does not change, one computed at verification does.
import { describe, expect, it } from "vitest";
import { digestByTheFormat } from "@/lib/testing/digest-format";
import type { TokenEntry } from "@/lib/schema";
import { entry } from "@/lib/testing/snapshot";
import { tokenDigest } from "./digest";
import { ParentPrehash } from "./parent-prehash";

/** A chain of `calls` calls, each prompt the previous prompt + generation + `turn` new tokens. */
function chain(calls: number, turn: number, gen: number): TokenEntry[] {
  const out: TokenEntry[] = [];
  let prompt = Array.from({ length: turn }, (_, i) => i + 1);
  for (let k = 0; k < calls; k++) {
    const generation = Array.from({ length: gen }, (_, i) => 1000 + k * gen + i);
    const prev = out[k - 1];
    out.push(
      entry({
        model_call_id: `c${k}`,
        parent_call_id: prev ? prev.model_call_id : null,
        prompt_token_ids: prompt,
        generation_token_ids: generation,
        digest: digestByTheFormat([...prompt, ...generation]),
      }),
    );
    prompt = [...prompt, ...generation, ...Array.from({ length: turn }, (_, i) => 50_000 + i)];
  }
  return out;
}

/** The digest verification asks each child for, as the format gives it, before any change. */
function asked(entries: TokenEntry[]): Array<{ tokens: number[]; length: number; hex: string }> {
  return entries.slice(1).map((child, k) => {
    const p = entries[k]!;
    const length = p.prompt_token_ids.length + p.generation_token_ids.length;
    const tokens = child.prompt_token_ids as number[];
    return { tokens, length, hex: digestByTheFormat(tokens.slice(0, length)) };
  });
}

describe("ParentPrehash", () => {
  it("knows every parent digest of a long chain ahead, each equal to the format's", async () => {
    const entries = chain(50, 600, 400); // 1.2M tokens to hash: past the start threshold
    const want = asked(entries);
    expect(want.reduce((n, w) => n + w.length, 0)).toBeGreaterThan(1 << 20);
    const prehash = new ParentPrehash();
    for (const e of entries) prehash.add(e);
    await prehash.done();
    for (const w of want) w.tokens[0] = 999_999; // answers known ahead do not see this
    expect(want.map((w) => tokenDigest(w.tokens, 0, w.length))).toEqual(want.map((w) => w.hex));
    // The parents' recorded digests verify as the builder checks them.
    expect(want.map((w, k) => w.hex === entries[k]!.digest)).toEqual(want.map(() => true));
  });

  it("starts nothing for a short rollout: verification hashes it, from the arrays as they are", async () => {
    const entries = chain(5, 20, 10);
    const want = asked(entries);
    const prehash = new ParentPrehash();
    for (const e of entries) prehash.add(e);
    await prehash.done();
    for (const w of want) w.tokens[0] = 999_999;
    const now = want.map((w) => digestByTheFormat(w.tokens.slice(0, w.length)));
    expect(want.map((w) => tokenDigest(w.tokens, 0, w.length))).toEqual(now);
  });
});
