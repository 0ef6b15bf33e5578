"use client";
// Picks the scalar the compare page compares (any tag both runs log: the trainer's TensorBoard or
// MLflow scalars, metrics.jsonl's columns) and the chart's smoothing. The scalar is a GET form, so
// the choice is a link and the server recomputes the statistics for it; smoothing only redraws, so
// it changes the URL in place (`smooth`, 0 … 0.99, TensorBoard's debiased EMA weight). The form is
// next/form's: a choice navigates in the page, which stays hydrated. A plain form loaded a new
// document, and a second choice made before that one hydrated changed nothing (a CI run, Dec 2026).
import Form from "next/form";
import { useRef } from "react";
import { useUrlState } from "@/components/shared/url-state";

export const SMOOTH_PARAM = "smooth";

/** The smoothing weight in the URL, clamped to [0, 0.99]; 0 when absent or not a number. */
export function smoothingOf(params: URLSearchParams): number {
  const w = Number(params.get(SMOOTH_PARAM));
  return Number.isFinite(w) ? Math.min(Math.max(w, 0), 0.99) : 0;
}

export function ScalarPicker({
  scalars,
  chosen,
  a,
  b,
  baseline,
}: {
  /** Tags both runs have, sorted. */
  scalars: string[];
  chosen: string | null;
  a: string;
  b: string;
  baseline: string | null;
}) {
  const form = useRef<HTMLFormElement>(null);
  const [params, setUrl] = useUrlState();
  const smooth = smoothingOf(params);
  if (scalars.length === 0)
    return (
      <p className="muted" data-testid="scalar-none">
        No scalar is logged by both runs.
      </p>
    );
  return (
    <Form
      ref={form}
      action="/compare"
      prefetch={false}
      className="picker"
      data-testid="scalar-picker"
    >
      <input type="hidden" name="a" value={a} />
      <input type="hidden" name="b" value={b} />
      {baseline && <input type="hidden" name="baseline" value={baseline} />}
      {smooth > 0 && <input type="hidden" name={SMOOTH_PARAM} value={String(smooth)} />}
      <label>
        scalar{" "}
        <select
          // Made anew for each page's scalar: a soft navigation (back, a link) keeps the element.
          key={chosen ?? ""}
          name="scalar"
          defaultValue={chosen ?? undefined}
          onChange={() => form.current?.requestSubmit()}
          data-testid="scalar-select"
        >
          {scalars.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
      </label>{" "}
      <noscript>
        <button type="submit" className="button">
          compare
        </button>
      </noscript>
      <label>
        smoothing{" "}
        <input
          type="range"
          min={0}
          max={0.99}
          step={0.01}
          value={smooth}
          onChange={(e) =>
            setUrl({ [SMOOTH_PARAM]: e.target.value === "0" ? null : e.target.value })
          }
          aria-label="smoothing"
          data-testid="scalar-smoothing"
        />{" "}
        <output data-testid="scalar-smoothing-value">{smooth.toFixed(2)}</output>
      </label>
    </Form>
  );
}
