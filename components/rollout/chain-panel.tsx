// Why this chain: each chain's generated mass (and root created_at), the rule that picked main,
// what was dropped; then the prefix break before every extra root, with text on both sides.
import type { RolloutView } from "@/lib/schema/api-rollout";
import { fmtInt, short } from "./labels";

export function ChainPanel({
  view,
  onOpenChain,
  onSelectCall,
}: {
  view: RolloutView;
  onOpenChain: (id: string) => void;
  onSelectCall: (id: string) => void;
}) {
  const d = view.dropped;
  return (
    <div data-testid="chain-panel">
      <p className="muted" data-testid="main-rule">
        Main chain rule ({view.profile}): {view.main_rule.text}
      </p>
      {view.chains.length === 0 ? (
        <div className="card empty">
          No chain was built{view.verdict.error ? `: ${view.verdict.error}` : "."}
        </div>
      ) : (
        <table className="grid" data-testid="chain-table">
          <thead>
            <tr>
              <th>Chain</th>
              <th>Root</th>
              <th>Calls</th>
              <th>Generated</th>
              <th>Root created_at</th>
              <th>Tokens</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {view.chains.map((c) => (
              <tr
                key={c.chain_id}
                data-testid="chain-row"
                className={c.chain_id === "main" ? "row-main" : ""}
              >
                <td className="mono">{c.chain_id}</td>
                <td className="mono">
                  <button className="linkish" onClick={() => onSelectCall(c.root_call_id)}>
                    {short(c.root_call_id)}
                  </button>
                </td>
                <td>{c.call_ids.length}</td>
                <td data-testid="chain-generated">{fmtInt(c.generated)}</td>
                <td className="mono">
                  {new Date(c.root_created_at * 1000).toISOString().replace(".000Z", "Z")}
                </td>
                <td>{fmtInt(c.length)}</td>
                <td>
                  <button className="linkish" onClick={() => onOpenChain(c.chain_id)}>
                    tokens
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p data-testid="dropped">
        Dropped: {d.branch_chains} other chain{d.branch_chains === 1 ? "" : "s"},{" "}
        {d.quarantined_calls} quarantined call{d.quarantined_calls === 1 ? "" : "s"}, {d.side_calls}{" "}
        side call
        {d.side_calls === 1 ? "" : "s"}
        {d.excluded_calls > 0 ? `, ${d.excluded_calls} excluded` : ""};{" "}
        {fmtInt(d.generated_not_delivered)} generated tokens not delivered.
      </p>
      <h3>Prefix breaks</h3>
      {view.prefix_breaks.length === 0 ? (
        <p className="muted">One root: every call extends an earlier one.</p>
      ) : (
        view.prefix_breaks.map((b) => (
          <div className="card prefix-break" key={b.root_call_id} data-testid="prefix-break">
            <p>
              Root <span className="mono">{short(b.root_call_id)}</span> shares {fmtInt(b.shared)}{" "}
              of {fmtInt(b.root_prompt_len)} prompt tokens with{" "}
              {b.against_call_id ? (
                <span className="mono">{short(b.against_call_id)}</span>
              ) : (
                "no earlier call"
              )}
              ; first difference at position {fmtInt(b.shared)}.{" "}
              <span
                className={`badge ${b.kind === "drift" ? "warn" : ""}`}
                data-testid="prefix-break-kind"
              >
                {b.kind === "drift"
                  ? "re-rendering drift (realigns within a few tokens)"
                  : "compaction (everything after differs)"}
              </span>
            </p>
            <div className="diff">
              <div>
                <div className="muted">shared, up to the difference</div>
                <pre className="ctx">…{b.context}</pre>
              </div>
              <div>
                <div className="muted">this root</div>
                <pre className="side-a">{b.root_side}</pre>
              </div>
              <div>
                <div className="muted">earlier call</div>
                <pre className="side-b">{b.against_side}</pre>
              </div>
            </div>
          </div>
        ))
      )}
    </div>
  );
}
