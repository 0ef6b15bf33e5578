// A W&B run's history records as scalar points: each item that holds a number (NaN and ±Infinity
// kept as gaps) is a point of the series named by its key, at the record's `_step` (else its
// HistoryStep) and `_timestamp`. W&B's own keys (`_step`, `_runtime`, `_timestamp`, `_wandb…`) are
// not series; text, media and histograms are counted per key, not charted. Not responsible for
// the framing or the decoding of records (./framing, ./proto).
import { pointOf, type PointSink } from "../scalar-series";
import { jsonNumber, parseWandbJson } from "./json-value";
import { itemName, type WandbRecordMessage } from "./proto";

type History = NonNullable<WandbRecordMessage["history"]>;

// Keys named in "not a series" notes; past this many the rest are only counted.
const MAX_KEY_NOTES = 20;

/** The number of the item named `name` in `items`, if it holds one. */
function numberOf(names: readonly string[], history: History, name: string): number | undefined {
  const i = names.indexOf(name);
  const json = i < 0 ? undefined : history.item?.[i]?.value_json;
  const n = json === undefined ? null : jsonNumber(json);
  return n !== null && Number.isFinite(n) ? n : undefined;
}

/** Turns history records into points, remembering what it skipped to say so once at the end. */
export class HistoryPoints {
  points = 0;
  private readonly skipped = new Map<string, number>();
  private unstepped = 0;
  private lastStep = -1;

  constructor(
    private readonly rel: string,
    private readonly into: PointSink,
    private readonly note: (message: string) => void,
  ) {}

  /** The points of one history record, whose first chunk is at byte `offset` of the file. */
  add(history: History, offset: number): void {
    const items = history.item ?? [];
    const names = items.map(itemName);
    let step = numberOf(names, history, "_step") ?? history.step?.num;
    if (step === undefined) {
      // Shared-mode writers leave the step to the server: number such records in file order.
      step = this.lastStep + 1;
      this.unstepped++;
    }
    this.lastStep = step;
    const wall = numberOf(names, history, "_timestamp") ?? 0;
    // wandb-core flattens a media value into leaves (`img._type`, `img.path`, …): its `_type` leaf
    // marks the whole key as not a series.
    const media = new Set<string>();
    for (const name of names) if (name.endsWith("._type")) media.add(name.slice(0, -6));
    const skippedHere = new Set<string>();
    let unparsed = 0;
    items.forEach((item, i) => {
      const name = names[i]!;
      if (!name || name.startsWith("_")) return;
      const dot = name.lastIndexOf(".");
      const mediaKey = dot > 0 && media.has(name.slice(0, dot)) ? name.slice(0, dot) : undefined;
      if (mediaKey !== undefined) {
        skippedHere.add(mediaKey);
        return;
      }
      const json = item.value_json ?? "";
      const value = jsonNumber(json);
      if (value !== null) {
        this.into.add(name, this.rel, pointOf(step, wall, value));
        this.points++;
      } else if (parseWandbJson(json).ok) skippedHere.add(name);
      else unparsed++;
    });
    for (const key of skippedHere) this.skipped.set(key, (this.skipped.get(key) ?? 0) + 1);
    if (unparsed > 0)
      this.note(
        `${this.rel}: byte ${offset}: a history record at step ${step} has ${unparsed} values that are not JSON; those skipped`,
      );
  }

  /** Once per key: how many values were not numbers; and how many records had no step. */
  notes(): string[] {
    const out: string[] = [];
    let more = 0;
    for (const [key, n] of this.skipped) {
      if (out.length < MAX_KEY_NOTES)
        out.push(
          `${this.rel}: ${JSON.stringify(key)}: ${n} values that are not numbers (text, media, histograms); not a series`,
        );
      else more++;
    }
    if (more > 0) out.push(`${this.rel}: ${more} more keys whose values are not numbers`);
    if (this.unstepped > 0)
      out.push(
        `${this.rel}: ${this.unstepped} history records have no step; numbered in file order`,
      );
    return out;
  }
}
