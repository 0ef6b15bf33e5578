// The run's health while its index is still counting or summarising: the KPI cards and chart
// frames in their places with grey bars where numbers will be, so the page shows its shape and
// never a count, a 0 or an empty "none" chart that is not final. The numbers are ./health-charts'.

const KPI_LABELS = ["rollouts", "masked", "trained with warnings", "policy model", "mean reward"];
const CHART_TITLES = [
  "Verdicts",
  "Why not simply trained",
  "Mask reasons",
  "Delivered fraction",
  "Captured calls per rollout",
  "HTTP status of model calls",
];
/** Bar heights of a chart's placeholder, as fractions of its frame: a shape, not data. */
const BARS = [0.35, 0.7, 0.5, 0.85, 0.3];

const bar = { background: "var(--border)", borderRadius: 3 } as const;

export function HealthSkeleton({ words }: { words: string }) {
  return (
    <div data-testid="health-skeleton" aria-busy="true" aria-label={`Health: ${words}`}>
      <div className="kpis">
        {KPI_LABELS.map((label) => (
          <div key={label} className="kpi card" data-testid="kpi-skeleton">
            <div className="muted small">{label}</div>
            <div className="kpi-value" aria-hidden="true">
              <span style={{ ...bar, display: "inline-block", width: 72, height: 16 }} />
            </div>
          </div>
        ))}
      </div>
      <div className="charts">
        {CHART_TITLES.map((title) => (
          <figure key={title} className="chart card" data-testid="chart-skeleton">
            <figcaption>{title}</figcaption>
            <div
              className="empty small"
              style={{ alignItems: "flex-end", gap: 14, paddingBottom: 12 }}
              aria-hidden="true"
            >
              {BARS.map((h, i) => (
                <span key={i} style={{ ...bar, width: 28, height: `${h * 70}%` }} />
              ))}
            </div>
          </figure>
        ))}
      </div>
      <p className="muted small">Counted once every rollout is indexed ({words}).</p>
    </div>
  );
}
