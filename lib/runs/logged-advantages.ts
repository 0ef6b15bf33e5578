// The trainer's logged advantages beside the groups' own: each member's logged value, how many the
// page's rule does not reproduce, and which of NeMo-RL's four option sets (leave-one-out or group
// mean baseline, normalised or not) reproduce every logged value on the page. Pure: the logged
// values come from the truth check's join (lib/trainer loggedAdvantages).
import type { AdvantageRule, LoggedAdvantages, RolloutGroup, RunGroups } from "@/lib/schema";
import { grpoAdvantages } from "./groups";

/** Logged and recomputed agree within this × max(1, |logged|): logs are float32, often rounded. */
const LOGGED_TOLERANCE = 1e-3;

/** What the run's step files logged: each joined rollout's sample advantage, and the files. */
export interface LoggedByRollout {
  byRollout: ReadonlyMap<string, number>;
  files: string[];
}

/** Every option set, the route's default first. */
const ADVANTAGE_RULES: readonly AdvantageRule[] = [
  { baseline: "leave_one_out", normalize: true },
  { baseline: "leave_one_out", normalize: false },
  { baseline: "group_mean", normalize: true },
  { baseline: "group_mean", normalize: false },
];

const agree = (computed: number, logged: number) =>
  Math.abs(computed - logged) <= LOGGED_TOLERANCE * Math.max(1, Math.abs(logged));

/** Whether a member's logged advantage is another than the rule's (both known, not in agreement). */
export const loggedDiffers = (computed: number | null, logged: number | null): boolean =>
  computed !== null && logged !== null && !agree(computed, logged);

/** Whether `rule` reproduces every logged advantage of `g`'s members (vacuously true). */
function fits(g: RolloutGroup, rule: AdvantageRule): boolean {
  const computed = grpoAdvantages(
    g.members.map((m) => m.reward),
    g.members.map((m) => !m.masked),
    rule,
  );
  return g.members.every((m, i) => {
    const c = computed[i] ?? null;
    return m.logged_advantage === null || c === null || agree(c, m.logged_advantage);
  });
}

/** `body` with each member's logged advantage and the page's comparison; as is with none logged. */
export function withLoggedAdvantages(body: RunGroups, logged: LoggedByRollout): RunGroups {
  if (logged.byRollout.size === 0) return body;
  let members = 0;
  let compared = 0;
  let differ = 0;
  const groups = body.groups.map((g) => ({
    ...g,
    members: g.members.map((m) => {
      const v = logged.byRollout.get(m.rollout_id) ?? null;
      if (v !== null) members++;
      if (v !== null && m.advantage !== null) compared++;
      if (loggedDiffers(m.advantage, v)) differ++;
      return { ...m, logged_advantage: v };
    }),
  }));
  const summary: LoggedAdvantages = {
    samples: logged.byRollout.size,
    files: logged.files,
    members,
    compared,
    differ,
    tolerance: LOGGED_TOLERANCE,
    // With nothing compared every rule would fit vacuously: none is said to.
    fits: compared === 0 ? [] : ADVANTAGE_RULES.filter((r) => groups.every((g) => fits(g, r))),
  };
  return { ...body, groups, logged: summary };
}
