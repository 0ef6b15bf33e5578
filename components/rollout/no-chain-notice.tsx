// The token tab of a rollout with no chain (every call a side call, an empty token file, a failed
// build): that there is no chain, and why, in the verdict's words. Not an error: the rollout was
// read, and none of it goes to training. A call can still be shown alone, as the model saw it.
import type { Reason } from "@/lib/severity";
import { noChainWords } from "@/lib/view";
import { CodeSpans as Sentence } from "@/components/shared/code-spans";
import { short } from "./labels";

export function NoChainNotice({
  reasons,
  captured,
  tokenFile,
  error,
  shown,
  firstCall,
  onShowCall,
}: {
  reasons: readonly Reason[];
  /** Captured calls (with a token entry). */
  captured: number;
  /** The rollout has a token file (else only its record or captures exist). */
  tokenFile: boolean;
  error: string | null;
  /** The call shown alone below the notice, if any. */
  shown: string | null;
  firstCall: string | null;
  onShowCall: (callId: string) => void;
}) {
  const words = noChainWords(reasons, { captured, tokenFile, error });
  return (
    <div className="card no-chain" role="status" data-testid="no-chain">
      <p className="no-chain-title" data-testid="no-chain-title">
        {words.title}
      </p>
      <ul className="no-chain-why">
        {words.why.map((s) => (
          <li key={s} data-testid="no-chain-reason">
            <Sentence text={s} />
          </li>
        ))}
      </ul>
      {shown !== null ? (
        <p className="muted" data-testid="no-chain-shown">
          Below: call <span className="mono">{short(shown)}</span> alone, as the model saw it; no
          token of it goes to training. Pick another call in the timeline to see it.
        </p>
      ) : firstCall !== null ? (
        <p className="muted">
          <button
            className="linkish"
            onClick={() => onShowCall(firstCall)}
            data-testid="no-chain-show-call"
          >
            Show call {short(firstCall)} alone
          </button>{" "}
          (as the model saw it), or pick a call in the timeline.
        </p>
      ) : null}
    </div>
  );
}
