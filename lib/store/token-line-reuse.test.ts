// A prompt that starts with the previous prompt's very bytes reuses its ids (token-line's
// prevPrompt): every case here is checked against JSON.parse of the same line, including prefixes
// that end inside a number ("[1,2,3" is no prefix of "[1,2,34"), whitespace, and a reset per file.
import { expect, it } from "vitest";
import { resetPromptReuse, scanTokenLine } from "./token-line";

const lineOf = (prompt: string) =>
  Buffer.from(`{"model_call_id":"c","prompt_token_ids":${prompt},"generation_token_ids":[7]}`);

function scanned(prompts: string[]): Array<number[] | undefined> {
  resetPromptReuse();
  return prompts.map((p) => {
    const ids = scanTokenLine(lineOf(p))?.lists.prompt_token_ids;
    return ids && Array.from(ids);
  });
}

it("each prompt is what JSON.parse reads, whatever the previous prompt was", () => {
  const chains = [
    ["[1,2,3]", "[1,2,3,4,5]", "[1,2,3,4,5,6]", "[1,2,3,4,5]"],
    ["[1,2,3]", "[1,2,34]", "[1,2,345,6]"],
    ["[1, 2, 3]", "[1, 2, 3 , 4]", "[1, 2, 3]", "[1, 2, 3 ]"],
    ["[10,20]", "[10,20]", "[]", "[10,20,30]", "[1]", "[10]"],
    ["[5,6]", "[5,6,07]", "[5,6,-1]", "[5,6,1e3]", "[5,6,7]"],
  ];
  for (const prompts of chains) {
    const got = scanned(prompts);
    prompts.forEach((p, i) => {
      let want: unknown;
      try {
        want = JSON.parse(p);
      } catch {
        want = undefined;
      }
      // A list the scan leaves to JSON.parse and the schema (a sign, an exponent, a leading zero)
      // is not scanned at all: never a wrong list.
      if (got[i] !== undefined) expect(got[i]).toEqual(want);
      else expect(/-|e|\b0\d/.test(p) || want === undefined).toBe(true);
    });
  }
});

it("a reused list is a list of its own", () => {
  const [a, b] = scanned(["[1,2]", "[1,2,3]"]);
  expect(b).toEqual([1, 2, 3]);
  expect(b).not.toBe(a);
  expect(a).toEqual([1, 2]);
});

it("prompts that repeat each other share one buffer, and no later prompt changes an earlier one", () => {
  resetPromptReuse();
  const texts = ["[1,2]", "[1,2,3,4]", "[9]", "[9,8]", "[1,2,3,4,5]", "[1,2]", "[1,2]", "[]"];
  const got = texts.map((t) => scanTokenLine(lineOf(t))?.lists.prompt_token_ids);
  // Values read after every line was scanned: a write into an earlier view would show here.
  expect(got.map((a) => a && Array.from(a))).toEqual(texts.map((t) => JSON.parse(t) as unknown));
  expect(got[1]?.buffer).toBe(got[0]?.buffer); // grown in place after its parent
  expect(got[3]?.buffer).toBe(got[2]?.buffer);
  expect(got[6]?.buffer).toBe(got[5]?.buffer); // a retry: the same ids again
});

it("a 200-call chain's prompts cost one buffer of about its longest prompt, not one per call", () => {
  resetPromptReuse();
  const ids: number[] = [];
  const buffers = new Set<ArrayBufferLike>();
  let last: Int32Array | undefined;
  for (let call = 0; call < 200; call++) {
    for (let k = 0; k < 200; k++) ids.push((call * 200 + k) % 200_000);
    last = scanTokenLine(lineOf(`[${ids.join(",")}]`))?.lists.prompt_token_ids;
    if (last) buffers.add(last.buffer);
  }
  expect(last && Array.from(last)).toEqual(ids);
  const bytes = [...buffers].reduce((n, b) => n + b.byteLength, 0);
  // Copies of every prefix would be 200 × 20k ids × 4 bytes = 16 MB.
  expect(bytes).toBeLessThan(4 * 4 * ids.length);
});
