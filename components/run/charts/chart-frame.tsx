"use client";
// A health chart's card: its title, the plot, and the plot's axis titles (with units) in HTML
// beside it, so they read as text (and never as one of the plot's value labels). The plot is drawn
// once the card comes near the viewport: most of the run page's charts sit below its first screen,
// and drawing them (recharts' store, scales and layout, six charts on a small run) was a third of
// the browser's work before the page asked for its data.
import { useEffect, useRef, useState, type ReactNode, type RefObject } from "react";

export const PLOT_HEIGHT = 190;
/** recharts' colours on the page's panels: app/globals.css properties, so they follow the theme. */
export const AXIS_TICK = { fill: "var(--muted)", fontSize: 11 };
export const GRID_STROKE = "var(--border)";
export const VALUE_LABEL = "var(--text)";

/**
 * The `interval` of a category axis of `n` values (a chart's steps): every k-th label, about ten in
 * all. recharts' default ("preserveEnd") measures every candidate label in a hidden span, each
 * measure a layout of the page: on the run page that was 1.5 s of the browser's thread before it
 * asked for anything (a profile of grpo-capture-on's load). A number is taken as it is; a value
 * axis's few nice ticks are all shown (`interval={0}`), unmeasured.
 */
export const tickInterval = (n: number, labels = 10) => Math.max(0, Math.ceil(n / labels) - 1);

type TickProps = {
  x?: number | string;
  y?: number | string;
  textAnchor?: "start" | "middle" | "end" | "inherit";
  verticalAnchor?: "start" | "middle" | "end";
  /** The axis's side, kept on the label as recharts' own labels keep it. */
  orientation?: string;
  payload?: { value?: unknown };
  index?: number;
  tickFormatter?: (value: never, index: number) => string;
};
const DY = { start: "0.71em", middle: "0.355em", end: "0" } as const;

/**
 * An axis label as one SVG text (`tick={axisTick}`) for numbers and steps. recharts' own label
 * wraps to the axis's width, measuring each word in a hidden span: a layout of the page per word,
 * 0.5 s of the run page's load after the intervals above. Same place, anchor and colours as its.
 */
export function axisTick(p: TickProps) {
  const value = p.payload?.value;
  const text = p.tickFormatter
    ? p.tickFormatter(value as never, p.index ?? 0)
    : String(value ?? "");
  return (
    <text
      x={p.x}
      y={p.y}
      dy={DY[p.verticalAnchor ?? "end"]}
      textAnchor={p.textAnchor}
      orientation={p.orientation}
      fill={AXIS_TICK.fill}
      fontSize={AXIS_TICK.fontSize}
      className="recharts-cartesian-axis-tick-value"
    >
      {text}
    </text>
  );
}

/** How far outside the viewport a card's plot is drawn: a few lines of scroll. */
const NEAR = "200px 0px";

/** True once `ref`'s element has come within NEAR of the viewport (and from then on). */
function useNearViewport(ref: RefObject<HTMLElement | null>): boolean {
  const [near, setNear] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (near || !el) return;
    const io = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) setNear(true);
      },
      { rootMargin: NEAR },
    );
    io.observe(el);
    return () => io.disconnect();
  }, [near, ref]);
  return near;
}

export function ChartFrame({
  id,
  title,
  x,
  y,
  wide = false,
  plotHeight,
  legend,
  children,
}: {
  id: string;
  title: string;
  /** The horizontal axis's title with its unit ("calls per rollout"). */
  x: string;
  /** The vertical axis's title with its unit ("rollouts"). */
  y: string;
  /** Twice a card's width where the grid has room (long series). */
  wide?: boolean;
  /** The plot's height in px, kept by its place until it is drawn. */
  plotHeight: number;
  /**
   * The series' key under the plot: shown before the plot is drawn too, so the card's height never
   * changes (a legend drawn with the plot moved everything below it by its line, under a reader's
   * pointer as they scrolled there).
   */
  legend?: ReactNode;
  children: ReactNode;
}) {
  const ref = useRef<HTMLElement>(null);
  const near = useNearViewport(ref);
  return (
    <figure
      ref={ref}
      className={`chart card${wide ? " wide" : ""}`}
      data-testid={`chart-${id}`}
      data-plot={near ? "drawn" : "waiting"}
    >
      <figcaption>{title}</figcaption>
      <div className="chart-body">
        <div className="chart-axis-title chart-y-title" data-testid="chart-y-title">
          {y}
        </div>
        <div className="chart-plot">
          {near ? children : <div style={{ height: plotHeight }} aria-hidden="true" />}
          {legend}
        </div>
      </div>
      <div className="chart-axis-title chart-x-title" data-testid="chart-x-title">
        {x}
      </div>
    </figure>
  );
}

/** A chart's hover box: what the mark is, its values with units, and what a click does. */
export function TooltipBox({
  title,
  lines,
  hint,
}: {
  title: string;
  lines: Array<{ label: string; value: string; color?: string }>;
  hint: string | null;
}) {
  return (
    <div className="chart-tooltip" data-testid="chart-tooltip">
      <div className="chart-tooltip-title">{title}</div>
      {lines.map((l) => (
        <div key={l.label}>
          {l.color && <span style={{ color: l.color }}>● </span>}
          {l.label}: <strong>{l.value}</strong>
        </div>
      ))}
      {hint && <div className="muted">{hint}</div>}
    </div>
  );
}
