// Why this chain: each chain's generated mass (and root created_at), the rule that picked main,
// what was dropped; then the prefix break before every extra root, with text on both sides; then
// the store's lifecycle as Gym main's freeze would read it (gym-v1 stores only).
import type { LifecycleView, RolloutView } from "@/lib/schema";
import { droppedWords, rootsDifference } from "@/lib/view";
import { fmtInt, short } from "./labels";

function idList(ids: string[]): string {
  return ids.length === 0 ? "" : ` (${ids.join(", ")})`;
}

/** What Gym's freeze would conclude about the store's files, without touching them. */
function LifecycleBlock({ lc }: { lc: LifecycleView }) {
  const { satisfied, dangling } = lc.intents;
  const version =
    lc.snapshot_version === null ? "the freeze fails first" : `${lc.snapshot_version} at freeze`;
  return (
    <div className="card" data-testid="lifecycle">
      <h3>Store lifecycle (as Gym&apos;s freeze sees it)</h3>
      <ul>
        <li data-testid="lifecycle-state">
          state.json: {lc.state}; {lc.frozen ? "frozen" : "not frozen"}
          {lc.state_incomplete ? "; marked incomplete" : ""}
          {lc.snapshot_id ? `; snapshot ${lc.snapshot_id}` : ""}
        </li>
        <li data-testid="lifecycle-version">
          Snapshot version: {lc.stored_version ?? "none"} → {version}
        </li>
        <li data-testid="lifecycle-size">
          Indexed: {lc.indexed_size === null ? "no index" : fmtInt(lc.indexed_size)} of{" "}
          {fmtInt(lc.file_size)} bytes
          {lc.unindexed_lines > 0 ? `; ${lc.unindexed_lines} unindexed lines to index` : ""}
        </li>
        <li data-testid="lifecycle-torn">
          {lc.torn_tail
            ? `Torn tail Gym would drop: ${fmtInt(lc.torn_tail.bytes)} bytes at offset ${fmtInt(lc.torn_tail.offset)}`
            : "No torn tail to drop"}
        </li>
        <li data-testid="lifecycle-intents">
          Intents: {satisfied.length} satisfied, {dangling.length} dangling{idList(dangling)}
        </li>
        {lc.retired ? (
          <li data-testid="lifecycle-retired">
            Retired tombstone: the consumer masks it as retired
          </li>
        ) : null}
        {lc.outside_ids.length > 0 ? (
          <li data-testid="lifecycle-outside-ids">
            Token ids outside 0 … 2^31−1 (Gym trains on them):{" "}
            {lc.outside_ids
              .map(
                (o) =>
                  `${short(o.model_call_id)} line ${o.line} ${o.field}[${o.index}] = ${o.digits}`,
              )
              .join("; ")}
          </li>
        ) : null}
        {lc.error ? <li data-testid="lifecycle-error">Gym&apos;s freeze: {lc.error}</li> : null}
      </ul>
    </div>
  );
}

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
  const other = view.other_profile?.verdict;
  const rootsLine = other
    ? rootsDifference(
        {
          profile: view.profile,
          roots: view.verdict.roots,
          side_calls: view.verdict.side_calls.length,
        },
        other,
      )
    : null;
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
        {/* In the timeline's words: a retry loser is "retry dropped", not "quarantined". */}
        Dropped: {droppedWords(d.branch_chains, view.calls)}; {fmtInt(d.generated_not_delivered)}{" "}
        generated tokens not delivered.
      </p>
      <h3>Prefix breaks</h3>
      {rootsLine && <p data-testid="roots-other-profile">{rootsLine}</p>}
      {view.prefix_breaks.length === 0 ? (
        <p className="muted">One root under {view.profile}: every call extends an earlier one.</p>
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
      {view.read.lifecycle ? <LifecycleBlock lc={view.read.lifecycle} /> : null}
    </div>
  );
}
