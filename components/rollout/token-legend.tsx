// The token view's key: mask colours, the probability shading scale, how special tokens, raw bytes
// and whitespace look, and (with the filter on) how matches differ from the tokens set aside. With
// mismatch colouring on, the probability scale gives way to the train/inference mismatch scale. A
// sequence that is not trained on (lib/view/sequence-training) shows its one amber shade and why.
import {
  CANVAS,
  CHROME,
  GENERATED_SHADES,
  NOT_TRAINED,
  QUIET,
  REFED,
  UNSCORED,
  generatedShade,
  type Swatch,
  MISMATCH_SHADES,
  NO_MISMATCH,
  type SequenceTraining,
} from "@/lib/view";
import styles from "./token-view.module.css";

function Sample({ swatch, text, className }: { swatch: Swatch; text: string; className?: string }) {
  return (
    <span
      className={[styles.token, className].filter(Boolean).join(" ")}
      style={{ backgroundColor: swatch.bg, color: swatch.fg }}
    >
      {text}
    </span>
  );
}

function MismatchScale() {
  return (
    <span className={styles.legendGroup} data-testid="token-legend-mismatch">
      trained, by train/inference mismatch exp(|gen − prev|):
      {MISMATCH_SHADES.map((s) => (
        <Sample key={s.label} swatch={s} text={s.label} />
      ))}
      <Sample swatch={NO_MISMATCH} text="no trainer value" />
    </span>
  );
}

export function TokenLegend({
  filtering,
  mismatch,
  training,
}: {
  filtering: boolean;
  mismatch: boolean;
  training: SequenceTraining;
}) {
  return (
    <div
      className={styles.legend}
      style={{ backgroundColor: CANVAS, color: CHROME.muted }}
      data-testid="token-legend"
    >
      <span className={styles.legendGroup}>
        <Sample swatch={REFED} text="re-fed" /> mask 0: prompt, tool results, inherited prefix
      </span>
      {training.notTrained ? (
        <span className={styles.legendGroup} data-testid="token-legend-not-trained">
          <Sample swatch={NOT_TRAINED} text="generated" className={styles.untrained} /> mask 1,{" "}
          {training.words}
        </span>
      ) : mismatch ? (
        <MismatchScale />
      ) : (
        <span className={styles.legendGroup} data-testid="token-legend-shades">
          generated, mask 1{training.words ? `, ${training.words}` : ""}, by probability:
          {GENERATED_SHADES.map((s) => (
            <Sample key={s.label} swatch={s} text={s.label} />
          ))}
          <Sample swatch={UNSCORED} text="no log prob" />
        </span>
      )}
      <span className={styles.legendGroup}>
        <Sample swatch={REFED} text="<|im_end|>" className={styles.special} /> special
        <Sample swatch={REFED} text="\xe2" className={styles.raw} /> raw bytes
      </span>
      <span className={styles.legendGroup}>· space ⇥ tab ↵ newline (ends the line)</span>
      {filtering && (
        <span className={styles.legendGroup}>
          <Sample swatch={generatedShade(Math.log(0.05))} text="below" className={styles.low} />{" "}
          under the threshold;
          <Sample swatch={QUIET} text="others" /> set aside
        </span>
      )}
    </div>
  );
}
