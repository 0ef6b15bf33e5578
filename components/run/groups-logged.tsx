// The trainer's logged advantages in the groups view (lib/runs/logged-advantages): one line on how
// many of the page's logged values the view's rule reproduces and which of NeMo-RL's option sets
// do (a button switches to one), the rule's controls, and each member's logged value, in the
// warning colour where the rule gives another.
import Link from "next/link";
import type { AdvantageRule, RolloutGroup, RunGroups } from "@/lib/schema";
import { inspectorHref, signed } from "@/lib/view";
import { plural } from "@/lib/text";
import { loggedDiffers } from "@/lib/runs/pure";

export const ruleWords = (r: AdvantageRule) =>
  `${r.baseline === "leave_one_out" ? "leave-one-out" : "group-mean"} baseline, ${
    r.normalize ? "normalised" : "not normalised"
  }`;

/** The step files named: both when two, else the first and last with their count. */
const filesWords = (files: string[]) =>
  files.length <= 2
    ? files.join(" and ")
    : `${files.length} step files, ${files[0]} … ${files[files.length - 1]}`;

/** The URL's rule: the route's defaults (leave-one-out, normalised) unless set. */
export function ruleOf(params: URLSearchParams): AdvantageRule {
  return {
    baseline: params.get("group_baseline") === "group_mean" ? "group_mean" : "leave_one_out",
    normalize: params.get("group_normalize") !== "0",
  };
}

/** The rule as URL keys: a default is no key. */
export const ruleKeys = (r: AdvantageRule) => ({
  group_baseline: r.baseline === "group_mean" ? "group_mean" : null,
  group_normalize: r.normalize ? null : "0",
  group_offset: null,
});

/** The rule's two controls, for the toolbar. */
export function RuleControls({
  rule,
  use,
}: {
  rule: AdvantageRule;
  use: (r: AdvantageRule) => void;
}) {
  return (
    <>
      <label>
        baseline{" "}
        <select
          value={rule.baseline}
          onChange={(e) => use({ ...rule, baseline: e.target.value as AdvantageRule["baseline"] })}
          data-testid="group-baseline"
        >
          <option value="leave_one_out">leave-one-out</option>
          <option value="group_mean">group mean</option>
        </select>
      </label>
      <label>
        <input
          type="checkbox"
          checked={rule.normalize}
          onChange={(e) => use({ ...rule, normalize: e.target.checked })}
          data-testid="group-normalize"
        />{" "}
        normalised by the std
      </label>
    </>
  );
}

/** What the trainer logged against the page's rule; nothing when it logged no advantages. */
export function LoggedLine({ body, use }: { body: RunGroups; use: (r: AdvantageRule) => void }) {
  if (body.logged_error)
    return (
      <p className="warn-text" data-testid="groups-logged" data-differ="">
        The advantages the trainer logged could not be read: {body.logged_error}
      </p>
    );
  const l = body.logged;
  if (!l) return null;
  const d = body.definition;
  const fitting = l.fits.find((r) => r.baseline !== d.baseline || r.normalize !== d.normalize);
  const where = (
    <>
      ({filesWords(l.files)}, <code>advantages</code>)
    </>
  );
  if (l.members === 0)
    return (
      <p className="muted small" data-testid="groups-logged" data-differ="0">
        The trainer logged advantages for {plural(l.samples, "rollout")} {where}, none on this page.
      </p>
    );
  if (l.compared === 0)
    return (
      <p className="muted small" data-testid="groups-logged" data-differ="">
        The trainer logged advantages for {plural(l.members, "rollout")} on this page {where}; their
        records carry no reward this rule could compute one from (or they are masked).
      </p>
    );
  if (l.differ === 0)
    return (
      <p className="muted small" data-testid="groups-logged" data-differ="0">
        The advantages the trainer logged {where} are this rule&apos;s for all{" "}
        {plural(l.compared, "rollout")} on this page that have both.
      </p>
    );
  return (
    <p className="warn-text" data-testid="groups-logged" data-differ={l.differ}>
      The trainer logged another advantage for {l.differ} of the {plural(l.compared, "rollout")} on
      this page that have both {where}: it did not train with this rule.{" "}
      {fitting ? (
        <>
          The logged values on this page are those of {ruleWords(fitting)}.{" "}
          <button className="linkish" onClick={() => use(fitting)} data-testid="groups-use-fit">
            Use that rule
          </button>
        </>
      ) : (
        "None of NeMo-RL's four option sets (leave-one-out or group-mean baseline, normalised or not) gives them: the trainer computed them some other way."
      )}
    </p>
  );
}

type Member = RolloutGroup["members"][number];

/** One link per member of a group, to its rollout: what each shows is `link`'s. */
export function MemberLinks({
  g,
  runId,
  params,
  link,
}: {
  g: RolloutGroup;
  runId: string;
  params: URLSearchParams;
  link: (m: Member) => { text: string; title: string; attrs: Record<string, string> };
}) {
  return (
    <td className="mono">
      {g.members.map((m, i) => {
        const { text, title, attrs } = link(m);
        return (
          <span key={m.rollout_id}>
            {i > 0 && " "}
            <Link
              href={inspectorHref(runId, m.rollout_id, params)}
              data-rollout-id={m.rollout_id}
              title={`rollout ${m.rollout_id}: ${title}`}
              {...attrs}
            >
              {text}
            </Link>
          </span>
        );
      })}
    </td>
  );
}

/** One group's logged values, each linking to its rollout, in the warning colour where it differs. */
export function LoggedCell(props: { g: RolloutGroup; runId: string; params: URLSearchParams }) {
  return (
    <MemberLinks
      {...props}
      link={(m) => {
        const v = m.logged_advantage;
        const off = loggedDiffers(m.advantage, v);
        return {
          text: v === null ? "—" : signed(v),
          title: `logged ${v === null ? "nothing" : signed(v)}${off ? `, this rule gives ${signed(m.advantage ?? 0)}` : ""}`,
          attrs: {
            "data-testid": "group-logged-advantage",
            "data-logged": v === null ? "" : String(v),
            "data-differs": off ? "1" : "0",
            ...(off ? { className: "warn-text" } : {}),
          },
        };
      }}
    />
  );
}
