// The few messages of a W&B run file that its curves and facts need, a subset of wandb's
// `wandb/proto/wandb_internal.proto` (with `google/protobuf/timestamp.proto`), defined by
// reflection with protobufjs: no generated code. Field numbers are the format's; records and
// fields we do not read (files, stats, output, telemetry, …) are left out and protobufjs skips
// them on the wire. Decoded messages are checked with zod once here. Not responsible for what the
// values mean (./read).
import { Root } from "protobufjs/light";
import { z } from "zod";

// key / nested_key / value_json is one shape in wandb's proto under three names.
const itemFields = {
  key: { type: "string", id: 1 },
  nested_key: { rule: "repeated", type: "string", id: 2 },
  value_json: { type: "string", id: 16 },
};
const changeFields = (item: string) => ({
  update: { rule: "repeated", type: item, id: 1 },
  remove: { rule: "repeated", type: item, id: 2 },
});

const root = Root.fromJSON({
  nested: {
    google: {
      nested: {
        protobuf: {
          nested: {
            Timestamp: {
              fields: { seconds: { type: "int64", id: 1 }, nanos: { type: "int32", id: 2 } },
            },
          },
        },
      },
    },
    wandb_internal: {
      nested: {
        Record: {
          oneofs: {
            record_type: { oneof: ["history", "summary", "config", "run", "exit"] },
          },
          fields: {
            num: { type: "int64", id: 1 },
            history: { type: "HistoryRecord", id: 2 },
            summary: { type: "SummaryRecord", id: 3 },
            config: { type: "ConfigRecord", id: 5 },
            run: { type: "RunRecord", id: 17 },
            exit: { type: "RunExitRecord", id: 18 },
          },
        },
        HistoryStep: { fields: { num: { type: "int64", id: 1 } } },
        HistoryItem: { fields: itemFields },
        HistoryRecord: {
          fields: {
            item: { rule: "repeated", type: "HistoryItem", id: 1 },
            step: { type: "HistoryStep", id: 2 },
          },
        },
        ConfigItem: { fields: itemFields },
        ConfigRecord: { fields: changeFields("ConfigItem") },
        SummaryItem: { fields: itemFields },
        SummaryRecord: { fields: changeFields("SummaryItem") },
        RunRecord: {
          fields: {
            run_id: { type: "string", id: 1 },
            entity: { type: "string", id: 2 },
            project: { type: "string", id: 3 },
            config: { type: "ConfigRecord", id: 4 },
            summary: { type: "SummaryRecord", id: 5 },
            run_group: { type: "string", id: 6 },
            job_type: { type: "string", id: 7 },
            display_name: { type: "string", id: 8 },
            tags: { rule: "repeated", type: "string", id: 10 },
            start_time: { type: "google.protobuf.Timestamp", id: 17 },
          },
        },
        RunExitRecord: {
          fields: {
            exit_code: { type: "int32", id: 1 },
            runtime: { type: "int32", id: 2 },
          },
        },
      },
    },
  },
});

const RecordType = root.lookupType("wandb_internal.Record");

const num = z.custom<number>((v) => typeof v === "number");
const itemSchema = z.object({
  key: z.string().optional(),
  nested_key: z.array(z.string()).optional(),
  value_json: z.string().optional(),
});
const changeSchema = z.object({
  update: z.array(itemSchema).optional(),
  remove: z.array(itemSchema).optional(),
});
const runSchema = z.object({
  run_id: z.string().optional(),
  entity: z.string().optional(),
  project: z.string().optional(),
  config: changeSchema.optional(),
  summary: changeSchema.optional(),
  run_group: z.string().optional(),
  job_type: z.string().optional(),
  display_name: z.string().optional(),
  tags: z.array(z.string()).optional(),
  start_time: z.object({ seconds: num.optional(), nanos: num.optional() }).optional(),
});
const recordSchema = z.object({
  num: num.optional(),
  history: z
    .object({
      item: z.array(itemSchema).optional(),
      step: z.object({ num: num.optional() }).optional(),
    })
    .optional(),
  summary: changeSchema.optional(),
  config: changeSchema.optional(),
  run: runSchema.optional(),
  exit: z.object({ exit_code: num.optional(), runtime: num.optional() }).optional(),
});

export type WandbItem = z.infer<typeof itemSchema>;
export type WandbChange = z.infer<typeof changeSchema>;
export type WandbRunMessage = z.infer<typeof runSchema>;
export type WandbRecordMessage = z.infer<typeof recordSchema>;

/** One record's payload as a Record; throws (with protobufjs's reason) when it is not one. */
export function decodeRecord(data: Uint8Array): WandbRecordMessage {
  // Only fields present on the wire come back (defaults: false), so an absent record kind is told
  // from an empty one; int64 steps and seconds become numbers (they stay far below 2^53).
  const obj = RecordType.toObject(RecordType.decode(data), { longs: Number, defaults: false });
  return recordSchema.parse(obj);
}

/** The payload of a Record with these fields (what wandb's writer serialises). */
export function encodeRecord(record: WandbRecordMessage): Uint8Array {
  return RecordType.encode(RecordType.fromObject(record)).finish();
}

/** An item's name: its nested key joined with ".", else its key ("" when it has neither). */
export function itemName(item: WandbItem): string {
  const nested = item.nested_key;
  return nested && nested.length > 0 ? nested.join(".") : (item.key ?? "");
}
