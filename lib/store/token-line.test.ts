// The scanning reader (token-line) must agree with JSON.parse: line by line on a fuzz corpus, and
// as a whole capture (entries, lines, issues and their messages) on every fixture token store and
// on damaged stores. Expected values come from JSON.parse and the schema path ("parse").
import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { line, tempStore, tokenRecord } from "@/lib/testing/temp-store";
import { Random } from "@/fixtures/generator/random";
import { encodeEnvelope } from "@/fixtures/generator/routes-envelope";
import { scanTokenLine } from "./token-line";
import { readRolloutCapture } from "./token-store";

/** JSON text that tells -0 from 0 and keeps key order, so "equal" means what JSON.parse gives. */
// Scanned prompts are Int32Array views (token-line's arena): compared as the lists they hold.
const exact = (v: unknown) =>
  JSON.stringify(v, (_k, x: unknown) =>
    Object.is(x, -0) ? "-0" : x instanceof Int32Array ? Array.from(x) : x,
  );

/** The scanner's value with its lists put back, or null when it leaves the line to JSON.parse. */
function scanned(text: string | Buffer): unknown {
  const r = scanTokenLine(Buffer.isBuffer(text) ? text : Buffer.from(text));
  return r && { ...r.value, ...r.lists };
}

/**
 * Same as JSON.parse of the line, or a fallback (null) when JSON.parse throws or would differ.
 * Returns whether the scanner read the line itself.
 */
function expectAgrees(text: string): boolean {
  const got = scanned(text);
  let want: unknown;
  try {
    want = JSON.parse(text);
  } catch {
    expect(got, text.slice(0, 200)).toBeNull();
    return false;
  }
  if (got !== null) expect(exact(got), text.slice(0, 200)).toBe(exact(want));
  return got !== null;
}

const ids = (r: Random, n: number) => Array.from({ length: n }, () => r.int(0, 200_000));

describe("scanTokenLine", () => {
  it("scans the lists of a plain record", () => {
    const text =
      '{"model_call_id":"a","prompt_token_ids":[1,0,200019],"generation_token_ids":[7,8],' +
      '"generation_log_probs":[-0,-1.5e-7]}';
    const r = scanTokenLine(Buffer.from(text));
    expect(r?.lists.prompt_token_ids).toBeInstanceOf(Int32Array);
    expect(r?.lists).toEqual({
      prompt_token_ids: Int32Array.from([1, 0, 200019]),
      generation_token_ids: [7, 8],
      generation_log_probs: [-0, -1.5e-7],
    });
    expect(Object.is(r?.lists.generation_log_probs?.[0], -0)).toBe(true);
    expect(r?.value.prompt_token_ids).toEqual([]);
  });

  const cases: Record<string, string> = {
    whitespace: ' \t{ "prompt_token_ids" : [ 1 ,2\t, 3 ] , "generation_token_ids":[ ],"x":1 }\r',
    exponents: '{"prompt_token_ids":[1e2, 2E0, 3.0],"generation_log_probs":[1e400,-2.5E-3,0.1e1]}',
    "negative zero id": '{"prompt_token_ids":[-0, 0],"generation_token_ids":[0]}',
    "huge ids": '{"prompt_token_ids":[2147483647, 2147483648, 12345678901234567890]}',
    "negative ids": '{"generation_token_ids":[1, -5]}',
    "leading zero": '{"prompt_token_ids":[01]}',
    "escaped key": '{"prompt\\u005ftoken_ids":[1,2],"prompt_token_ids":[3]}',
    "duplicate key": '{"prompt_token_ids":[1],"prompt_token_ids":[2]}',
    "list key inside a string": '{"s":"\\"prompt_token_ids\\":[9]","prompt_token_ids":[1]}',
    "brackets in strings": '{"o":[{"t":"]}[{\\\\"}],"generation_token_ids":[4]}',
    "not a list": '{"prompt_token_ids":null,"generation_token_ids":"1,2"}',
    "mixed list": '{"prompt_token_ids":[1,"2",null,true]}',
    "log probs with null": '{"generation_log_probs":[-0.1,null]}',
    "bad log prob numbers": '{"generation_log_probs":[.5]}',
    "trailing garbage": '{"prompt_token_ids":[1]} x',
    "trailing comma": '{"prompt_token_ids":[1,]}',
    "unclosed list": '{"prompt_token_ids":[1,2',
    "torn string": '{"rollout_id":"0-',
    "control character in string": '{"s":"a\u0001b","prompt_token_ids":[1]}',
    "empty object": "{}",
    "an array": "[1,2]",
    blank: "   ",
    "unicode and escapes": '{"t":"é \\u00e9 \\n 💥","prompt_token_ids":[5]}',
  };
  for (const [name, text] of Object.entries(cases))
    it(`agrees with JSON.parse: ${name}`, () => expectAgrees(text));

  it("agrees with JSON.parse on a fuzz corpus", () => {
    const r = new Random(17);
    const space = () => [" ", "", "\t", "\r\n", "  "][r.int(0, 4)] as string;
    const num = () => {
      const forms = [
        () => String(r.int(0, 300_000)),
        () => `-${r.int(0, 9)}`,
        () => "-0",
        () => `${r.int(1, 9)}e${r.int(0, 3)}`,
        () => `${r.int(0, 9)}.${r.int(0, 999)}`,
        () => `-${r.int(0, 9)}.${r.int(1, 99)}E-${r.int(1, 20)}`,
        () => "9".repeat(r.int(10, 25)),
        () => `0${r.int(0, 9)}`,
        () => "null",
        () => '"7"',
      ];
      return (forms[r.int(0, r.int(0, 1) === 0 ? 0 : forms.length - 1)] as () => string)();
    };
    const list = () =>
      `[${space()}${Array.from({ length: r.int(0, 12) }, () => space() + num() + space()).join(",")}]`;
    let read = 0;
    for (let k = 0; k < 3000; k++) {
      const fields = [
        `"rollout_id":${space()}"0-${r.int(0, 9)}\\"\\\\ é"`,
        `"prompt_token_ids":${space()}${list()}`,
        `"generation_token_ids":${list()}`,
        `"generation_log_probs":${list()}`,
        `"output_items":[{"text":"a]}[\\"${r.int(0, 9)}","n":[1,{"b":null}]}]`,
      ].filter(() => r.int(0, 5) > 0);
      if (r.int(0, 10) === 0) fields.push(fields[0] ?? '"x":1');
      let text = `${space()}{${fields.join(`${space()},${space()}`)}}${space()}`;
      if (r.int(0, 20) === 0) text = text.slice(0, r.int(0, text.length));
      if (expectAgrees(text)) read++;
    }
    // The corpus must exercise the scanner, not only its fallback.
    expect(read).toBeGreaterThan(500);
  });

  it("leaves invalid UTF-8 to the caller and still agrees when the bytes are valid", () => {
    const bad = Buffer.concat([Buffer.from('{"t":"'), Buffer.from([0xff]), Buffer.from('"}')]);
    // jsonl.ts rejects such a line before scanning; the scanner alone must not crash on it.
    expect(() => scanTokenLine(bad)).not.toThrow();
    expectAgrees(JSON.stringify(tokenRecord("0-0", "a", ids(new Random(3), 5000), [1])));
  });
});

/** Every capture read both ways must be the same, field for field and message for message. */
async function expectSameCapture(dir: string, rollout: string): Promise<void> {
  const fast = await readRolloutCapture(dir, rollout, undefined, undefined, undefined, "scan");
  const slow = await readRolloutCapture(dir, rollout, undefined, undefined, undefined, "parse");
  expect(exact(fast), `${dir} ${rollout}`).toBe(exact(slow));
}

const FIXTURES = path.join(__dirname, "..", "..", "fixtures", "runs");

describe("readRolloutCapture: scan and parse agree", () => {
  it("on every fixture token store", async () => {
    let n = 0;
    for (const run of readdirSync(FIXTURES)) {
      const tokens = path.join(FIXTURES, run, "tokens");
      let files: string[];
      try {
        files = readdirSync(tokens);
      } catch {
        continue;
      }
      for (const f of files.filter((x) => x.endsWith(".tokens.jsonl"))) {
        await expectSameCapture(tokens, f.slice(0, -".tokens.jsonl".length));
        n++;
      }
    }
    expect(n).toBeGreaterThan(20);
  });

  const rec = (call: string, prompt: number[], gen: number[], extra = {}) =>
    line(tokenRecord("0-0", call, prompt, gen, extra));
  const damaged: Record<string, string | Buffer> = {
    corrupt: rec("a", [1], [2]) + '{"rollout_id": "0-0", \n' + rec("b", [1, 2, 3], [4]),
    torn: rec("a", [1], [2]) + '{"rollout_id":"0-0","model_call_id":"b","prompt_token_ids":[1,2',
    "torn but complete": rec("a", [1], [2]) + rec("b", [1, 2, 3], [4]).trimEnd(),
    "invalid UTF-8": Buffer.concat([
      Buffer.from(rec("a", [1], [2])),
      Buffer.from([0x7b, 0xff, 0xfe, 0x7d, 0x0a]),
    ]),
    "negative id": rec("a", [1, -5], [2]),
    "fraction id": rec("a", [1, 2], [2.5]),
    "exponent id": rec("a", [1e3, 2], [2]).replace("1000", "1e3"),
    "log probs short": rec("a", [1, 2], [3, 4], { generation_log_probs: [-0.1] }),
    "log prob null": rec("a", [1, 2], [3], { generation_log_probs: [null] }),
    "duplicate, same": rec("a", [1], [2]) + rec("a", [1], [2]),
    "duplicate, different": rec("a", [1], [2]) + rec("a", [1], [9]),
    "missing list": line({ rollout_id: "0-0", model_call_id: "a", prompt_token_ids: [1] }),
    "newer schema": rec("a", [1], [2], { schema_version: 7 }),
    "item index": rec("a", [1], [2], { output_items: [], token_item_index: 3 }),
    "other rollout": line(tokenRecord("9-9", "a", [1], [2])),
    "huge line": rec("a", ids(new Random(5), 300_000), ids(new Random(6), 2000)),
    blank: "\n \n" + rec("a", [1], [2]) + "\r\n",
    "routes envelope": rec("a", [1, 2], [3], {
      routed_experts: encodeEnvelope("int16", [2, 1, 2], [1, 2, -1, -1]),
    }),
    "routes nested": rec("a", [1, 2], [3], { routed_experts: [[[1, 2]], [[3, 4]]] }),
    "routes malformed": rec("a", [1], [2], { routed_experts: "nrlre1:int8:1x1x2:A!==" }),
    "routes too many rows": rec("a", [1], [2], {
      routed_experts: encodeEnvelope("int8", [3, 1, 1], [1, 2, 3]),
    }),
    "routes with an escape": rec("a", [1], [2], { routed_experts: "nrlre1:int8:1x1x1:\u0041A==" }),
  };
  for (const [name, content] of Object.entries(damaged))
    it(`on a store with ${name}`, async () => {
      const dir = tempStore({ "0-0.tokens.jsonl": content });
      await expectSameCapture(dir, "0-0");
    });
});

describe("a routes envelope in the scanned line", () => {
  it("is cut out as the line's bytes, never a JS string", () => {
    const envelope = encodeEnvelope("int8", [2, 1, 2], [0, 1, -1, -1]);
    const text = JSON.stringify({
      ...tokenRecord("0-0", "a", [1, 2], [3]),
      routed_experts: envelope,
    });
    const scanned = scanTokenLine(Buffer.from(text));
    expect(scanned?.value.routed_experts).toBeNull();
    expect(Buffer.from(scanned?.lists.routed_experts ?? []).toString()).toBe(envelope);
  });
});
