// The diff route's answer: both rollouts read through the inspector's cached model (lib/inspect
// rolloutModel, so a pair already open in the inspector costs no build), their chains' messages
// aligned (./align), each side's verdict, reward and GRPO advantage (lib/index rolloutGroupSql,
// the groups route's computation) with the one the trainer logged, and with `message` the token
// diff of one changed row. Not responsible for building models, deciding verdicts or computing
// advantages.
import "server-only";
import type { ProfileChoice } from "@/lib/builder";
import { InvalidInputError } from "@/lib/errors";
import { rolloutGroupSql, withSyncedRecords } from "@/lib/index";
import { chainMessages, type ChainMessages, knownRunPolicy, rolloutModel } from "@/lib/inspect";
import { type AdvantageOptions, getRun, parseAdvantageRule } from "@/lib/runs";
import { loggedAdvantages, rolloutTrainerDiffers } from "@/lib/trainer";
import type { DiffSide, RolloutDiff, TokenDiffAnswer } from "@/lib/schema";
import { bannerSentences } from "@/lib/severity";
import { rolloutSeverity } from "@/lib/view";
import { alignMessages, diffTokens, firstDivergence, spanKeys } from "./align";
import { foldRows, rowOfPosition } from "./rows";
import { opTexts, textAround } from "./text";
import type { TokenDecoder } from "@/lib/tokens";

export interface DiffRequest {
  a: string | null;
  b: string | null;
  chain?: string | null;
  /** A row index: its token diff is in the answer. */
  message?: string | null;
  profileA?: ProfileChoice;
  profileB?: ProfileChoice;
  /** The advantage rule (the groups view's); the groups route's default when absent. */
  rule?: AdvantageOptions;
}

/** `RUN/ROLLOUT`, checked; the ids themselves are checked where they are read. */
export function parseRolloutRef(name: "a" | "b", value: string | null | undefined) {
  const v = value ?? "";
  const slash = v.lastIndexOf("/");
  if (slash <= 0 || slash === v.length - 1)
    throw new InvalidInputError(
      v === ""
        ? `${name} is missing: expected ${name}=RUN/ROLLOUT (a run id, a slash, a rollout id)`
        : `${name}: expected RUN/ROLLOUT (a run id, a slash, a rollout id); got ${JSON.stringify(v.slice(0, 80))}`,
    );
  return { run: v.slice(0, slash), rollout: v.slice(slash + 1) };
}

interface Loaded {
  side: DiffSide;
  seq: ChainMessages;
  decoder: TokenDecoder | null;
}

async function loadSide(
  ref: { run: string; rollout: string },
  chain: string,
  profile: ProfileChoice | undefined,
  rule: AdvantageOptions,
  signal: AbortSignal | undefined,
): Promise<Loaded> {
  const run = await getRun(ref.run);
  const model = await rolloutModel(run, ref.rollout, { profile, signal });
  const seq = chainMessages(model, chain);
  const group = run.rolloutsFile
    ? await withSyncedRecords(run, (db) => rolloutGroupSql(db, ref.rollout, rule))
    : null;
  const member = group?.members.find((m) => m.rollout_id === ref.rollout);
  // The verdict counts what the trainer did with the rollout, and the run's policy model once the
  // run's index knows it, as the inspector's does. Unreadable step files cost the side its logged
  // value, which the groups view names.
  const [logged, differs, policy] = await Promise.all([
    loggedAdvantages(run).catch(() => null),
    rolloutTrainerDiffers(run, ref.rollout).catch(() => null),
    knownRunPolicy(run),
  ]);
  const severity = rolloutSeverity({
    ...model.view,
    trainer_differs: differs,
    policy_model: policy.policy_model ?? model.view.policy_model,
  });
  const side: DiffSide = {
    run: ref.run,
    rollout: ref.rollout,
    profile: model.view.profile,
    tokenizer: model.decoder?.name ?? null,
    length: seq.ids.length,
    messages: seq.messages.length,
    severity: severity.severity,
    verdict: bannerSentences(severity),
    reward: model.view.record?.reward ?? member?.reward ?? null,
    advantage: member?.advantage ?? null,
    advantage_rule: rule,
    logged_advantage: logged?.byRollout.get(ref.rollout) ?? null,
    group: group ? { key: group.key, step: group.step, size: group.members.length } : null,
  };
  return { side, seq, decoder: model.decoder };
}

/** Two rollouts' chains compared (lib/schema/api-diff); `message` adds one row's token diff. */
export async function diffRollouts(q: DiffRequest, signal?: AbortSignal): Promise<RolloutDiff> {
  const refA = parseRolloutRef("a", q.a);
  const refB = parseRolloutRef("b", q.b);
  const chain = q.chain || "main";
  const rule = q.rule ?? parseAdvantageRule(new URLSearchParams());
  const message = parseRow(q.message);
  const [a, b] = await Promise.all([
    loadSide(refA, chain, q.profileA, rule, signal),
    loadSide(refB, chain, q.profileB, rule, signal),
  ]);
  const { rows: aligned, aligned: ok } = alignMessages(
    spanKeys(a.seq.ids, a.seq.messages),
    spanKeys(b.seq.ids, b.seq.messages),
  );
  const folded = foldRows(aligned, a, b);
  const position = firstDivergence(a.seq.ids, b.seq.ids);
  const counts = { same: 0, changed: 0, only_a: 0, only_b: 0 };
  for (const r of aligned) counts[r.kind]++;
  return {
    chain,
    a: a.side,
    b: b.side,
    first_divergence:
      position === null
        ? null
        : {
            position,
            a: textAround(a.decoder, a.seq.ids, position),
            b: textAround(b.decoder, b.seq.ids, position),
            row: rowOfPosition(folded, aligned, a.seq, b.seq, position),
          },
    aligned: ok,
    counts,
    // With `message`, the view already holds the rows: only the opened one is sent again.
    rows: message === null ? folded.shown : folded.all.slice(message, message + 1),
    rows_total: folded.total,
    token_diff: message === null ? null : tokenDiffOf(message, folded.all, a, b),
  };
}

function parseRow(value: string | null | undefined): number | null {
  if (value === null || value === undefined || value === "") return null;
  if (!/^\d{1,9}$/.test(value))
    throw new InvalidInputError(`message: expected a row number; got ${JSON.stringify(value)}`);
  return Number(value);
}

/** The token diff of changed row `index`, each run with its text. */
function tokenDiffOf(
  index: number,
  rows: ReturnType<typeof foldRows>["all"],
  a: Loaded,
  b: Loaded,
): TokenDiffAnswer {
  const row = rows[index];
  if (!row) throw new InvalidInputError(`message: no row ${index} (the diff has ${rows.length})`);
  if (row.kind !== "changed" || !row.a || !row.b)
    throw new InvalidInputError(`message: row ${index} is ${row.kind}, not a changed message`);
  const idsA = a.seq.ids.subarray(row.a.start, row.a.end);
  const idsB = b.seq.ids.subarray(row.b.start, row.b.end);
  const diff = diffTokens(idsA, idsB);
  if (diff.ops === null) {
    const at = firstDivergence(idsA, idsB) ?? 0;
    const why =
      diff.note === "too_long"
        ? "the messages are too long for a token diff"
        : "the messages differ in too many places for a token diff";
    return {
      row: index,
      ops: null,
      note: `${why}: they first differ at token ${row.a.start + at}; a has ${idsA.length} tokens, b ${idsB.length}`,
    };
  }
  const texts = opTexts({ a: a.decoder, b: b.decoder }, idsA, idsB, diff.ops);
  const ops = diff.ops.map((op, k) => ({
    kind: op.kind,
    a: row.a!.start + op.a,
    b: row.b!.start + op.b,
    length: op.length,
    ...(texts[k] as { text: string; clipped: boolean }),
  }));
  return { row: index, ops, note: null };
}
