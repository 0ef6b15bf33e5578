// A virtual scroll area walked from its top to its end inside the page, in one evaluation: at each
// step (0.9 of the area's height) it waits frame by frame, up to 30 s, until what is in view is
// drawn, and keeps what the area held then. A step costs the page's own work, not the test's
// round trips. Two kinds of area: a virtual list's rows (the call timeline, the conversation) and
// the token view's spans (./token-view). One function holds both readers: page.evaluate sends a
// function's source alone.
import type { Page } from "@playwright/test";
import { expectHydrated } from "./hydration";

/** A virtual list at one scroll position. */
export interface ListState {
  rows: number;
  /** DOM elements inside the scroll area: rows and everything in them. */
  elements: number;
  /** The rendered rows reach the top and bottom edges of the scroll area (or the list's ends). */
  covers: boolean;
  /** Rows with content (not a placeholder waiting for its page) among those in view. */
  pendingInView: number;
  atEnd: boolean;
  items: Array<{ key: string; overflow: boolean; inView: boolean }>;
}

/** The token view at one scroll position. */
export interface DomState {
  spans: number;
  pending: number;
  min: number;
  max: number;
  /** Painted positions form one run min..max with no gap. */
  contiguous: boolean;
  /** Painted tokens reach the top and bottom edges of the scroll area (or the chain's ends). */
  covers: boolean;
  atEnd: boolean;
}

/** A list's scroll area, its rows, and what a loaded row holds. */
export type ListArea = { kind: "list"; scroll: string; row: string; ready: string };
/** The token view's scroll area, its spans (painted or waiting) and the chain's length. */
export type TokenArea = {
  kind: "tokens";
  scroll: string;
  span: string;
  painted: string;
  pending: string;
  total: number;
};
type Area = ListArea | TokenArea;
type State = ListState | DomState;

/** Runs in the page: the area's state now (`read`), or every step's of a walk (or why it stopped). */
async function inPage([area, mode]: readonly [Area, "read" | "walk"]): Promise<
  State | State[] | string
> {
  const el = document.querySelector<HTMLElement>(area.scroll)!;
  const edges = () => {
    const top = el.getBoundingClientRect().top + el.clientTop;
    return { top, bottom: top + el.clientHeight };
  };
  const atEnd = () => el.scrollTop + el.clientHeight >= el.scrollHeight - 1;
  const readList = (a: ListArea): ListState => {
    const { top, bottom } = edges();
    const rows = [...el.querySelectorAll<HTMLElement>(a.row)];
    const boxes = rows.map((r) => r.getBoundingClientRect());
    const inView = boxes.map((b) => b.bottom > top && b.top < bottom);
    const end = atEnd();
    return {
      rows: rows.length,
      elements: el.querySelectorAll("*").length,
      covers:
        rows.length > 0 &&
        (el.scrollTop <= 0 || boxes.some((b) => b.top <= top + 1)) &&
        (end || boxes.some((b) => b.bottom >= bottom - 1)),
      pendingInView: rows.filter(
        (r, i) => inView[i] && !r.matches(a.ready) && !r.querySelector(a.ready),
      ).length,
      atEnd: end,
      items: rows.map((r, i) => ({
        key: r.dataset.callNumber ?? r.dataset.index ?? "",
        overflow: r.scrollWidth > r.clientWidth,
        inView: inView[i]!,
      })),
    };
  };
  const readTokens = (a: TokenArea): DomState => {
    const { top, bottom } = edges();
    const painted = [...document.querySelectorAll<HTMLElement>(a.painted)];
    const pos = painted.map((s) => Number(s.dataset.pos));
    const min = Math.min(...pos),
      max = Math.max(...pos);
    const first = painted[pos.indexOf(min)]?.getBoundingClientRect();
    const last = painted[pos.indexOf(max)]?.getBoundingClientRect();
    return {
      spans: document.querySelectorAll(a.span).length,
      pending: document.querySelectorAll(a.pending).length,
      min,
      max,
      contiguous: new Set(pos).size === max - min + 1 && pos.length === max - min + 1,
      covers:
        painted.length > 0 &&
        !!first &&
        !!last &&
        (min === 0 || first.top <= top + 1) &&
        (max === a.total - 1 || last.bottom >= bottom - 1),
      atEnd: atEnd(),
    };
  };
  const read = (): State => (area.kind === "list" ? readList(area) : readTokens(area));
  const drawn = (s: State) =>
    s.covers && ("pendingInView" in s ? s.pendingInView === 0 : s.pending === 0);
  if (mode === "read") return read();
  const frame = () => new Promise((r) => requestAnimationFrame(r));
  const states: State[] = [];
  el.scrollTo(0, 0);
  for (let step = 0; step < 5_000; step++) {
    const t0 = performance.now();
    let state = read();
    while (!drawn(state)) {
      if (performance.now() - t0 > 30_000)
        return `step ${step} at ${el.scrollTop}px: what is in view was not drawn in 30 s (${JSON.stringify({ ...state, items: undefined })})`;
      await frame();
      state = read();
    }
    states.push(state);
    if (state.atEnd) return states;
    el.scrollTop += el.clientHeight * 0.9;
    await frame();
  }
  return "5,000 scroll steps without reaching the end";
}

/** What the area holds now. */
export async function readArea(page: Page, area: TokenArea): Promise<DomState> {
  return (await page.evaluate(inPage, [area, "read"] as const)) as DomState;
}

/** Every step's state of a walk from the top of the area to its end. */
export async function walkArea(page: Page, area: ListArea): Promise<ListState[]>;
export async function walkArea(page: Page, area: TokenArea): Promise<DomState[]>;
export async function walkArea(page: Page, area: Area): Promise<State[]> {
  // As served, the area holds its first lines and no virtual height (it reads as at its end): the
  // walk starts once React has taken it over, or a cold server's first page ends it at once.
  await expectHydrated(page.locator(area.scroll));
  const states = await page.evaluate(inPage, [area, "walk"] as const);
  if (typeof states === "string") throw new Error(states);
  return states as State[];
}
