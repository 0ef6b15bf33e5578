// Writes TensorBoard event files from the format (TFRecord framing of serialised Event protobufs),
// as a summary writer does: a first Event carrying `file_version`, then one Event per logged value.
// Used by the fixture generator and the tests; the app never writes. Pure: returns bytes.
import { DT_DOUBLE, DT_FLOAT, encodeEvent, type EventMessage } from "@/lib/trainer/event-proto";
import { frameTfRecords } from "@/lib/trainer/tfrecord";

/** The version string summary writers put in an event file's first record. */
export const FILE_VERSION = "brain.Event:2";

export interface ScalarToWrite {
  tag: string;
  step: number;
  wall_time: number;
  value: number;
  /** `simple` (a float32 simple_value, as torch's SummaryWriter.add_scalar), or a scalar tensor. */
  as?: "simple" | "float_tensor" | "double_tensor";
}

function valueOf(s: ScalarToWrite) {
  switch (s.as ?? "simple") {
    case "simple":
      return { tag: s.tag, simple_value: s.value };
    case "float_tensor": {
      const content = new Uint8Array(4);
      new DataView(content.buffer).setFloat32(0, s.value, true);
      return { tag: s.tag, tensor: { dtype: DT_FLOAT, tensor_content: content } };
    }
    case "double_tensor":
      return { tag: s.tag, tensor: { dtype: DT_DOUBLE, double_val: [s.value] } };
  }
}

/** The Event of one scalar. */
export function scalarEvent(s: ScalarToWrite): EventMessage {
  return { wall_time: s.wall_time, step: s.step, summary: { value: [valueOf(s)] } };
}

/** A whole event file: the file-version record at `startTime`, then one record per scalar. */
export function eventFileBytes(startTime: number, scalars: readonly ScalarToWrite[]): Uint8Array {
  const events: EventMessage[] = [
    { wall_time: startTime, file_version: FILE_VERSION },
    ...scalars.map(scalarEvent),
  ];
  return frameTfRecords(events.map(encodeEvent));
}
