// The scalars of one TensorBoard event file: every Summary value that is a `simple_value` or a
// scalar tensor (float or double, in `float_val`/`double_val` or a one-element `tensor_content`),
// under its own tag, whatever the tag (unknown tags are kept). Records that are not Events, and
// values that are not scalars (images, histograms, text), are counted, never fatal. Pure: the
// bytes come from ./read-logs. Not responsible for framing (./tfrecord).
import {
  decodeEvent,
  DT_DOUBLE,
  DT_FLOAT,
  type SummaryValue,
  type TensorMessage,
} from "./event-proto";
import { pointOf, type PointSink } from "./scalar-series";
import { eachTfRecord, type RecordNote } from "./tfrecord";

export interface EventFileRead {
  file: string;
  records: number;
  scalars: number;
  /** Values with a tag that are not scalars (images, histograms, text, …). */
  other_values: number;
  notes: string[];
  /** Framing problems, with byte offsets. */
  record_notes: RecordNote[];
}

/** The single element of a scalar tensor, or null when `t` is not one. */
export function tensorScalar(t: TensorMessage): number | null {
  const dims = t.tensor_shape?.dim ?? [];
  if (dims.some((d) => (d.size ?? 0) !== 1)) return null;
  if (t.dtype === DT_FLOAT || t.dtype === DT_DOUBLE) {
    const vals = t.dtype === DT_FLOAT ? t.float_val : t.double_val;
    if (vals && vals.length === 1) return vals[0] ?? null;
    const content = t.tensor_content;
    const size = t.dtype === DT_FLOAT ? 4 : 8;
    if (!content || content.length !== size) return null;
    const view = new DataView(content.buffer, content.byteOffset, size);
    return size === 4 ? view.getFloat32(0, true) : view.getFloat64(0, true);
  }
  return null;
}

function scalarOf(v: SummaryValue): number | null {
  if (v.simple_value !== undefined) return v.simple_value;
  return v.tensor ? tensorScalar(v.tensor) : null;
}

/** Adds the scalars of the event file `bytes` (named `file`) to `into`. */
export function readEventFile(bytes: Uint8Array, file: string, into: PointSink): EventFileRead {
  const out: EventFileRead = {
    file,
    records: 0,
    scalars: 0,
    other_values: 0,
    notes: [],
    record_notes: [],
  };
  const framing = eachTfRecord(bytes, file, (data, offset) => {
    let event;
    try {
      event = decodeEvent(data);
    } catch (err) {
      out.notes.push(`${file}: byte ${offset}: not an Event (${(err as Error).message}); skipped`);
      return;
    }
    const step = event.step ?? 0;
    const wall = event.wall_time ?? 0;
    for (const v of event.summary?.value ?? []) {
      const value = scalarOf(v);
      if (value === null || v.tag === undefined) {
        out.other_values++;
        continue;
      }
      into.add(v.tag, file, pointOf(step, wall, value));
      out.scalars++;
    }
  });
  out.records = framing.records;
  // Framing notes first, as the file reads: a torn tail or bad CRC, then undecodable events.
  out.notes.unshift(...framing.notes.map((n) => n.message));
  out.record_notes = framing.notes;
  return out;
}
