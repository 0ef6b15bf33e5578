// Every store of fixtures/gym-v1-cases (a copy of ../shared/spec/gym-v1-cases) through the CLI,
// `--profile gym-v1`, `--profile auto` and no flag at all (auto is the default), against
// expected.jsonl: Gym main's own consumer's answer.
// Token ids are compared as written (digits), so an id past 2^53 must come out exact.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { fingerprintDir } from "@/lib/testing/temp-store";

const CASES = path.resolve("fixtures/gym-v1-cases");
const SHARED = path.resolve("../shared/spec/gym-v1-cases");

beforeAll(() => void execFileSync(process.execPath, ["scripts/build-node.mjs"]), 60_000);

function walk(dir: string, base = dir): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((d) =>
      d.isDirectory()
        ? walk(path.join(dir, d.name), base)
        : [path.relative(base, path.join(dir, d.name))],
    )
    .sort();
}

/** The `token_ids` list of a JSON line as written, spacing removed (digits kept exact). */
function rawTokenIds(jsonLine: string): string | null {
  const m = /"token_ids":\s*\[([^\]]*)\]/.exec(jsonLine);
  return m ? (m[1] as string).replace(/\s+/g, "") : null;
}

interface Row {
  rollout_id: string;
  mask_sample: boolean;
  error: string | null;
  metrics: Record<string, unknown>;
  torn_tail: boolean;
  main: null | { call_ids: string[]; token_ids: number[]; loss_mask: number[] };
}

const cases = readdirSync(CASES).sort();

describe("fixtures/gym-v1-cases", () => {
  it("holds the thirteen cases Gym main answered", () => {
    expect(cases.length).toBeGreaterThanOrEqual(13);
  });
  it.skipIf(!existsSync(SHARED))(
    "is the spec's case set, byte for byte (skipped when ../shared is not beside the clone)",
    () => {
      expect(walk(CASES)).toEqual(walk(SHARED));
      for (const rel of walk(SHARED))
        expect(
          readFileSync(path.join(CASES, rel)).equals(readFileSync(path.join(SHARED, rel))),
          rel,
        ).toBe(true);
    },
  );
});

for (const profile of ["gym-v1", "auto", null] as const) {
  const flag = profile === null ? [] : ["--profile", profile];
  describe(`rollout-lens build ${flag.join(" ") || "(no flag)"} agrees with Gym main's consumer`, () => {
    for (const name of cases) {
      it(name, () => {
        const dir = path.join(CASES, name);
        const before = fingerprintDir(dir);
        const res = spawnSync(process.execPath, ["cli/bin.mjs", "build", dir, "--jsonl", ...flag], {
          encoding: "utf8",
        });
        expect(res.status, res.stderr).toBe(0);
        const expectedLines = readFileSync(path.join(dir, "expected.jsonl"), "utf8")
          .trim()
          .split("\n");
        const gotLines = res.stdout.trim().split("\n");
        expect(gotLines).toHaveLength(expectedLines.length);
        expectedLines.forEach((raw, k) => {
          const want = JSON.parse(raw) as Row;
          const gotRaw = gotLines[k] as string;
          const got = JSON.parse(gotRaw) as Row & { profile: string };
          expect(got.rollout_id).toBe(want.rollout_id);
          expect(got.profile).toBe("gym-v1");
          expect(got.mask_sample).toBe(want.mask_sample);
          expect(got.error).toBe(want.error);
          expect(got.metrics).toEqual(want.metrics);
          expect(got.torn_tail).toBe(want.torn_tail);
          if (want.main === null) {
            expect(got.main).toBeNull();
            return;
          }
          expect(got.main?.call_ids).toEqual(want.main.call_ids);
          expect(got.main?.loss_mask).toEqual(want.main.loss_mask);
          expect(rawTokenIds(gotRaw)).toBe(rawTokenIds(raw));
        });
        expect(fingerprintDir(dir)).toEqual(before);
      });
    }
  });
}
