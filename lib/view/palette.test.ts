// Both themes' colours, read from app/globals.css itself, held to WCAG 2.x contrast: text 4.5:1 on
// what it is drawn on, chart marks and outlines 3:1 on the pages (1.4.11). The pairs are written
// here from the stylesheets and components (what sits on what), and the ratio from the WCAG
// definition, so a bad colour in either theme fails this test.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  readThemeColours,
  resolveColour,
  THEMES,
  themeChoiceOf,
  themeCookie,
  type Theme,
} from "./palette";

const ROOT = process.cwd();
const GLOBALS = readFileSync(path.join(ROOT, "app", "globals.css"), "utf8");

// https://www.w3.org/TR/WCAG21/#dfn-relative-luminance and #dfn-contrast-ratio
function luminance(hex: string): number {
  const m = /^#([0-9a-f]{6})$/i.exec(hex);
  if (!m) throw new Error(`not a #rrggbb colour: ${hex}`);
  const n = parseInt(m[1] as string, 16);
  const [r, g, b] = [n >> 16, (n >> 8) & 255, n & 255].map((v) => {
    const c = v / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}
/** HSL hue in degrees. */
function hue(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255) as [
    number,
    number,
    number,
  ];
  const max = Math.max(r, g, b),
    d = max - Math.min(r, g, b);
  if (d === 0) return 0;
  const h = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  return (h * 60 + 360) % 360;
}
const isGreen = (hex: string) => hue(hex) >= 90 && hue(hex) <= 170;

type Pair = [fg: string, bg: string];
const cross = (fgs: string[], bgs: string[]): Pair[] =>
  fgs.flatMap((f) => bgs.map((b): Pair => [f, b]));
const SEVERITIES = ["trained", "warn", "masked", "pending"];
const TOKEN_SWATCHES = [
  "tok-refed",
  ...[0, 1, 2, 3, 4, 5].map((i) => `tok-gen-${i}`),
  "tok-unscored",
  "tok-quiet",
  ...[0, 1, 2, 3, 4].map((i) => `mm-${i}`),
  "mm-none",
];
const CONVERSATION_TEXT = [
  "conv-system",
  "conv-user",
  "conv-assistant",
  "conv-tool",
  "conv-other",
  "conv-title",
  "conv-refed",
  "conv-failed",
  "muted",
  "text",
];

/** Text (4.5:1): `fg` drawn on `bg`, both property names without the dashes. */
const TEXT_PAIRS: Pair[] = [
  // The page's words, links and status colours on its backgrounds, table rows and timeline rows.
  ...cross(
    ["text", "muted", "accent", "ok", "warn", "bad"],
    ["bg", "panel", "panel-2", "error-bg", "selected-bg"],
  ),
  ...cross(["text", "muted", "accent"], ["row-main-bg", "row-masked-bg", "code-bg"]),
  ["error-text", "error-bg"],
  ["on-accent", "accent"],
  // Severity pills on their own background and on the pages; alerts keep text and links.
  ...SEVERITIES.flatMap((s) => cross([`sev-${s}-fg`], [`sev-${s}-bg`, "bg", "panel", "panel-2"])),
  ...cross(
    ["text", "accent"],
    SEVERITIES.map((s) => `sev-${s}-bg`),
  ),
  // The token view: every swatch's text on its background; headers, gutter, legend on the canvas.
  ...TOKEN_SWATCHES.map((s): Pair => [`${s}-fg`, `${s}-bg`]),
  ...cross(["text", "muted", "tok-gutter", "ok", "warn"], ["tok-canvas"]),
  // The conversation tab: role names, re-fed and muted text on the card and in tool blocks.
  ...cross(CONVERSATION_TEXT, ["panel", "conv-tool-bg"]),
  ["conv-gen-fg", "conv-gen-bg"],
  ["muted", "bg"],
  // A search hit's marked text on its mark.
  ["hit-fg", "hit-bg"],
  // Chart hover boxes name each run's value in its colour.
  ...cross(["run-a", "run-b", "run-diff", "chart-neutral", "chart-neutral-2"], ["panel"]),
];

/** Graphics (3:1): chart marks and outlines on the pages, the selection ring on tokens' canvas. */
const GRAPHIC_PAIRS: Pair[] = [
  ...cross(
    [
      ...SEVERITIES.map((s) => `sev-${s}-chart`),
      "chart-neutral",
      "chart-neutral-2",
      "chart-neutral-3",
      "run-a",
      "run-b",
      "run-diff",
      "accent",
    ],
    ["bg", "panel"],
  ),
  ["warn", "tok-canvas"],
  ["conv-gen-line", "panel"],
];

function failures(css: string, pairs: Pair[], min: number): string[] {
  const colours = readThemeColours(css);
  const out: string[] = [];
  for (const theme of THEMES) {
    const at = (name: string) => resolveColour(`var(--${name})`, colours[theme]);
    for (const [fg, bg] of pairs) {
      const ratio = contrast(at(fg), at(bg));
      if (ratio < min) out.push(`${theme}: --${fg} on --${bg} is ${ratio.toFixed(2)}:1`);
    }
  }
  return out;
}

describe("the themes' palette (app/globals.css)", () => {
  const colours = readThemeColours(GLOBALS);

  it("gives every text pair at least 4.5:1 in both themes", () => {
    expect(failures(GLOBALS, TEXT_PAIRS, 4.5)).toEqual([]);
  });

  it("gives chart marks and outlines at least 3:1 on the pages in both themes", () => {
    expect(failures(GLOBALS, GRAPHIC_PAIRS, 3)).toEqual([]);
  });

  it("fails when a colour is made unreadable in one theme", () => {
    // The light --muted turned pale grey: every pair with muted text fails, in light only.
    const bad = GLOBALS.replace(
      /--muted: light-dark\(#[0-9a-f]{6},/,
      "--muted: light-dark(#b0b4bb,",
    );
    expect(bad).not.toBe(GLOBALS);
    const found = failures(bad, TEXT_PAIRS, 4.5);
    expect(found).toContain(
      `light: --muted on --panel is ${contrast("#b0b4bb", "#ffffff").toFixed(2)}:1`,
    );
    expect(found.every((f) => f.startsWith("light: --muted"))).toBe(true);
  });

  it("never draws masked green and draws trained green, in both themes", () => {
    for (const theme of THEMES) {
      for (const part of ["fg", "bg", "border", "chart"]) {
        const masked = colours[theme].get(`--sev-masked-${part}`) as string;
        expect(isGreen(masked), `${theme} masked ${part} ${masked}`).toBe(false);
      }
      for (const part of ["fg", "bg", "chart"]) {
        const trained = colours[theme].get(`--sev-trained-${part}`) as string;
        expect(isGreen(trained), `${theme} trained ${part} ${trained}`).toBe(true);
      }
    }
  });

  it("sets generated tokens farther from the canvas the more probable, in both themes", () => {
    for (const theme of THEMES) {
      const at = (n: string) => colours[theme].get(n) as string;
      const canvas = at("--tok-canvas");
      const distance = [0, 1, 2, 3, 4, 5].map((i) => contrast(at(`--tok-gen-${i}-bg`), canvas));
      for (let i = 1; i < distance.length; i++)
        expect(distance[i], `${theme} shade ${i}`).toBeLessThan(distance[i - 1] as number);
    }
  });
});

/** The files under `dirs` whose names end with `ext`, with their text. */
function sources(dirs: readonly string[], ext: RegExp): Array<{ file: string; text: string }> {
  const found: Array<{ file: string; text: string }> = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const rel = path.join(dir, e.name);
      if (e.isDirectory()) walk(rel);
      else if (ext.test(e.name))
        found.push({ file: rel, text: readFileSync(path.join(ROOT, rel), "utf8") });
    }
  };
  dirs.forEach(walk);
  return found;
}

/** Every stylesheet of the app and the components. */
function stylesheets(): Array<{ file: string; css: string }> {
  return sources(["app", "components"], /\.css$/).map(({ file, text }) => ({ file, css: text }));
}

describe("every colour is a themed property", () => {
  const colours = readThemeColours(GLOBALS);
  // Properties that are no colour, or set per class from themed ones (.sev-* sets --sev-chart).
  const UNTHEMED = new Set(["--mono", "--sans", "--sev-chart"]);

  it("has a light and a dark value for every property it declares with light-dark()", () => {
    expect(colours.light.size).toBeGreaterThan(80);
    expect([...colours.light.keys()]).toEqual([...colours.dark.keys()]);
    for (const theme of THEMES)
      for (const [name, v] of colours[theme])
        expect(/^#[0-9a-f]{6}$|^rgba\(/i.test(v), `${theme} ${name}: ${v}`).toBe(true);
  });

  it("writes no colour literal outside the themes' declarations", () => {
    const literal = /#[0-9a-f]{3,8}\b|rgba?\(|hsla?\(/i;
    for (const { file, css } of stylesheets()) {
      const rules = css
        .replace(/\/\*[\s\S]*?\*\//g, "")
        .replace(/--[\w-]+\s*:\s*light-dark\([^;]*\);/g, "");
      expect(literal.exec(rules)?.[0], file).toBeUndefined();
    }
  });

  // So a theme chosen in the top bar paints exactly the system's theme of the same name, and
  // e2e/a11y.spec checks the contrast of each page once per theme, not again under the cookie.
  it("is picked by the root's color-scheme alone: no other rule or script asks the system", () => {
    const system =
      /^@media \(prefers-color-scheme: light\) \{\s*:root \{\s*color-scheme: light;\s*\}$/;
    const choice = /^:root\[data-theme="(light|dark)"\] \{\s*color-scheme: \1;\s*\}$/;
    const found: string[] = [];
    for (const { file, text } of sources(["app", "components", "lib"], /\.(css|tsx?)$/)) {
      if (/\.test\.tsx?$/.test(file)) continue;
      const code = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
      if (/matchMedia\s*\(/.test(code)) found.push(`${file}: matchMedia`);
      const rules = [
        ...code.matchAll(/@media[^{]*prefers-color-scheme[^{]*\{([^{}]*\{[^}]*\})*/g),
        ...code.matchAll(/[^{}]*\[data-theme[^{]*\{[^}]*\}/g),
      ].map((m) => m[0].trim());
      for (const r of rules)
        if (!system.test(r) && !choice.test(r)) found.push(`${file}: ${r.slice(0, 60)}`);
    }
    expect(found).toEqual([]);
  });

  it("refers only to properties the themes define", () => {
    for (const { file, css } of stylesheets())
      for (const m of css.matchAll(/var\((--[\w-]+)/g)) {
        const name = m[1] as string;
        expect(UNTHEMED.has(name) || colours.light.has(name), `${file}: ${name}`).toBe(true);
      }
  });
});

describe("the remembered choice", () => {
  it("reads only light and dark from the cookie; anything else follows the system", () => {
    expect(themeChoiceOf("light")).toBe("light");
    expect(themeChoiceOf("dark")).toBe("dark");
    for (const v of [undefined, null, "", "system", "Light", "blue"])
      expect(themeChoiceOf(v)).toBe("system");
  });

  it("keeps a choice a year at the site's root and forgets it for system", () => {
    expect(themeCookie("light")).toBe("rl-theme=light; path=/; SameSite=Lax; Max-Age=31536000");
    expect(themeCookie("system")).toBe("rl-theme=; path=/; SameSite=Lax; Max-Age=0");
  });
});

describe("readThemeColours and resolveColour", () => {
  it("splits light-dark() at its top-level comma and follows var() chains", () => {
    const css =
      ":root { --a: light-dark(#ffffff, #000000); --b: light-dark(rgba(1, 2, 3, 0.5), #111111); --c: 12px; }";
    const c = readThemeColours(css);
    expect(c.light.get("--b")).toBe("rgba(1, 2, 3, 0.5)");
    expect(c.dark.get("--b")).toBe("#111111");
    expect(c.light.has("--c")).toBe(false);
    const theme: Theme = "dark";
    expect(resolveColour("var(--a)", c[theme])).toBe("#000000");
    expect(resolveColour("#123456", c[theme])).toBe("#123456");
    expect(() => resolveColour("var(--nope)", c[theme])).toThrow(/--nope/);
  });
});
