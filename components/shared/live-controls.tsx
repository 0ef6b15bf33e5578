"use client";
// A select or an input of a page's server HTML that only its script can act on: disabled until the
// page has hydrated (./use-hydrated), so a choice made before it is never silently dropped. Leaves:
// only the control renders again as the page hydrates, never the view around it.
import type { InputHTMLAttributes, SelectHTMLAttributes } from "react";
import { useHydrated } from "./use-hydrated";

export function LiveSelect(props: SelectHTMLAttributes<HTMLSelectElement>) {
  const hydrated = useHydrated();
  return <select {...props} disabled={Boolean(props.disabled) || !hydrated} />;
}

export function LiveInput(props: InputHTMLAttributes<HTMLInputElement>) {
  const hydrated = useHydrated();
  return <input {...props} disabled={Boolean(props.disabled) || !hydrated} />;
}
