// What search indexes of a rollout: the main chain as the trainer sees it, each token once (a
// later call's inherited prefix is not indexed again), and failed calls' bodies. Expected text
// comes from the fixture's token files decoded by gpt-tokenizer, not from lib/tokens.
import { readFileSync } from "node:fs";
import { inflateRawSync } from "node:zlib";
import path from "node:path";
import { decode } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import { decideVerdict } from "@/lib/builder";
import { readCaptureStore, readRolloutCapture } from "@/lib/store";
import { o200kDecoder } from "@/lib/tokens";
import { SEARCH_RUN, SEARCH_TRUTH } from "@/fixtures/generator/search-phrases";
import { SEGMENT_SEPARATOR, searchTextJson, searchTextOf } from "./search-text";

const RUN = path.resolve("fixtures/runs", SEARCH_RUN);

async function textOfRollout(id: string) {
  const capture = await readRolloutCapture(path.join(RUN, "tokens"), id);
  const verdict = decideVerdict(capture.snapshot, { profile: "seed" });
  const exchanges = (await readCaptureStore(path.join(RUN, "model-calls"), id)).exchanges;
  const text = searchTextOf(
    verdict,
    exchanges.map((x) => x.exchange),
    await o200kDecoder(),
  );
  if (!text) throw new Error(`${id}: no search text`);
  const bytes = text.deflated ? inflateRawSync(text.body) : Buffer.from(text.body);
  expect(bytes.length).toBe(text.bytes);
  return { ...text, bytes, body: bytes.toString("utf8"), segments: searchTextJson(text).segments };
}

/** The token file's last call: its prompt and generation are the whole main chain. */
function lastCall(id: string): { prompt_token_ids: number[]; generation_token_ids: number[] } {
  const lines = readFileSync(path.join(RUN, "tokens", `${id}.tokens.jsonl`), "utf8").trim();
  return JSON.parse(lines.split("\n").at(-1) as string);
}

describe("a rollout's search text", () => {
  it("is the main chain once: its input and generated segments join to the last call's tokens", async () => {
    for (const id of SEARCH_TRUTH.systemMarker.rollouts) {
      const text = await textOfRollout(id);
      const last = lastCall(id);
      const chain = [...last.prompt_token_ids, ...last.generation_token_ids];
      const own = text.segments.filter(([kind]) => kind !== "e");
      const parts = text.body.split(SEGMENT_SEPARATOR).slice(0, own.length);
      expect(parts.join("")).toBe(decode(chain));
      // Token ranges tile the chain: each starts where the one before ended.
      let pos = 0;
      for (const [, , start, tokens] of own) {
        expect(start).toBe(pos);
        pos += tokens;
      }
      expect(pos).toBe(chain.length);
      // The system prompt is in every call's prompt, and indexed once.
      expect(text.body.split(SEARCH_TRUTH.systemMarker.phrase).length - 1).toBe(1);
    }
  });

  it("keeps a failed call's error body as its own segment, with no tokens", async () => {
    const text = await textOfRollout(SEARCH_TRUTH.errorBody.rollouts[0]);
    const errors = text.segments.filter(([kind]) => kind === "e");
    expect(errors).toHaveLength(1);
    const [, , start, tokens, at] = errors[0] as (typeof errors)[number];
    expect([start, tokens]).toEqual([-1, 0]);
    // Offsets are bytes of the UTF-8 text.
    expect(text.bytes.subarray(at).toString("utf8")).toContain(SEARCH_TRUTH.errorBody.phrase);
  });
});
