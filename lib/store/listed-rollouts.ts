// A store listing's rollouts, held in a few flat arrays instead of an object per rollout and
// one per file: a run of 10^5 to 10^6 rollouts is listed on a worker, crosses to the server's
// thread and is kept there for the whole index. As Maps of objects, 120,000 rollouts held 22 MB
// of heap on each side, and their clone made as many objects again; as arrays, 4 MB (the ids,
// then 4 bytes per rollout and 17 per file). Read-only: a ReadonlyMap whose values are made on
// each read (small objects that die young).
// Invariants: `ids` are sorted by code unit (what `Array.prototype.sort` and `<` order) and
// unique; the files of ids[i] are first[i] .. first[i + 1] - 1, in FILE_KINDS order.
import { FILE_KINDS, type FileKind, type RolloutFiles } from "./file-kinds";
import type { FileStat } from "./file-version";
import type { StoreListing } from "./files";

/** The arrays of ListedRollouts: what a structured clone copies between threads. */
export interface PackedRollouts {
  ids: string[];
  first: Uint32Array;
  kind: Uint8Array;
  /** Each file's size and mtime (ms); null when the listing took no stat (values are null). */
  size: Float64Array | null;
  mtimeMs: Float64Array | null;
}

export class ListedRollouts implements ReadonlyMap<string, RolloutFiles> {
  readonly #p: PackedRollouts;

  constructor(packed: PackedRollouts) {
    this.#p = packed;
  }

  /** From id -> files (any order); every file of a value is kept, with its stat or null. */
  static of(entries: Iterable<[string, RolloutFiles]>): ListedRollouts {
    const sorted = [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    let files = 0;
    let stat = false;
    for (const [, f] of sorted)
      for (const k of FILE_KINDS) {
        const s = f[k];
        if (s === undefined) continue;
        files += 1;
        if (s !== null) stat = true;
      }
    const p: PackedRollouts = {
      ids: new Array<string>(sorted.length),
      first: new Uint32Array(sorted.length + 1),
      kind: new Uint8Array(files),
      size: stat ? new Float64Array(files) : null,
      mtimeMs: stat ? new Float64Array(files) : null,
    };
    let at = 0;
    sorted.forEach(([id, f], i) => {
      if (i > 0 && !(sorted[i - 1]![0] < id)) throw new Error(`rollout ${id} is listed twice`);
      p.ids[i] = id;
      p.first[i] = at;
      FILE_KINDS.forEach((k, kindIndex) => {
        const s = f[k];
        if (s === undefined) return;
        p.kind[at] = kindIndex;
        if (p.size && p.mtimeMs) {
          p.size[at] = s?.size ?? NaN;
          p.mtimeMs[at] = s?.mtimeMs ?? NaN;
        }
        at += 1;
      });
    });
    p.first[sorted.length] = at;
    return new ListedRollouts(p);
  }

  /** The arrays, to send to another thread (`new ListedRollouts(arrays)` there: unpackListing). */
  packed(): PackedRollouts {
    return this.#p;
  }

  get size(): number {
    return this.#p.ids.length;
  }

  has(id: string): boolean {
    return this.#indexOf(id) >= 0;
  }

  get(id: string): RolloutFiles | undefined {
    const i = this.#indexOf(id);
    return i < 0 ? undefined : this.#filesAt(i);
  }

  *keys(): MapIterator<string> {
    yield* this.#p.ids;
  }

  *values(): MapIterator<RolloutFiles> {
    for (let i = 0; i < this.#p.ids.length; i += 1) yield this.#filesAt(i);
  }

  *entries(): MapIterator<[string, RolloutFiles]> {
    for (let i = 0; i < this.#p.ids.length; i += 1)
      yield [this.#p.ids[i] as string, this.#filesAt(i)];
  }

  [Symbol.iterator](): MapIterator<[string, RolloutFiles]> {
    return this.entries();
  }

  forEach(fn: (files: RolloutFiles, id: string, map: ReadonlyMap<string, RolloutFiles>) => void) {
    for (const [id, files] of this) fn(files, id, this);
  }

  #indexOf(id: string): number {
    const ids = this.#p.ids;
    let lo = 0;
    let hi = ids.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const at = ids[mid] as string;
      if (at === id) return mid;
      if (at < id) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  #filesAt(i: number): RolloutFiles {
    const { first, kind, size, mtimeMs } = this.#p;
    const files: RolloutFiles = {};
    for (let f = first[i] as number; f < (first[i + 1] as number); f += 1) {
      const s = size?.[f] ?? NaN;
      const stat: FileStat | null = Number.isNaN(s)
        ? null
        : { size: s, mtimeMs: mtimeMs?.[f] ?? 0 };
      files[FILE_KINDS[kind[f] as number] as FileKind] = stat;
    }
    return files;
  }
}

/** A listing as another thread receives it: its rollouts as arrays (a class does not clone). */
export type PackedListing = Omit<StoreListing, "rollouts"> & { rollouts: PackedRollouts };

export function packListing(listing: StoreListing): PackedListing {
  const { rollouts } = listing;
  const list = rollouts instanceof ListedRollouts ? rollouts : ListedRollouts.of(rollouts);
  return { ...listing, rollouts: list.packed() };
}

export function unpackListing(packed: PackedListing): StoreListing {
  return { ...packed, rollouts: new ListedRollouts(packed.rollouts) };
}
