// TFRecord framing, the container of TensorBoard event files: each record is a little-endian uint64
// length, the masked CRC-32C of those 8 bytes, the payload, and the masked CRC-32C of the payload.
// Reading checks both CRCs and never throws for a file: a torn last record (a write in progress)
// ends the read with a note, a bad record is skipped with a note naming the file and byte offset.
// Not responsible for what the payloads mean (./event-proto).
import { maskedCrc32c } from "./crc32c";

/** One whole record: its payload and the byte offset of its header in the file. */
export interface TfRecord {
  offset: number;
  data: Uint8Array;
}

/** Something the reader could not use, with where it was. */
export interface RecordNote {
  file: string;
  offset: number;
  kind: "torn_tail" | "length_crc" | "data_crc";
  message: string;
}

export interface TfRecordRead {
  records: TfRecord[];
  notes: RecordNote[];
  /** Bytes of whole, checked records from the start; a torn tail starts here. */
  readBytes: number;
}

const HEADER = 12;
const FOOTER = 4;
// A length past this is not a record a summary writer makes: the header is damaged.
const MAX_RECORD = 1 << 30;

function u32(bytes: Uint8Array, at: number): number {
  return new DataView(bytes.buffer, bytes.byteOffset + at, 4).getUint32(0, true);
}

/** The records of `bytes` (a whole file named `file`), with notes on anything skipped or torn. */
export function readTfRecords(bytes: Uint8Array, file: string): TfRecordRead {
  const records: TfRecord[] = [];
  const { notes, readBytes } = eachTfRecord(bytes, file, (data, offset) =>
    records.push({ offset, data }),
  );
  return { records, notes, readBytes };
}

/**
 * Each whole, checked record of `bytes` handed to `visit` in order (its payload a view of `bytes`,
 * valid during the call), holding none: a file of millions of records costs no array of them.
 */
export function eachTfRecord(
  bytes: Uint8Array,
  file: string,
  visit: (data: Uint8Array, offset: number) => void,
): Omit<TfRecordRead, "records"> & { records: number } {
  let records = 0;
  const notes: RecordNote[] = [];
  const note = (offset: number, kind: RecordNote["kind"], message: string) =>
    notes.push({ file, offset, kind, message: `${file}: byte ${offset}: ${message}` });
  let at = 0;
  let readBytes = 0;
  while (at < bytes.length) {
    if (bytes.length - at < HEADER) {
      note(
        at,
        "torn_tail",
        `a torn final record (${bytes.length - at} bytes of a header); ignored`,
      );
      break;
    }
    const view = new DataView(bytes.buffer, bytes.byteOffset + at, 8);
    const length = Number(view.getBigUint64(0, true));
    if (maskedCrc32c(bytes.subarray(at, at + 8)) !== u32(bytes, at + 8) || length > MAX_RECORD) {
      // With the length unknown the next record cannot be found: the rest is unreadable.
      note(
        at,
        "length_crc",
        at === 0
          ? "not a TFRecord file (the first length's CRC does not match); not read"
          : "the record length's CRC does not match; the rest of the file is unread",
      );
      break;
    }
    const end = at + HEADER + length + FOOTER;
    if (end > bytes.length) {
      note(
        at,
        "torn_tail",
        `a torn final record (${bytes.length - at} of ${end - at} bytes); ignored`,
      );
      break;
    }
    const data = bytes.subarray(at + HEADER, at + HEADER + length);
    if (maskedCrc32c(data) === u32(bytes, at + HEADER + length)) {
      records++;
      visit(data, at);
    } else note(at, "data_crc", `the record's data CRC does not match; record skipped`);
    at = end;
    readBytes = end;
  }
  return { records, notes, readBytes };
}

/** One record framed as a TFRecord writer frames it. */
export function frameTfRecord(data: Uint8Array): Uint8Array {
  const out = new Uint8Array(HEADER + data.length + FOOTER);
  const view = new DataView(out.buffer);
  view.setBigUint64(0, BigInt(data.length), true);
  view.setUint32(8, maskedCrc32c(out.subarray(0, 8)), true);
  out.set(data, HEADER);
  view.setUint32(HEADER + data.length, maskedCrc32c(data), true);
  return out;
}

/** Records framed one after another: the bytes of a TFRecord file. */
export function frameTfRecords(payloads: readonly Uint8Array[]): Uint8Array {
  const framed = payloads.map(frameTfRecord);
  const out = new Uint8Array(framed.reduce((n, f) => n + f.length, 0));
  let at = 0;
  for (const f of framed) {
    out.set(f, at);
    at += f.length;
  }
  return out;
}
