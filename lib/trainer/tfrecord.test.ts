import { describe, expect, it } from "vitest";
import { frameTfRecord, frameTfRecords, readTfRecords } from "./tfrecord";

/** Bitwise CRC-32C (reflected polynomial 0x82f63b78), independent of the module's table. */
function crcBitwise(data: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of data) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0x82f63b78 : c >>> 1;
  }
  return (c ^ 0xffffffff) >>> 0;
}
const mask = (c: number) => ((((c >>> 15) | (c << 17)) >>> 0) + 0xa282ead8) >>> 0;

/** A record built by hand: u64 length, masked crc of it, data, masked crc of the data. */
function handRecord(data: number[]): number[] {
  const len = new Uint8Array(8);
  new DataView(len.buffer).setUint32(0, data.length, true);
  const u32 = (v: number) => [v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, v >>> 24];
  return [
    ...len,
    ...u32(mask(crcBitwise(len))),
    ...data,
    ...u32(mask(crcBitwise(Uint8Array.from(data)))),
  ];
}

describe("TFRecord framing", () => {
  const r1 = [1, 2, 3];
  const r2 = [0x0a, 0x00, 0xff, 0x7f, 9];
  const file = Uint8Array.from([...handRecord(r1), ...handRecord(r2)]);

  it("reads hand-built records with their offsets", () => {
    const read = readTfRecords(file, "f");
    expect(read.records.map((r) => [...r.data])).toEqual([r1, r2]);
    expect(read.records.map((r) => r.offset)).toEqual([0, 12 + 3 + 4]);
    expect(read.notes).toEqual([]);
    expect(read.readBytes).toBe(file.length);
  });

  it("frames exactly as built by hand", () => {
    expect([...frameTfRecord(Uint8Array.from(r1))]).toEqual(handRecord(r1));
    expect([...frameTfRecords([Uint8Array.from(r1), Uint8Array.from(r2)])]).toEqual([...file]);
  });

  it("reads a torn final record up to the last whole one, with a note", () => {
    for (const cut of [1, 11, 12, 16, 20]) {
      const torn = file.subarray(0, 19 + cut);
      const read = readTfRecords(torn, "events.out.tfevents.1");
      expect(read.records.map((r) => [...r.data])).toEqual([r1]);
      expect(read.readBytes).toBe(19);
      expect(read.notes).toHaveLength(1);
      expect(read.notes[0]).toMatchObject({ kind: "torn_tail", offset: 19 });
      expect(read.notes[0]!.message).toMatch(
        /^events\.out\.tfevents\.1: byte 19: a torn final record/,
      );
    }
  });

  it("skips a record whose data CRC does not match, naming the file and offset, and reads on", () => {
    const bad = Uint8Array.from([...handRecord(r2), ...handRecord(r1), ...handRecord(r2)]);
    const at = 8 + 4 + 5 + 4 + 12 + 1; // a data byte of the second record (offset 21)
    bad[at] = bad[at]! ^ 0x40;
    const read = readTfRecords(bad, "ev");
    expect(read.records.map((r) => [...r.data])).toEqual([r2, r2]);
    expect(read.notes).toEqual([
      {
        file: "ev",
        offset: 21,
        kind: "data_crc",
        message: "ev: byte 21: the record's data CRC does not match; record skipped",
      },
    ]);
  });

  it("stops at a length whose CRC does not match (the next record cannot be found)", () => {
    const bad = Uint8Array.from(file);
    bad[19] = bad[19]! ^ 1; // the second record's length
    const read = readTfRecords(bad, "ev");
    expect(read.records).toHaveLength(1);
    expect(read.notes[0]).toMatchObject({ kind: "length_crc", offset: 19 });
  });

  it("says a file that is not TFRecord at all is not one (wrong magic), and reads an empty file as empty", () => {
    const text = new TextEncoder().encode('{"step": 0, "reward": 0.5}\n');
    const read = readTfRecords(text, "metrics.jsonl");
    expect(read.records).toEqual([]);
    expect(read.notes[0]!.message).toBe(
      "metrics.jsonl: byte 0: not a TFRecord file (the first length's CRC does not match); not read",
    );
    expect(readTfRecords(new Uint8Array(0), "empty")).toEqual({
      records: [],
      notes: [],
      readBytes: 0,
    });
  });
});
