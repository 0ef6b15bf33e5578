// The severity classes in app/globals.css are severityCss()'s output, so the stylesheet and the
// palette the contrast tests check cannot drift apart.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SEVERITY_CLASS, severityCss } from "@/lib/severity";

describe("globals.css severity classes", () => {
  const css = readFileSync(path.join(process.cwd(), "app", "globals.css"), "utf8");
  // Prettier lays a rule out over several lines: compare with whitespace collapsed.
  const flat = (s: string) => s.replace(/\s+/g, " ").replace(/\s*([{};:])\s*/g, "$1");

  it("holds every rule severityCss() writes, once", () => {
    const rules = severityCss().split("\n");
    expect(rules).toHaveLength(Object.keys(SEVERITY_CLASS).length);
    for (const rule of rules) expect(flat(css).split(flat(rule)).length - 1, rule).toBe(1);
  });

  it("keeps no rule of the removed call tree and token grid", () => {
    for (const dead of [
      ".tree-row",
      ".token-row",
      ".gutter",
      ".seg-header",
      ".token-scroll",
      ".tok.",
    ]) {
      expect(css, dead).not.toContain(dead);
    }
  });
});
