// The token view's info line: the selected token's position, id, text, mask (and, for mask 1,
// whether it is trained on: lib/view/sequence-training), log prob and call.
// Hovering another token never replaces the selection: the hovered one follows it, marked as such;
// with nothing selected, the hovered token alone.
import { type SequenceTraining, infoTokens } from "@/lib/view";
import type { TokenAt } from "./use-token-windows";
import { fmtInt, short } from "./labels";

export function TokenInfo({
  selected,
  hovered,
  tokenAt,
  trainingOf,
}: {
  selected: number | null;
  hovered: number | null;
  tokenAt: (p: number) => TokenAt | null;
  /** Whether a call's tokens in this sequence are trained on (lib/view/sequence-training). */
  trainingOf: (call: string) => SequenceTraining;
}) {
  const { main, hover } = infoTokens(selected, hovered);
  const t = main === null ? null : tokenAt(main);
  const h = hover === null ? null : tokenAt(hover);
  if (!t)
    return (
      <div className="token-info muted" data-testid="token-info">
        {main === null
          ? "Hover or select a token (←→ a token, ↑↓ a line)."
          : `pos ${fmtInt(main)} · loading…`}
      </div>
    );
  return (
    <div className="token-info" data-testid="token-info">
      <span
        className="token-info-main"
        data-testid={selected === null ? "token-info-hovered" : "token-info-selected"}
      >
        {selected !== null && <span className="muted">selected</span>}
        <Facts t={t} training={trainingOf(t.call)} />
      </span>
      {h && (
        <span className="token-info-hover" data-testid="token-info-hovered">
          <span className="muted">hover</span>
          <span>pos {fmtInt(h.pos)}</span>
          <span className="mono">{h.text === null ? `id ${h.id}` : JSON.stringify(h.text)}</span>
          <span className="muted">{maskWords(h.mask, trainingOf(h.call))}</span>
          {h.logProb !== null && <span className="muted">{h.logProb.toFixed(2)}</span>}
        </span>
      )}
    </div>
  );
}

function maskWords(mask: number, training: SequenceTraining): string {
  if (mask !== 1 || !training.words) return `mask ${mask}`;
  return `mask 1 · ${training.words}`;
}

function Facts({ t, training }: { t: TokenAt; training: SequenceTraining }) {
  return (
    <>
      <span>pos {fmtInt(t.pos)}</span>
      {/* An id outside int32 is held as a sentinel: its exact digits are in its text. */}
      <span>id {t.piece === "outside" ? "outside 0…2^31−1" : t.id}</span>
      <span className="mono">text {t.text === null ? "—" : JSON.stringify(t.text)}</span>
      {t.piece && t.piece !== "text" && <span className="badge">{t.piece}</span>}
      <span
        className={t.mask && training.trained ? "gen-text" : t.mask ? "warn-text" : "muted"}
        data-testid="token-info-mask"
      >
        {maskWords(t.mask, training)}
      </span>
      <span>
        log prob{" "}
        {t.logProb === null ? "—" : `${t.logProb.toFixed(4)} (p ${Math.exp(t.logProb).toFixed(3)})`}
      </span>
      <span className="mono">call {short(t.call)}</span>
    </>
  );
}
