// A health chart's card: its title, the plot, and the plot's axis titles (with units) in HTML
// beside it, so they read as text (and never as one of the plot's value labels).
import type { ReactNode } from "react";

export const PLOT_HEIGHT = 190;
/** recharts' colours on the page's panels: app/globals.css properties, so they follow the theme. */
export const AXIS_TICK = { fill: "var(--muted)", fontSize: 11 };
export const GRID_STROKE = "var(--border)";
export const VALUE_LABEL = "var(--text)";

export function ChartFrame({
  id,
  title,
  x,
  y,
  wide = false,
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
  children: ReactNode;
}) {
  return (
    <figure className={`chart card${wide ? " wide" : ""}`} data-testid={`chart-${id}`}>
      <figcaption>{title}</figcaption>
      <div className="chart-body">
        <div className="chart-axis-title chart-y-title" data-testid="chart-y-title">
          {y}
        </div>
        <div className="chart-plot">{children}</div>
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
