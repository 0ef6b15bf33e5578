"use client";
// A layer × expert load heatmap on a canvas (lib/view expertLoad): one row per MoE layer, one
// column per expert, darker where the visible tokens routed more often. Text around it says what
// it counts; hovering a cell names its layer, expert and count.
import { useEffect, useRef, useState } from "react";
import type { ExpertLoad } from "@/lib/view";

const MAX_WIDTH = 560;
const MAX_HEIGHT = 240;

export function ExpertHeatmap({ load }: { load: ExpertLoad }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [hover, setHover] = useState<string | null>(null);
  const cw = Math.max(2, Math.min(32, Math.floor(MAX_WIDTH / Math.max(1, load.experts))));
  const ch = Math.max(2, Math.min(20, Math.floor(MAX_HEIGHT / Math.max(1, load.layers))));
  useEffect(() => {
    const ctx = canvas.current?.getContext("2d");
    if (!ctx) return;
    ctx.clearRect(0, 0, load.experts * cw, load.layers * ch);
    for (let l = 0; l < load.layers; l++)
      for (let e = 0; e < load.experts; e++) {
        const n = load.counts[l * load.experts + e] ?? 0;
        // Square root: a few hot experts should not wash out the rest.
        const a = load.max ? Math.sqrt(n / load.max) : 0;
        ctx.fillStyle = n === 0 ? "rgba(128,128,128,0.08)" : `rgba(37,99,235,${0.15 + 0.85 * a})`;
        ctx.fillRect(e * cw, l * ch, cw - (cw > 3 ? 1 : 0), ch - (ch > 3 ? 1 : 0));
      }
  }, [load, cw, ch]);
  const cellAt = (x: number, y: number) => {
    const e = Math.floor(x / cw);
    const l = Math.floor(y / ch);
    if (e < 0 || l < 0 || e >= load.experts || l >= load.layers) return null;
    return `layer ${l}, expert ${e}: ${load.counts[l * load.experts + e] ?? 0} routes`;
  };
  return (
    <figure className="expert-heatmap" data-testid="expert-heatmap" style={{ margin: "4px 0" }}>
      <canvas
        ref={canvas}
        width={load.experts * cw}
        height={load.layers * ch}
        role="img"
        aria-label={`Expert load: ${load.layers} layers by ${load.experts} experts over ${load.routed} routed tokens`}
        onMouseMove={(e) => {
          const r = e.currentTarget.getBoundingClientRect();
          setHover(cellAt(e.clientX - r.left, e.clientY - r.top));
        }}
        onMouseLeave={() => setHover(null)}
      />
      <figcaption className="muted small" data-testid="expert-heatmap-caption">
        {hover ??
          `rows: layers 0–${load.layers - 1} · columns: experts 0–${load.experts - 1} · darkest: ${load.max} routes`}
      </figcaption>
    </figure>
  );
}
