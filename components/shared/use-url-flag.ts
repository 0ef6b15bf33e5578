"use client";
// A checkbox whose truth is in the URL: it shows the click at once (the URL update is a navigation
// that can take a moment on a busy machine) and follows the URL as soon as the URL changes (the
// click landing, back, forward, a link). Without it, the box snaps back until the new URL renders.
import { useState } from "react";

export function useUrlFlag(fromUrl: boolean): [boolean, (next: boolean) => void] {
  // The clicked value, kept only while the URL still says what it said at the click.
  const [clicked, setClicked] = useState<{ at: boolean; value: boolean } | null>(null);
  const shown = clicked !== null && clicked.at === fromUrl ? clicked.value : fromUrl;
  return [shown, (value) => setClicked({ at: fromUrl, value })];
}
