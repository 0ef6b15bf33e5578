// Longest-cumulative-prefix lookup for prefix_merging, linear in the tokens it reads.
// Instead of a token trie it keeps rolling hashes of every inserted cumulative sequence, keyed by
// length, and verifies hash hits token by token, so a collision costs time, never correctness.
import type { TokenIds } from "@/lib/schema";

/** A cumulative sequence `prompt ++ generation`, read without concatenating the two arrays. */
export interface CumulativeSeq {
  prompt: TokenIds;
  generation: TokenIds;
}

export interface PromptScan {
  /** Ids of inserted sequences equal to the longest matching prefix (insertion order). Empty: none. */
  matches: number[];
  /** Hash of the whole prompt, reused to group identical prompts and to extend to the cumulative hash. */
  h1: number;
  h2: number;
}

const SEED1 = 0x811c9dc5 | 0;
const SEED2 = 0x2545f491 | 0;

function step1(h: number, t: number): number {
  return Math.imul(h ^ t, 16777619);
}
function step2(h: number, t: number): number {
  return (Math.imul(h, 0x5bd1e995) + t + 0x9e3779b9) | 0;
}

export function hashKey(length: number, h1: number, h2: number): string {
  return `${length}:${h1}:${h2}`;
}

/** True when `seq` (its first `length` tokens) equals `tokens[0:length]`. */
export function cumulativeEquals(seq: CumulativeSeq, tokens: TokenIds, length: number): boolean {
  const p = seq.prompt;
  const g = seq.generation;
  if (p.length + g.length !== length || tokens.length < length) return false;
  for (let i = 0; i < p.length; i++) if (p[i] !== tokens[i]) return false;
  const off = p.length;
  for (let i = 0; i < g.length; i++) if (g[i] !== tokens[off + i]) return false;
  return true;
}

export class PrefixIndex {
  private readonly seqs: CumulativeSeq[] = [];
  /** Distinct inserted lengths, ascending. */
  private readonly lengths: number[] = [];
  private readonly buckets = new Map<string, number[]>();
  private readonly hitLen: number[] = [];
  private readonly hitH1: number[] = [];
  private readonly hitH2: number[] = [];

  /**
   * Hash `prompt`; when `findMatches`, also find the inserted sequences that are its longest prefix.
   * Equality counts: a sequence equal to the whole prompt is a prefix of it.
   */
  scan(prompt: TokenIds, findMatches: boolean): PromptScan {
    let h1 = SEED1;
    let h2 = SEED2;
    let pos = 0;
    let hits = 0;
    if (findMatches) {
      for (const len of this.lengths) {
        if (len > prompt.length) break;
        for (; pos < len; pos++) {
          const t = prompt[pos] as number;
          h1 = step1(h1, t);
          h2 = step2(h2, t);
        }
        this.hitLen[hits] = len;
        this.hitH1[hits] = h1;
        this.hitH2[hits] = h2;
        hits++;
      }
    }
    for (; pos < prompt.length; pos++) {
      const t = prompt[pos] as number;
      h1 = step1(h1, t);
      h2 = step2(h2, t);
    }
    for (let k = hits - 1; k >= 0; k--) {
      const len = this.hitLen[k] as number;
      const bucket = this.buckets.get(
        hashKey(len, this.hitH1[k] as number, this.hitH2[k] as number),
      );
      if (!bucket) continue;
      const matches = bucket.filter((id) =>
        cumulativeEquals(this.seqs[id] as CumulativeSeq, prompt, len),
      );
      if (matches.length > 0) return { matches, h1, h2 };
    }
    return { matches: [], h1, h2 };
  }

  /** Insert the cumulative sequence of a scanned prompt plus its generation; returns its id. */
  insert(seq: CumulativeSeq, promptScan: PromptScan): number {
    let h1 = promptScan.h1;
    let h2 = promptScan.h2;
    for (const t of seq.generation) {
      h1 = step1(h1, t);
      h2 = step2(h2, t);
    }
    const id = this.seqs.length;
    this.seqs.push(seq);
    const len = seq.prompt.length + seq.generation.length;
    const key = hashKey(len, h1, h2);
    const bucket = this.buckets.get(key);
    if (bucket) bucket.push(id);
    else this.buckets.set(key, [id]);
    insertSorted(this.lengths, len);
    return id;
  }
}

function insertSorted(sorted: number[], value: number): void {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as number) < value) lo = mid + 1;
    else hi = mid;
  }
  if (sorted[lo] !== value) sorted.splice(lo, 0, value);
}
