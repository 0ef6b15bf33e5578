// The lint rule that keeps lib's folders behind their faces (eslint-rules/public-faces): which
// imports must go through a face, checked on paths written out here, and the rule run by ESLint
// on source text, so a deep import fails lint.
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";
import { faceNeeded, publicFaces } from "../eslint-rules/public-faces.mjs";

describe("faceNeeded", () => {
  it.each([
    ["app/api/runs/route.ts", "lib/runs/root", "lib/runs"],
    ["lib/health/run-health.ts", "lib/index/run-index", "lib/index"],
    ["lib/health/run-health.ts", "lib/index/shards/set", "lib/index"],
    ["lib/index/run-index.ts", "lib/index/shards/set", "lib/index/shards"],
    ["components/run/run-overview.tsx", "lib/health/number-sources", "lib/health"],
  ])("%s importing %s goes through %s", (importer, file, face) => {
    expect(faceNeeded(importer, file)).toBe(face);
  });

  it.each([
    ["app/api/runs/route.ts", "lib/runs/index"],
    ["components/run/run-overview.tsx", "lib/health/pure"],
    ["lib/index/run-index.ts", "lib/index/rows"],
    ["lib/index/shards/set.ts", "lib/index/rows"],
    ["lib/index/run-index.ts", "lib/index/shards/index"],
    ["lib/health/run-health.ts", "lib/errors"],
    ["lib/health/run-health.ts", "lib/testing/fixture-runs"],
    ["app/page.tsx", "components/run/run-overview"],
  ])("%s may import %s", (importer, file) => {
    expect(faceNeeded(importer, file)).toBeNull();
  });
});

describe("the rule in ESLint", () => {
  it("is on for product code and off for tests", async () => {
    const eslint = new ESLint();
    const rule = async (file: string) =>
      ((await eslint.calculateConfigForFile(file)) as { rules: Record<string, unknown> }).rules[
        "lens/public-faces"
      ];
    expect(await rule("lib/health/run-health.ts")).toEqual([2]);
    expect(await rule("components/run/run-overview.tsx")).toEqual([2]);
    expect(await rule("lib/health/health.test.ts")).toBeUndefined();
  }, 60_000);

  it("fails a deep import and passes the face", async () => {
    const eslint = new ESLint({
      overrideConfigFile: true,
      overrideConfig: [
        {
          plugins: { lens: { rules: { "public-faces": publicFaces } } },
          rules: { "lens/public-faces": "error" },
        },
      ],
    });
    const lint = async (code: string) =>
      (await eslint.lintText(code, { filePath: "lib/health/probe.js" }))[0]!.messages;
    const deep = await lint(
      'import { getRun } from "@/lib/runs/root";\nexport const a = getRun;\n',
    );
    expect(deep).toHaveLength(1);
    expect(deep[0]!.message).toContain('import its face "@/lib/runs"');
    expect(await lint('import { getRun } from "@/lib/runs";\nexport const a = getRun;\n')).toEqual(
      [],
    );
  });
});
