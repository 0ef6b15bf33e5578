"use client";
// Whether this component has hydrated: false in the server's HTML and while React hydrates it,
// true from the render after. A control whose choice only its script can keep (a select reverts to
// its value when the page hydrates) is disabled until then, so no choice is silently lost.
import { useSyncExternalStore } from "react";

const never = () => () => {};

export function useHydrated(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
}
