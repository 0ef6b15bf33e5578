// Both implementations of raw DEFLATE read what the other writes: text written by a store worker
// (fflate) is read on the server's thread (node:zlib) and text written by a former version's
// worker (node:zlib) is read by any thread. Checked on this test's thread against node:zlib.
import { isMainThread } from "node:worker_threads";
import { deflateRawSync, inflateRawSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { deflateSync, inflateSync } from "fflate";
import { rawDeflate, rawInflate } from "./raw-deflate";

const TEXT = Buffer.from("the agent ran `python` once\u0001and printed 42 — «ok» 𝄞 ".repeat(60));

describe("raw DEFLATE on any thread", () => {
  it("fflate and node:zlib read each other's raw streams", () => {
    expect(Buffer.from(inflateRawSync(deflateSync(TEXT, { level: 1 })))).toEqual(TEXT);
    expect(Buffer.from(inflateSync(deflateRawSync(TEXT, { level: 1 })))).toEqual(TEXT);
  });

  it("what this thread writes node:zlib reads, and it reads node:zlib's", () => {
    const body = rawDeflate(TEXT);
    expect(body.length).toBeLessThan(TEXT.length / 4);
    expect(inflateRawSync(body)).toEqual(TEXT);
    expect(rawInflate(deflateRawSync(TEXT))).toEqual(TEXT);
  });

  it("writes fflate's bytes on any thread, and off the main thread reads with fflate", () => {
    expect(isMainThread).toBe(false); // vitest runs this file on a worker thread
    const body = rawDeflate(TEXT);
    expect(Buffer.from(body)).toEqual(Buffer.from(deflateSync(TEXT, { level: 1 })));
    expect(rawInflate(body)).toEqual(TEXT);
  });
});
