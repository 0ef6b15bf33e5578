// The two themes: the choice the top bar remembers (its cookie, read by the root layout) and the
// colours app/globals.css gives each theme (`--name: light-dark(LIGHT, DARK)`), read back from the
// stylesheet's text so tests can hold every pair to WCAG contrast. Picking the theme in the page is
// the stylesheet's (color-scheme) and components/shared/theme-toggle's; this reads no files.

export type Theme = "light" | "dark";
/** "system" follows prefers-color-scheme; the other two override it. */
export type ThemeChoice = Theme | "system";

export const THEMES: readonly Theme[] = ["light", "dark"];
export const THEME_CHOICES: readonly ThemeChoice[] = ["system", "light", "dark"];
export const THEME_COOKIE = "rl-theme";
const YEAR_SECONDS = 365 * 24 * 60 * 60;

/** A cookie's value as a choice; anything else (absent, stale, forged) is "system". */
export function themeChoiceOf(value: string | undefined | null): ThemeChoice {
  return value === "light" || value === "dark" ? value : "system";
}

/** The `document.cookie` assignment that remembers a choice; "system" forgets it. */
export function themeCookie(choice: ThemeChoice): string {
  const attrs = "path=/; SameSite=Lax";
  if (choice === "system") return `${THEME_COOKIE}=; ${attrs}; Max-Age=0`;
  return `${THEME_COOKIE}=${choice}; ${attrs}; Max-Age=${YEAR_SECONDS}`;
}

/** The two arguments of the first `light-dark(…)` in a value, split at its top-level comma. */
function lightDarkArgs(value: string): [string, string] | null {
  const open = value.indexOf("light-dark(");
  if (open < 0) return null;
  let depth = 0;
  let comma = -1;
  for (let i = open + "light-dark(".length; i < value.length; i++) {
    const ch = value[i];
    if (ch === "(") depth++;
    else if (ch === ")" && depth === 0) {
      if (comma < 0) return null;
      return [value.slice(open + 11, comma).trim(), value.slice(comma + 1, i).trim()];
    } else if (ch === ")") depth--;
    else if (ch === "," && depth === 0 && comma < 0) comma = i;
  }
  return null;
}

/**
 * Every custom property the stylesheet declares with light-dark(), by theme: `--bg` →
 * `#f6f7f9` (light) and `#0f1115` (dark). Properties without light-dark() are left out.
 */
export function readThemeColours(css: string): Record<Theme, Map<string, string>> {
  const out: Record<Theme, Map<string, string>> = { light: new Map(), dark: new Map() };
  const decl = /(--[\w-]+)\s*:\s*([^;{}]+);/g;
  for (const m of css.matchAll(decl)) {
    const args = lightDarkArgs(m[2] as string);
    if (!args) continue;
    out.light.set(m[1] as string, args[0]);
    out.dark.set(m[1] as string, args[1]);
  }
  return out;
}

/** A colour as one theme draws it: `var(--x)` followed to its value, a literal as it is. */
export function resolveColour(value: string, colours: ReadonlyMap<string, string>): string {
  let v = value.trim();
  for (let hops = 0; hops < 8; hops++) {
    const ref = /^var\((--[\w-]+)\)$/.exec(v);
    if (!ref) return v;
    const next = colours.get(ref[1] as string);
    if (next === undefined) throw new Error(`${ref[1]} is not a themed property`);
    v = next.trim();
  }
  throw new Error(`${value}: var() references nest too deep`);
}
