import { describe, expect, it } from "vitest";
import { eventFileBytes, FILE_VERSION, type ScalarToWrite } from "@/lib/testing/event-writer";
import { decodeEvent } from "./event-proto";
import { readEventFile, tensorScalar } from "./event-scalars";
import { SeriesCollector } from "./scalar-series";
import { frameTfRecords, readTfRecords } from "./tfrecord";

const f32 = (v: number) => Math.fround(v);

function read(bytes: Uint8Array, file = "events.out.tfevents.1") {
  const c = new SeriesCollector();
  const r = readEventFile(bytes, file, c);
  return { r, series: c.series() };
}

describe("event files: the writer read back", () => {
  const scalars: ScalarToWrite[] = [
    { tag: "train/reward", step: 0, wall_time: 100.5, value: 0.5106 },
    { tag: "train/reward", step: 1, wall_time: 101.5, value: 0.5083 },
    { tag: "train/gen_kl_error", step: 1, wall_time: 101.5, value: 0.1, as: "double_tensor" },
    { tag: "custom/unknown", step: 2, wall_time: 102, value: 0.25, as: "float_tensor" },
    { tag: "train/reward", step: 2, wall_time: 102.5, value: 0 },
  ];
  const bytes = eventFileBytes(99, scalars);

  it("starts with the file-version event, as summary writers do", () => {
    const first = readTfRecords(bytes, "f").records[0]!;
    expect(decodeEvent(first.data)).toEqual({ wall_time: 99, file_version: FILE_VERSION });
  });

  it("gives every tag's (step, wall time, value), float32 for simple values", () => {
    const { r, series } = read(bytes);
    expect(r).toMatchObject({ records: 6, scalars: 5, other_values: 0, notes: [] });
    expect(series.map((s) => s.tag)).toEqual([
      "custom/unknown",
      "train/gen_kl_error",
      "train/reward",
    ]);
    const reward = series.find((s) => s.tag === "train/reward")!;
    expect(reward.points).toEqual([
      { step: 0, wall_time: 100.5, value: f32(0.5106) },
      { step: 1, wall_time: 101.5, value: f32(0.5083) },
      { step: 2, wall_time: 102.5, value: 0 },
    ]);
    expect(series[0]!.points).toEqual([{ step: 2, wall_time: 102, value: 0.25 }]);
    expect(series[1]!.points).toEqual([{ step: 1, wall_time: 101.5, value: 0.1 }]);
    expect(reward.sources).toEqual(["events.out.tfevents.1"]);
  });

  it("keeps NaN and ±Infinity as gaps with their literal", () => {
    const bad = eventFileBytes(0, [
      { tag: "loss", step: 0, wall_time: 1, value: NaN },
      { tag: "loss", step: 1, wall_time: 2, value: Infinity, as: "double_tensor" },
      { tag: "loss", step: 2, wall_time: 3, value: -Infinity },
    ]);
    expect(read(bad).series[0]!.points).toEqual([
      { step: 0, wall_time: 1, value: null, non_finite: "NaN" },
      { step: 1, wall_time: 2, value: null, non_finite: "Infinity" },
      { step: 2, wall_time: 3, value: null, non_finite: "-Infinity" },
    ]);
  });

  it("a restart's later write of a step replaces the earlier one", () => {
    const c = new SeriesCollector();
    readEventFile(eventFileBytes(0, [{ tag: "r", step: 3, wall_time: 10, value: 1 }]), "a", c);
    readEventFile(eventFileBytes(0, [{ tag: "r", step: 3, wall_time: 20, value: 2 }]), "b", c);
    expect(c.series()).toEqual([
      { tag: "r", sources: ["a", "b"], points: [{ step: 3, wall_time: 20, value: 2 }] },
    ]);
  });

  it("skips a record that is not an Event and reads on; notes a torn tail", () => {
    const good = eventFileBytes(0, [{ tag: "r", step: 1, wall_time: 1, value: 1 }]);
    const junk = frameTfRecords([Uint8Array.from([0x2a, 0x10, 0x0a])]); // a summary cut short
    const joined = Uint8Array.from([...junk, ...good, ...good.subarray(0, 7)]);
    const { r, series } = read(joined, "ev");
    expect(series[0]!.points).toEqual([{ step: 1, wall_time: 1, value: 1 }]);
    expect(r.notes).toHaveLength(2);
    expect(r.notes).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^ev: byte 0: not an Event \(index out of range/),
        expect.stringMatching(new RegExp(`^ev: byte ${joined.length - 7}: a torn final record`)),
      ]),
    );
  });
});

describe("event bytes built by hand", () => {
  it("decodes wall_time 1.5, step 7 and a simple_value 1.0 under tag 'a'", () => {
    // Event{1: double 1.5, 2: varint 7, 5: Summary{1: Value{1: "a", 2: fixed32 1.0f}}}
    const event = Uint8Array.from([
      0x09, 0, 0, 0, 0, 0, 0, 0xf8, 0x3f, 0x10, 0x07, 0x2a, 0x0a, 0x0a, 0x08, 0x0a, 0x01, 0x61,
      0x15, 0, 0, 0x80, 0x3f,
    ]);
    expect(decodeEvent(event)).toEqual({
      wall_time: 1.5,
      step: 7,
      summary: { value: [{ tag: "a", simple_value: 1 }] },
    });
    expect(read(frameTfRecords([event])).series).toEqual([
      {
        tag: "a",
        sources: ["events.out.tfevents.1"],
        points: [{ step: 7, wall_time: 1.5, value: 1 }],
      },
    ]);
  });
});

describe("tensorScalar", () => {
  const le = (v: number, size: 4 | 8) => {
    const b = new Uint8Array(size);
    const d = new DataView(b.buffer);
    if (size === 4) d.setFloat32(0, v, true);
    else d.setFloat64(0, v, true);
    return b;
  };
  it("reads one-element float and double tensors, in vals or content", () => {
    expect(tensorScalar({ dtype: 1, float_val: [0.5] })).toBe(0.5);
    expect(tensorScalar({ dtype: 2, tensor_content: le(0.1, 8) })).toBe(0.1);
    expect(tensorScalar({ dtype: 1, tensor_content: le(0.1, 4) })).toBe(f32(0.1));
    expect(tensorScalar({ dtype: 1, float_val: [2], tensor_shape: { dim: [{ size: 1 }] } })).toBe(
      2,
    );
  });
  it("refuses anything that is not one float or double", () => {
    expect(tensorScalar({ dtype: 1, float_val: [1, 2] })).toBeNull();
    expect(tensorScalar({ dtype: 2, tensor_content: le(1, 4) })).toBeNull();
    expect(tensorScalar({ dtype: 7, tensor_content: new Uint8Array([65]) })).toBeNull(); // DT_STRING
    expect(
      tensorScalar({ dtype: 1, float_val: [1], tensor_shape: { dim: [{ size: 3 }] } }),
    ).toBeNull();
  });
});
