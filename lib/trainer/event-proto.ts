// The few TensorBoard protobuf messages an event file's scalars need (tensorboard's event.proto,
// summary.proto, tensor.proto, tensor_shape.proto), defined by reflection with protobufjs: no
// generated code. Field numbers are the format's; fields we do not read (images, histograms,
// graphs) are left out and protobufjs skips them on the wire. Decoded messages are checked with
// zod once here. Not responsible for which values are scalars (./event-scalars).
import { Root } from "protobufjs/light";
import { z } from "zod";

const root = Root.fromJSON({
  nested: {
    tensorboard: {
      nested: {
        TensorShapeProto: {
          fields: {
            dim: { rule: "repeated", type: "Dim", id: 2 },
            unknown_rank: { type: "bool", id: 3 },
          },
          nested: {
            Dim: { fields: { size: { type: "int64", id: 1 }, name: { type: "string", id: 2 } } },
          },
        },
        TensorProto: {
          fields: {
            dtype: { type: "int32", id: 1 },
            tensor_shape: { type: "TensorShapeProto", id: 2 },
            tensor_content: { type: "bytes", id: 4 },
            float_val: { rule: "repeated", type: "float", id: 5, options: { packed: true } },
            double_val: { rule: "repeated", type: "double", id: 6, options: { packed: true } },
          },
        },
        SummaryMetadata: {
          fields: {
            plugin_data: { type: "PluginData", id: 1 },
            display_name: { type: "string", id: 2 },
            summary_description: { type: "string", id: 3 },
          },
          nested: {
            PluginData: {
              fields: {
                plugin_name: { type: "string", id: 1 },
                content: { type: "bytes", id: 2 },
              },
            },
          },
        },
        Summary: {
          fields: { value: { rule: "repeated", type: "Value", id: 1 } },
          nested: {
            Value: {
              oneofs: { value: { oneof: ["simple_value", "tensor"] } },
              fields: {
                tag: { type: "string", id: 1 },
                simple_value: { type: "float", id: 2 },
                node_name: { type: "string", id: 7 },
                tensor: { type: "TensorProto", id: 8 },
                metadata: { type: "SummaryMetadata", id: 9 },
              },
            },
          },
        },
        Event: {
          fields: {
            wall_time: { type: "double", id: 1 },
            step: { type: "int64", id: 2 },
            file_version: { type: "string", id: 3 },
            summary: { type: "Summary", id: 5 },
          },
        },
      },
    },
  },
});

export const EventType = root.lookupType("tensorboard.Event");

/** TensorFlow's DataType codes for the element types a scalar tensor is read from. */
export const DT_FLOAT = 1;
export const DT_DOUBLE = 2;

const bytes = z.instanceof(Uint8Array);
// Any number, NaN and ±Infinity included (z.number() refuses them): a diverged loss is data.
const num = z.custom<number>((v) => typeof v === "number");
const tensorSchema = z.object({
  dtype: num.optional(),
  tensor_shape: z
    .object({ dim: z.array(z.object({ size: num.optional() })).optional() })
    .optional(),
  tensor_content: bytes.optional(),
  float_val: z.array(num).optional(),
  double_val: z.array(num).optional(),
});
const valueSchema = z.object({
  tag: z.string().optional(),
  simple_value: num.optional(),
  tensor: tensorSchema.optional(),
});
const eventSchema = z.object({
  wall_time: num.optional(),
  step: num.optional(),
  file_version: z.string().optional(),
  summary: z.object({ value: z.array(valueSchema).optional() }).optional(),
});

export type TensorMessage = z.infer<typeof tensorSchema>;
export type SummaryValue = z.infer<typeof valueSchema>;
export type EventMessage = z.infer<typeof eventSchema>;

/** One record's payload as an Event; throws (with protobufjs's reason) when it is not one. */
export function decodeEvent(data: Uint8Array): EventMessage {
  // Only fields present on the wire come back (defaults: false), so a simple_value of 0 is told
  // from an absent one; int64 steps become numbers (steps stay far below 2^53).
  const obj = EventType.toObject(EventType.decode(data), { longs: Number, defaults: false });
  return eventSchema.parse(obj);
}

/** The payload of an Event with these fields (what a summary writer serialises). */
export function encodeEvent(event: EventMessage): Uint8Array {
  return EventType.encode(EventType.fromObject(event)).finish();
}
