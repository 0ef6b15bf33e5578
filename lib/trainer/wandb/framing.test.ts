import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { frameWandbPayloads, wandbHeader, wandbRunFile } from "@/lib/testing/wandb-file";
import { BLOCK_LENGTH, chunkCrc, eachWandbRecord, WandbFileRefused } from "./framing";

// Golden bytes from a throwaway Python port of wandb/sdk/internal/datastore.py's writer (struct
// "<4sHB" header, struct "<IHB" chunk headers, zlib.crc32(data, zlib.crc32(bytes([type])))), with
// the Record hand-encoded field by field: Record{history(2): HistoryRecord{item(1):
// HistoryItem{key(1): "loss", value_json(16): "0.5"}, step(2): HistoryStep{num(1): 3}}}.
const GOLDEN_RECORD = "12120a0c0a046c6f7373820103302e3512020803";
const GOLDEN_FILE = "3a572642e1be00f90e89fe140001" + GOLDEN_RECORD;

// The same port over payloads of these sizes, byte j of payload i being (31i + 7j) & 0xff: a FULL
// record, one spanning three blocks (FIRST, MIDDLE, LAST), one ending 3 bytes before its block's
// end (so the next is preceded by 3 zero bytes of padding), one ending exactly 7 bytes before (so
// the next is a FIRST of no data, then a LAST), an empty record and a small one.
const SIZES = [100, 65586, 32573, 32754, 40, 0, 10];
const LAYOUT = {
  length: 131143,
  sha256: "e2e2483cbaa54437d4a7fd385e1ce5001a57aca3dbbfa15dba15d2e7e653aa52",
  offsets: [7, 114, 65721, 98304, 131065, 131119, 131126],
};
const payload = (i: number, n: number) =>
  Uint8Array.from({ length: n }, (_, j) => (i * 31 + j * 7) & 0xff);
const PAYLOADS = SIZES.map((n, i) => payload(i, n));

function readAll(bytes: Uint8Array, rel = "run-x.wandb") {
  const got: Array<{ data: Buffer; offset: number }> = [];
  const framing = eachWandbRecord(bytes, rel, (data, offset) =>
    got.push({ data: Buffer.from(data), offset }),
  );
  return { ...framing, got };
}

describe("the run file framing, against wandb's datastore.py", () => {
  it("writes the golden bytes of a header and one FULL record, and reads them back", () => {
    const bytes = wandbRunFile([
      { history: { item: [{ key: "loss", value_json: "0.5" }], step: { num: 3 } } },
    ]);
    expect(bytes.toString("hex")).toBe(GOLDEN_FILE);
    const read = readAll(Buffer.from(GOLDEN_FILE, "hex"));
    expect(read.notes).toEqual([]);
    expect(read.got).toEqual([{ data: Buffer.from(GOLDEN_RECORD, "hex"), offset: 7 }]);
    expect(read.readBytes).toBe(GOLDEN_FILE.length / 2);
  });

  it("lays records into blocks as datastore.py does: spanning, padding, an empty FIRST", () => {
    const { bytes, offsets } = frameWandbPayloads(PAYLOADS);
    expect(bytes.length).toBe(LAYOUT.length);
    expect(createHash("sha256").update(bytes).digest("hex")).toBe(LAYOUT.sha256);
    expect(offsets).toEqual(LAYOUT.offsets);
    expect([...bytes.subarray(98301, 98304)]).toEqual([0, 0, 0]);
    const read = readAll(bytes);
    expect(read.notes).toEqual([]);
    expect(read.records).toBe(SIZES.length);
    expect(read.got.map((g) => g.offset)).toEqual(LAYOUT.offsets);
    read.got.forEach((g, i) => expect(g.data.equals(Buffer.from(PAYLOADS[i]!))).toBe(true));
  });

  it("hands one-chunk payloads over as views of the file, not copies", () => {
    const bytes = frameWandbPayloads([payload(0, 10)]).bytes;
    eachWandbRecord(bytes, "r", (data) => expect(data.buffer).toBe(bytes.buffer));
  });
});

describe("a torn tail (a run still being written)", () => {
  const torn = (at: number) =>
    `run-x.wandb: ends in a partial record at byte ${at} (a run still being written); read up to there`;

  it("reads every earlier record when cut at any byte of the last one", () => {
    const small = [payload(1, 30), payload(2, 50), payload(3, 20)];
    const { bytes, offsets } = frameWandbPayloads(small);
    const last = offsets[2]!;
    for (let cut = last + 1; cut < bytes.length; cut++) {
      const read = readAll(bytes.subarray(0, cut));
      expect(read.records, `cut at ${cut}`).toBe(2);
      expect(read.notes).toEqual([torn(last)]);
      expect(read.readBytes).toBe(last);
    }
    expect(readAll(bytes.subarray(0, last)).notes).toEqual([]);
  });

  it("reads up to a record spanning blocks when cut inside any of its chunks", () => {
    const { bytes } = frameWandbPayloads(PAYLOADS);
    for (const cut of [120, 20000, 32767, 32768, 32775, 50000, 65536, 65540, 65720]) {
      const read = readAll(bytes.subarray(0, cut));
      expect(read.records, `cut at ${cut}`).toBe(1);
      expect(read.notes).toEqual([torn(114)]);
    }
  });

  it("counts the zero padding before a record as part of that record's write", () => {
    const { bytes } = frameWandbPayloads(PAYLOADS);
    for (const cut of [98302, 98303, 98304, 98310]) {
      const read = readAll(bytes.subarray(0, cut));
      expect(read.records, `cut at ${cut}`).toBe(3);
      expect(read.notes).toEqual([torn(98301)]);
    }
  });

  it("takes a file cut inside its header as a run file with no records yet", () => {
    const read = readAll(wandbHeader().subarray(0, 5));
    expect(read.records).toBe(0);
    expect(read.notes).toEqual([torn(0)]);
  });
});

describe("damage", () => {
  const four = () => frameWandbPayloads([1, 2, 3, 4].map((i) => payload(i, 40)));

  it("skips a record whose CRC does not match, naming the file and byte, and reads on", () => {
    const { bytes, offsets } = four();
    bytes[offsets[1]! + 7 + 5]! ^= 0xff;
    const read = readAll(bytes, "runs/a/run-a.wandb");
    expect(read.got.map((g) => g.offset)).toEqual([offsets[0], offsets[2], offsets[3]]);
    expect(read.notes).toEqual([
      `runs/a/run-a.wandb: byte ${offsets[1]}: the record's CRC does not match; skipped`,
    ]);
  });

  it("skips a whole spanning record when one of its chunks is damaged", () => {
    const { bytes } = frameWandbPayloads(PAYLOADS);
    bytes[32768 + 100]! ^= 0x01; // inside the MIDDLE chunk of the record at byte 114
    const read = readAll(bytes);
    expect(read.got.map((g) => g.offset)).toEqual([7, 65721, 98304, 131065, 131119, 131126]);
    expect(read.notes).toEqual([
      "run-x.wandb: byte 114: a record spanning blocks skipped: the record's CRC does not match at byte 32768",
    ]);
  });

  it("resumes at the next block after a length that runs past its block", () => {
    const { bytes } = frameWandbPayloads(PAYLOADS);
    bytes.writeUInt16LE(60000, 7 + 4); // the first record's length
    const read = readAll(bytes);
    expect(read.got.map((g) => g.offset)).toEqual([65721, 98304, 131065, 131119, 131126]);
    expect(read.notes[0]).toBe(
      "run-x.wandb: byte 7: a record header claims 60000 bytes, past the end of its block; resuming at byte 32768",
    );
  });

  // A file made chunk by chunk, each CRC right: what no writer makes, but a damaged file may hold.
  const chunks = (...parts: Array<[number, string]>) =>
    Buffer.concat([
      wandbHeader(),
      ...parts.map(([type, text]) => {
        const data = Buffer.from(text);
        const head = Buffer.alloc(7);
        head.writeUInt32LE(chunkCrc(type, data), 0);
        head.writeUInt16LE(data.length, 4);
        head.writeUInt8(type, 6);
        return Buffer.concat([head, data]);
      }),
    ]);

  it("skips a chain with no last part, a last part with no first, an unknown type", () => {
    const read = readAll(chunks([2, "ab"], [1, "cd"], [4, "ef"], [9, "gh"], [1, "ij"]));
    expect(read.got.map((g) => [g.data.toString(), g.offset])).toEqual([
      ["cd", 16],
      ["ij", 43],
    ]);
    expect(read.notes).toEqual([
      "run-x.wandb: byte 7: a record spanning blocks skipped: no last part before the next record at byte 16",
      "run-x.wandb: byte 25: a record's later part without its first part; skipped",
      "run-x.wandb: byte 34: an unknown record type 9; skipped",
    ]);
  });

  it("takes a zeroed chunk header as the unused rest of its block", () => {
    const first = chunks([1, "ab"]);
    const zeros = Buffer.alloc(BLOCK_LENGTH - first.length);
    const bytes = Buffer.concat([first, zeros, chunks([1, "zz"]).subarray(7)]);
    const read = readAll(bytes);
    expect(read.got.map((g) => [g.data.toString(), g.offset])).toEqual([
      ["ab", 7],
      ["zz", BLOCK_LENGTH],
    ]);
    expect(read.notes).toEqual([]);
  });

  it("ends a file that stops after a chain's first part with the torn note", () => {
    const read = readAll(chunks([1, "ab"], [2, "cd"], [3, "ef"]));
    expect(read.records).toBe(1);
    expect(read.notes).toEqual([
      "run-x.wandb: ends in a partial record at byte 16 (a run still being written); read up to there",
    ]);
  });

  it("never throws on damaged record bytes, and bounds its notes", () => {
    const { bytes } = frameWandbPayloads(PAYLOADS);
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let trial = 0; trial < 60; trial++) {
      const copy = Buffer.from(bytes);
      for (let k = 0; k < 40; k++) copy[7 + (next() % (copy.length - 7))] = next() & 0xff;
      const read = readAll(copy);
      expect(read.notes.length).toBeLessThanOrEqual(21);
    }
  });
});

describe("what is refused and what is empty", () => {
  it("refuses a newer log version, saying which", () => {
    const bytes = Buffer.concat([
      wandbHeader(1),
      frameWandbPayloads([payload(0, 5)]).bytes.subarray(7),
    ]);
    expect(() => readAll(bytes)).toThrow(WandbFileRefused);
    expect(() => readAll(bytes)).toThrow(
      "run-x.wandb: written by a newer W&B (log version 1); this reader knows version 0",
    );
  });

  it("refuses a file that is not a W&B run file", () => {
    const wrongMagic = wandbHeader();
    wrongMagic.writeUInt16LE(0xbee2, 4);
    expect(() => readAll(wrongMagic)).toThrow(/^not a W&B run file: .*magic 0xbee2/);
    expect(() => readAll(Buffer.from("SQLite format 3\0"))).toThrow(/^not a W&B run file/);
    expect(() => readAll(Buffer.from("{}"))).toThrow(WandbFileRefused);
  });

  it("reads a 0-byte file as no records, with a note", () => {
    const read = readAll(new Uint8Array(0));
    expect(read.records).toBe(0);
    expect(read.notes).toEqual(["run-x.wandb: empty (0 bytes): no records yet"]);
  });

  it("reads a header alone as a run with no records and nothing to say", () => {
    expect(readAll(wandbHeader())).toMatchObject({ records: 0, notes: [], readBytes: 7 });
  });
});
