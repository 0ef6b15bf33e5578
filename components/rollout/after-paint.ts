// Work the inspector leaves until the page has painted: the first token rows are in the page's
// HTML, so an idle callback after hydration runs after them. Returns a cancel function.
export function whenIdle(run: () => void, timeoutMs = 2_000): () => void {
  if (typeof window.requestIdleCallback === "function") {
    const id = window.requestIdleCallback(run, { timeout: timeoutMs });
    return () => window.cancelIdleCallback(id);
  }
  const id = window.setTimeout(run, 200);
  return () => window.clearTimeout(id);
}
