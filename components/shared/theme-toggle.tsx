"use client";
// The top bar's theme choice: system (prefers-color-scheme), light or dark. A choice takes effect
// at once (the attribute on <html> that app/globals.css keys on) and is remembered in a cookie the
// root layout reads, so the next page's first HTML already carries it: no script before paint.
import { useState } from "react";
import { THEME_CHOICES, themeChoiceOf, themeCookie, type ThemeChoice } from "@/lib/view";
import { LiveSelect } from "./live-controls";

const LABEL: Readonly<Record<ThemeChoice, string>> = {
  system: "system",
  light: "light",
  dark: "dark",
};

export function ThemeToggle({ initial }: { initial: ThemeChoice }) {
  const [choice, setChoice] = useState(initial);

  function choose(next: ThemeChoice) {
    setChoice(next);
    document.cookie = themeCookie(next);
    const root = document.documentElement;
    if (next === "system") root.removeAttribute("data-theme");
    else root.setAttribute("data-theme", next);
  }

  return (
    <label className="theme-toggle">
      <span className="muted">theme</span>
      <LiveSelect
        value={choice}
        onChange={(e) => choose(themeChoiceOf(e.target.value))}
        data-testid="theme-toggle"
      >
        {THEME_CHOICES.map((c) => (
          <option key={c} value={c}>
            {LABEL[c]}
          </option>
        ))}
      </LiveSelect>
    </label>
  );
}
