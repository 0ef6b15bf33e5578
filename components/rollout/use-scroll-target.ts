"use client";
// A virtualised panel's scroll to a target (the token view's deep-linked position or selected
// call's first token; the conversation's selected message), kept on target while the pages around
// it load: rows that replace a placeholder above it move it, and shift the index of every item
// after them. Each frame re-aims at the target's current item until the target has stayed in view,
// with no placeholder showing, for a few frames. A wheel, a press or a key in the panel hands the
// scroll back to the user at once.
import type { Virtualizer } from "@tanstack/react-virtual";
import { useCallback, useEffect, useLayoutEffect, useRef, type RefObject } from "react";

export interface ScrollTarget {
  /** Names the request (the sequence and what asked): a new key starts a new scroll. */
  key: string;
  /** What to bring into view: a token's position, or an item's index (as `marks` reads it). */
  pos: number;
  /** The item to align (the token's line, or its call's segment header); -1 while not known. */
  index: number;
  align: "center" | "start";
}

const SETTLED_FRAMES = 3;
const REAIM_FRAMES = 20;
const GIVE_UP_MS = 10_000;
// However long the sequence takes to open, a target never keeps the frames running past this.
const MAX_WAIT_MS = 60_000;

/** How a panel marks its targets: the drawn element of a target, and a row still loading. */
export interface ScrollMarks {
  /** The selector of the element standing for `pos` once drawn with its content. */
  target: (pos: number) => string;
  placeholder: string;
}

/** The token view's marks: a token's `data-pos`, and its windows' placeholders. */
export const TOKEN_MARKS: ScrollMarks = {
  target: (pos) => `[data-pos="${pos}"]`,
  placeholder: '[data-testid="token-placeholder"]',
};

/** Scrolls `scroller` so the token at `pos` is in view (centred, or `nearest` edge); false if not drawn. */
export function revealToken(
  scroller: HTMLElement,
  pos: number,
  how: "center" | "nearest" | "start",
  marks: ScrollMarks = TOKEN_MARKS,
): boolean {
  const token = scroller.querySelector(marks.target(pos));
  if (!token) return false;
  const box = scroller.getBoundingClientRect();
  const at = token.getBoundingClientRect();
  const top = box.top + scroller.clientTop;
  const bottom = top + scroller.clientHeight;
  if (how === "center") scroller.scrollTop += at.top + at.height / 2 - (top + bottom) / 2;
  else if (how === "start") scroller.scrollTop += at.top - top - scroller.clientHeight / 8;
  else if (at.top < top) scroller.scrollTop -= top - at.top;
  else if (at.bottom > bottom) scroller.scrollTop += at.bottom - bottom;
  return true;
}

/** Wholly in the panel, or filling it when the token is taller than the panel. */
function inView(scroller: HTMLElement, el: Element): boolean {
  const box = scroller.getBoundingClientRect();
  const at = el.getBoundingClientRect();
  const top = box.top + scroller.clientTop;
  const shown = Math.min(at.bottom, top + scroller.clientHeight) - Math.max(at.top, top);
  return shown >= Math.min(at.height, scroller.clientHeight) - 2;
}

function placeholderShowing(scroller: HTMLElement, selector: string): boolean {
  const box = scroller.getBoundingClientRect();
  for (const el of scroller.querySelectorAll(selector)) {
    const at = el.getBoundingClientRect();
    if (at.bottom > box.top && at.top < box.bottom) return true;
  }
  return false;
}

/**
 * Follows `target` from the first render that names a new key. `hold(key)` marks a key as already
 * in view (a click or a key press scrolled there itself); `go(key)` follows a key again (the same
 * call picked twice); `release()` stops following (the user took over).
 */
export function useScrollTarget(
  scroller: RefObject<HTMLDivElement | null>,
  virt: Virtualizer<HTMLDivElement, Element>,
  target: ScrollTarget | null,
  /** The sequence's opening window is here (or failed): a target with no item then never gets one. */
  known: boolean,
  marks: ScrollMarks = TOKEN_MARKS,
) {
  const latest = useRef({ target, virt, known, marks });
  useLayoutEffect(() => {
    latest.current = { target, virt, known, marks };
  });
  const aim = useRef<{ key: string | null; active: boolean; since: number }>({
    key: null,
    active: false,
    since: 0,
  });
  const frame = useRef<number | null>(null);

  const release = useCallback(() => {
    aim.current.active = false;
    if (frame.current !== null) cancelAnimationFrame(frame.current);
    frame.current = null;
  }, []);

  const loop = useCallback(() => {
    if (frame.current !== null) return;
    let stable = 0;
    let aimedAt = -1;
    let sinceAim = 0;
    const born = performance.now();
    const step = () => {
      frame.current = null;
      const { target: t, virt: v, known: k, marks: m } = latest.current;
      const el = scroller.current;
      if (!aim.current.active) return;
      if (performance.now() - born > MAX_WAIT_MS) return release();
      // Until the URL's update has rendered, the target is still the previous one: wait. The
      // clock runs from when the target has an item, not while its sequence is still opening.
      const ready = el && t && t.key === aim.current.key && t.index >= 0;
      if (!ready) aim.current.since = performance.now();
      else if (performance.now() - aim.current.since > GIVE_UP_MS) return release();
      if (el && t && t.key === aim.current.key) {
        if (t.index < 0 && k) return release();
        const token = t.index < 0 ? null : el.querySelector(m.target(t.pos));
        if (token && inView(el, token)) {
          stable = placeholderShowing(el, m.placeholder) ? 0 : stable + 1;
          if (stable >= SETTLED_FRAMES) return release();
        } else if (token) {
          // Drawn but off screen (its line is taller than the panel, or rows above it grew).
          stable = 0;
          revealToken(el, t.pos, t.align, m);
        } else if (t.index >= 0 && (t.index !== aimedAt || ++sinceAim > REAIM_FRAMES)) {
          stable = 0;
          v.scrollToIndex(t.index, { align: t.align });
          aimedAt = t.index;
          sinceAim = 0;
        }
      }
      frame.current = requestAnimationFrame(step);
    };
    frame.current = requestAnimationFrame(step);
  }, [scroller, release]);

  const go = useCallback(
    (key: string) => {
      aim.current = { key, active: true, since: performance.now() };
      loop();
    },
    [loop],
  );
  const hold = useCallback(
    (key: string | null) => {
      release();
      aim.current = { key, active: false, since: performance.now() };
    },
    [release],
  );

  const key = target?.key ?? null;
  useEffect(() => {
    if (key === aim.current.key) {
      if (aim.current.active) loop(); // mounted again (strict mode) while still following
      return;
    }
    if (key === null) hold(null);
    else go(key);
  }, [key, go, hold, loop]);
  // Unmounting stops the frames, not the aim: a remount picks the same target up again.
  useEffect(
    () => () => {
      if (frame.current !== null) cancelAnimationFrame(frame.current);
      frame.current = null;
    },
    [],
  );
  return { go, hold, release };
}
