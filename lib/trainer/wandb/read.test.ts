import { describe, expect, it } from "vitest";
import { frameWandbPayloads, wandbHistory, wandbRunFile } from "@/lib/testing/wandb-file";
import { SeriesCollector } from "../scalar-series";
import { encodeRecord } from "./proto";
import { parseWandbFile } from "./read";

function read(bytes: Buffer, rel = "run-abc.wandb") {
  const sink = new SeriesCollector();
  const out = parseWandbFile(bytes, rel, sink);
  return { ...out, series: sink.series() };
}

describe("history to series", () => {
  it("makes a series per key: nested keys joined with '.', `_step` as the step", () => {
    const { series, notes, points } = read(
      wandbRunFile([
        wandbHistory(0, { loss: 2.5, "train.reward": 0.25 }, 1700000000.5),
        wandbHistory(1, { loss: 1.5, "train.reward": 0.5 }, 1700000001.5),
      ]),
    );
    expect(notes).toEqual([]);
    expect(points).toBe(4);
    expect(series).toEqual([
      {
        tag: "loss",
        sources: ["run-abc.wandb"],
        points: [
          { step: 0, wall_time: 1700000000.5, value: 2.5 },
          { step: 1, wall_time: 1700000001.5, value: 1.5 },
        ],
      },
      {
        tag: "train.reward",
        sources: ["run-abc.wandb"],
        points: [
          { step: 0, wall_time: 1700000000.5, value: 0.25 },
          { step: 1, wall_time: 1700000001.5, value: 0.5 },
        ],
      },
    ]);
  });

  it("prefers the `_step` item to HistoryStep, and uses HistoryStep without one", () => {
    const { series } = read(
      wandbRunFile([
        {
          history: {
            item: [
              { key: "_step", value_json: "40" },
              { key: "loss", value_json: "1" },
            ],
            step: { num: 3 },
          },
        },
        { history: { item: [{ key: "loss", value_json: "2" }], step: { num: 41 } } },
      ]),
    );
    expect(series[0]!.points).toEqual([
      { step: 40, wall_time: 0, value: 1 },
      { step: 41, wall_time: 0, value: 2 },
    ]);
  });

  it("keeps NaN and ±Infinity as gaps, written bare or as W&B's quoted literals", () => {
    const values = ["NaN", "Infinity", "-Infinity", '"NaN"', "1e400", "0.5"];
    const { series } = read(
      wandbRunFile(
        values.map((v, i) => ({
          history: { item: [{ key: "loss", value_json: v }], step: { num: i } },
        })),
      ),
    );
    expect(series[0]!.points.map((p) => [p.value, p.non_finite])).toEqual([
      [null, "NaN"],
      [null, "Infinity"],
      [null, "-Infinity"],
      [null, "NaN"],
      [null, "Infinity"],
      [0.5, undefined],
    ]);
  });

  it("charts no W&B key, and says once per key how many values were not numbers", () => {
    const records = [0, 1, 2].map((step) =>
      wandbHistory(step, {
        loss: step,
        phase: "warmup",
        hist: { _type: "histogram", bins: [0, 1], values: [3] },
        "img._type": "image-file",
        "img.path": "media/images/a.png",
        "img.width": 64,
        _runtime: 12.5,
        flag: true,
      }),
    );
    const { series, notes } = read(wandbRunFile(records));
    expect(series.map((s) => s.tag)).toEqual(["loss"]);
    const says = (key: string) =>
      `run-abc.wandb: "${key}": 3 values that are not numbers (text, media, histograms); not a series`;
    expect(notes).toEqual([says("phase"), says("hist"), says("img"), says("flag")]);
  });

  it("numbers history records with no step in file order, and says so", () => {
    const { series, notes } = read(
      wandbRunFile([1, 2].map((v) => ({ history: { item: [{ key: "x", value_json: `${v}` }] } }))),
    );
    expect(series[0]!.points.map((p) => p.step)).toEqual([0, 1]);
    expect(notes).toEqual([
      "run-abc.wandb: 2 history records have no step; numbered in file order",
    ]);
  });

  it("notes a history value that is not JSON with the record's byte offset", () => {
    const { bytes, offsets } = frameWandbPayloads(
      [
        wandbHistory(0, { loss: 1 }),
        {
          history: {
            item: [
              { key: "loss", value_json: "2" },
              { key: "bad", value_json: "{oops" },
            ],
            step: { num: 1 },
          },
        },
      ].map(encodeRecord),
    );
    expect(offsets).toHaveLength(2);
    const { series, notes } = read(bytes);
    expect(series[0]!.points).toHaveLength(2);
    expect(notes).toEqual([
      `run-abc.wandb: byte ${offsets[1]}: a history record at step 1 has 1 values that are not JSON; those skipped`,
    ]);
  });

  it("reads a history record larger than a block (FIRST, MIDDLE, LAST)", () => {
    const many = Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`metric/${i}`, i / 2]));
    const bytes = wandbRunFile([wandbHistory(7, many, 1), wandbHistory(8, { loss: 1 })]);
    expect(bytes.length).toBeGreaterThan(65536);
    const { series, notes, records } = read(bytes);
    expect(notes).toEqual([]);
    expect(records).toBe(2);
    expect(series).toHaveLength(3001);
    expect(series.find((s) => s.tag === "metric/2999")!.points).toEqual([
      { step: 7, wall_time: 1, value: 1499.5 },
    ]);
  });

  it("notes a record that is not a W&B Record and reads on", () => {
    const { bytes, offsets } = frameWandbPayloads([
      Uint8Array.from([0xff, 0xff, 0xff]),
      encodeRecord(wandbHistory(0, { loss: 1 })),
    ]);
    const { notes, series } = read(bytes);
    expect(series).toHaveLength(1);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(new RegExp(`^run-abc\\.wandb: byte ${offsets[0]}: not a W&B Record`));
  });
});

describe("a run still being written", () => {
  it("reads the history up to the last whole record, and says where it stops", () => {
    const records = [0, 1, 2].map((step) => encodeRecord(wandbHistory(step, { loss: step })));
    const { bytes, offsets } = frameWandbPayloads(records);
    for (const cut of [offsets[2]! + 3, offsets[2]! + 9, bytes.length - 1]) {
      const { series, notes } = read(bytes.subarray(0, cut));
      expect(series[0]!.points.map((p) => p.step)).toEqual([0, 1]);
      expect(notes).toEqual([
        `run-abc.wandb: ends in a partial record at byte ${offsets[2]} (a run still being written); read up to there`,
      ]);
    }
  });
});
