import { readFileSync } from "node:fs";
import path from "node:path";
import { decode } from "gpt-tokenizer/encoding/o200k_base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RUNS_DIR } from "@/fixtures/generate";
import { conversationPageSchema, type ConversationMessage } from "@/lib/schema/api-conversation";
import { tokenWindowSchema } from "@/lib/schema/api-tokens";
import { GET as getTokens } from "../tokens/route";
import { GET } from "./route";

const prev = process.env.ROLLOUT_LENS_RUNS;
beforeAll(() => {
  process.env.ROLLOUT_LENS_RUNS = RUNS_DIR;
});
afterAll(() => {
  if (prev === undefined) delete process.env.ROLLOUT_LENS_RUNS;
  else process.env.ROLLOUT_LENS_RUNS = prev;
});

const ctx = (run: string, rollout: string) => ({ params: Promise.resolve({ run, rollout }) });
const req = (qs: string) => new Request(`http://localhost/api/runs/x/rollouts/y/conversation${qs}`);
const RUN = "claude-code-capture-on";

/** The first user turn of the rollout's first policy call, decoded here from the token file. */
function firstUserText(rollout: string): string {
  const lines = readFileSync(
    path.join(RUNS_DIR, RUN, "tokens", `${rollout}.tokens.jsonl`),
    "utf8",
  ).split("\n");
  const entry = lines
    .map((l) => (l.trim() ? JSON.parse(l) : null))
    .find((e) => e?.requested_model === "claude-opus-4-1");
  const text = decode(entry.prompt_token_ids as number[]);
  const from = text.indexOf("<|im_start|>user\n") + "<|im_start|>user\n".length;
  return text.slice(from, text.indexOf("<|im_end|>", from));
}

describe("GET …/conversation", () => {
  it("answers a page the schema parses, with the fixture's first user message", async () => {
    const res = await GET(req("?chain=main&limit=20"), ctx(RUN, "10-0"));
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const page = conversationPageSchema.parse(await res.json());
    const user = page.items.find(
      (i): i is ConversationMessage => i.kind === "message" && i.role === "user",
    );
    const expected = firstUserText("10-0");
    expect(expected.length).toBeGreaterThan(20);
    expect(user?.blocks.map((b) => b.spans.map((s) => s.text).join(""))).toEqual([expected]);
  });

  it("every span's range has its mask in the token windows, and token text matches", async () => {
    const page = conversationPageSchema.parse(
      await (await GET(req("?limit=200&clip=200000"), ctx(RUN, "10-0"))).json(),
    );
    let checked = 0;
    for (const m of page.items) {
      if (m.kind !== "message") continue;
      for (const s of m.blocks.flatMap((b) => b.spans)) {
        const res = await getTokens(
          new Request(`http://localhost/x?chain=main&offset=${s.start}&limit=${s.end - s.start}`),
          ctx(RUN, "10-0") as never,
        );
        const w = tokenWindowSchema.parse(await res.json());
        expect(new Set(w.tokens.mask)).toEqual(new Set([s.mask]));
        // A block's edges are trimmed of whitespace, which may sit inside its edge tokens.
        if (m.source === "tokens") expect(w.tokens.text!.join("").trim()).toBe(s.text.trim());
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(10);
  });

  it("maps unknown things to 404 and bad parameters to 400", async () => {
    const cases: Array<[string, string, number, RegExp]> = [
      ["?chain=branch-7", "10-0", 404, /no chain branch-7/],
      ["?chain=call:zz", "10-0", 404, /no call zz/],
      ["?limit=0", "10-0", 400, /limit/],
      ["?offset=-3", "10-0", 400, /offset/],
      ["?profile=best", "10-0", 400, /profile must be one of/],
      ["", "99-9", 404, /unknown rollout 99-9|99-9/],
      ["", "../x", 400, /invalid rollout id/],
    ];
    for (const [qs, rollout, status, message] of cases) {
      const res = await GET(req(qs), ctx(RUN, rollout));
      expect(res.status, qs || rollout).toBe(status);
      expect((await res.json()).error).toMatch(message);
    }
  });
});
