// readTrainerLogs over a log directory of bad files next to good ones: each bad file is a note that
// names it (and the byte offset or line), the good files' scalars are all read, and NaN/±Infinity are
// gaps in both formats. Offsets are found here by walking the TFRecord framing (u64 length, u32
// CRC, data, u32 CRC), not by the reader.
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { eventFileBytes } from "@/lib/testing/event-writer";
import { readTrainerLogs, type TrainerLogs } from "./read-logs";

/** Byte offsets at which each record of a TFRecord file starts. */
function recordStarts(bytes: Uint8Array): number[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const starts: number[] = [];
  for (let at = 0; at + 12 <= bytes.length; at += 16 + view.getUint32(at, true)) starts.push(at);
  return starts;
}

const good = eventFileBytes(0, [
  { tag: "train/reward", step: 0, wall_time: 10, value: 0.5 },
  { tag: "train/reward", step: 1, wall_time: 11, value: Number.NaN },
  { tag: "train/reward", step: 2, wall_time: 12, value: Infinity },
  { tag: "train/reward", step: 3, wall_time: 13, value: -Infinity },
  { tag: "train/reward", step: 4, wall_time: 14, value: 0.75 },
]);
const three = eventFileBytes(0, [
  { tag: "loss", step: 0, wall_time: 1, value: 2 },
  { tag: "loss", step: 1, wall_time: 2, value: 3 },
]);
// The file-version event, then loss@0, then loss@1: corrupt a data byte of loss@0's record.
const crcStart = recordStarts(three)[1]!;
const crcBad = Uint8Array.from(three);
crcBad[crcStart + 12 + 2] = crcBad[crcStart + 12 + 2]! ^ 0x20;
const tornStart = recordStarts(three)[2]!;

describe("readTrainerLogs: bad files beside good ones", () => {
  let logs: TrainerLogs;
  beforeAll(async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-read-logs-"));
    const tb = path.join(dir, "tensorboard");
    mkdirSync(path.join(dir, "mlruns", "0", "abc", "metrics", "train"), { recursive: true });
    mkdirSync(tb, { recursive: true });
    writeFileSync(path.join(tb, "events.out.tfevents.1.good"), good);
    writeFileSync(path.join(tb, "events.out.tfevents.2.crc"), crcBad);
    writeFileSync(path.join(tb, "events.out.tfevents.3.json"), '{"step": 0, "reward": 0.5}\n');
    writeFileSync(path.join(tb, "events.out.tfevents.4.empty"), new Uint8Array(0));
    writeFileSync(path.join(tb, "events.out.tfevents.5.torn"), three.subarray(0, tornStart + 9));
    symlinkSync("/etc/hostname", path.join(tb, "events.out.tfevents.6.link"));
    writeFileSync(
      path.join(dir, "mlruns", "0", "abc", "metrics", "train", "kl"),
      "1000 0.01 0\n2000 nan 1\n3000 inf 2\n4000 -inf 3\n5000 0.02 4\n",
    );
    logs = await readTrainerLogs(dir);
  });

  it("keeps NaN and ±Infinity as gaps with their literal, in event files and MLflow alike", () => {
    const values = (tag: string) =>
      logs.series
        .find((s) => s.tag === tag)!
        .points.map((p) => [p.step, p.value, p.non_finite ?? null]);
    const gaps = [
      [1, null, "NaN"],
      [2, null, "Infinity"],
      [3, null, "-Infinity"],
    ];
    expect(values("train/reward")).toEqual([[0, 0.5, null], ...gaps, [4, 0.75, null]]);
    expect(values("train/kl")).toEqual([[0, 0.01, null], ...gaps, [4, 0.02, null]]);
  });

  it("a CRC mismatch names the file and byte offset; the file's other records are read", () => {
    const crc = path.join("tensorboard", "events.out.tfevents.2.crc");
    expect(logs.notes).toContainEqual(
      `${crc}: byte ${crcStart}: the record's data CRC does not match; record skipped`,
    );
    // loss@1 is read from the CRC file and from the torn file's whole records: one point per step.
    const loss = logs.series.find((s) => s.tag === "loss")!;
    expect(loss.points.map((p) => [p.step, p.value])).toEqual([
      [0, 2],
      [1, 3],
    ]);
  });

  it("a torn final record is read up to the last whole record, with a note", () => {
    const torn = path.join("tensorboard", "events.out.tfevents.5.torn");
    expect(logs.notes).toContainEqual(
      expect.stringMatching(new RegExp(`^${torn}: byte ${tornStart}: a torn`)),
    );
  });

  it("a file that is not TFRecord says so; an empty file is no note; a symlink is not followed", () => {
    const json = path.join("tensorboard", "events.out.tfevents.3.json");
    expect(logs.notes).toContainEqual(
      `${json}: byte 0: not a TFRecord file (the first length's CRC does not match); not read`,
    );
    expect(logs.notes.some((n) => n.includes("4.empty"))).toBe(false);
    expect(logs.notes).toContainEqual(
      `${path.join("tensorboard", "events.out.tfevents.6.link")}: a symlink; not followed`,
    );
    expect(logs.notes).toHaveLength(4);
    expect(logs.files).toContain(path.join("tensorboard", "events.out.tfevents.4.empty"));
  });
});
