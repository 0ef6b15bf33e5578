// Every JSON route of the API, each once: its path (from its parameters), the fixed query that
// selects its answer where one path has several (`?stamp=1`, `?segments=1`, `?lowprob=`), and the
// schema of that answer. The browser fetches through this table (components/shared/api) and each
// route handler answers through it (app/api/answer), so a path and its schema are paired here only.
import type { z } from "zod";
import { comparisonSchema } from "./api-compare";
import { rolloutDiffSchema } from "./api-diff";
import { callDetailSchema } from "./api-call-detail";
import { expertsWindowSchema } from "./api-experts";
import { conversationPageSchema } from "./api-conversation";
import { recordFieldsSchema, runGroupsSchema } from "./api-groups";
import { buildProgressSchema, rolloutNeighborsSchema } from "./api-progress";
import { rolloutFactsSchema, rolloutStampSchema, rolloutViewSchema } from "./api-rollout";
import { runListSchema } from "./api-run-list";
import { rolloutPageSchema, runHealthSchema } from "./api-runs";
import { findResultSchema } from "./api-search";
import { lowProbMatchesSchema, segmentedWindowSchema, tokenWindowSchema } from "./api-tokens";
import {
  mismatchDistributionSchema,
  rolloutMismatchSchema,
  trainerTruthSchema,
} from "./api-trainer";
import { trainingSectionSchema } from "./api-training";
import { trainerHotspotsSchema } from "./api-hotspots";
import { runLedgerSchema } from "./api-ledger";

export type RunParams = { run: string };
export type RolloutParams = { run: string; rollout: string };
export type CallParams = { run: string; rollout: string; call: string };

export interface ApiRoute<P, S extends z.ZodType = z.ZodType> {
  path: (params: P) => string;
  /** Query parameters this answer always has (the rest are the caller's). */
  fixed?: Readonly<Record<string, string>>;
  schema: S;
}

/** A query as callers write it: absent values (undefined, null, "") are left out. */
export type Query =
  URLSearchParams | Readonly<Record<string, string | number | boolean | null | undefined>>;

const enc = encodeURIComponent;
const runPath = (p: RunParams) => `/api/runs/${enc(p.run)}`;
const rolloutPath = (p: RolloutParams) => `${runPath(p)}/rollouts/${enc(p.rollout)}`;
const route = <P, S extends z.ZodType>(
  path: (p: P) => string,
  schema: S,
  fixed?: Record<string, string>,
): ApiRoute<P, S> => ({ path, schema, fixed });

export const API = {
  runs: route((): string => "/api/runs", runListSchema),
  compare: route((): string => "/api/compare", comparisonSchema),
  diff: route((): string => "/api/diff", rolloutDiffSchema),
  health: route((p: RunParams) => `${runPath(p)}/health`, runHealthSchema),
  rollouts: route((p: RunParams) => `${runPath(p)}/rollouts`, rolloutPageSchema),
  recordFields: route((p: RunParams) => `${runPath(p)}/record-fields`, recordFieldsSchema),
  groups: route((p: RunParams) => `${runPath(p)}/groups`, runGroupsSchema),
  ledger: route((p: RunParams) => `${runPath(p)}/ledger`, runLedgerSchema),
  truth: route((p: RunParams) => `${runPath(p)}/trainer/truth`, trainerTruthSchema),
  training: route((p: RunParams) => `${runPath(p)}/trainer/training`, trainingSectionSchema),
  mismatchDistribution: route(
    (p: RunParams) => `${runPath(p)}/trainer/mismatch-distribution`,
    mismatchDistributionSchema,
  ),
  hotspots: route((p: RunParams) => `${runPath(p)}/trainer/hotspots`, trainerHotspotsSchema),
  rollout: route(rolloutPath, rolloutViewSchema),
  rolloutStamp: route(rolloutPath, rolloutStampSchema, { stamp: "1" }),
  rolloutFacts: route(rolloutPath, rolloutFactsSchema, { facts: "1" }),
  progress: route((p: RolloutParams) => `${rolloutPath(p)}/progress`, buildProgressSchema),
  neighbors: route((p: RolloutParams) => `${rolloutPath(p)}/neighbors`, rolloutNeighborsSchema),
  tokens: route((p: RolloutParams) => `${rolloutPath(p)}/tokens`, tokenWindowSchema),
  tokensOpening: route((p: RolloutParams) => `${rolloutPath(p)}/tokens`, segmentedWindowSchema, {
    segments: "1",
  }),
  experts: route((p: RolloutParams) => `${rolloutPath(p)}/experts`, expertsWindowSchema),
  lowProb: route((p: RolloutParams) => `${rolloutPath(p)}/tokens`, lowProbMatchesSchema),
  find: route((p: RolloutParams) => `${rolloutPath(p)}/find`, findResultSchema),
  conversation: route(
    (p: RolloutParams) => `${rolloutPath(p)}/conversation`,
    conversationPageSchema,
  ),
  callDetail: route((p: CallParams) => `${rolloutPath(p)}/calls/${enc(p.call)}`, callDetailSchema),
  trainerMismatch: route(
    (p: RolloutParams) => `${rolloutPath(p)}/trainer-mismatch`,
    rolloutMismatchSchema,
  ),
} as const;

/** A route that answers a file to download, not a parsed answer: its path only. */
export interface Download<P> {
  path: (params: P) => string;
  download: true;
}

export const DOWNLOADS = {
  /** The rollouts table as CSV or JSON rows (`?format=csv|json` and the table's filters). */
  export: { path: (p: RunParams) => `${runPath(p)}/export`, download: true } as Download<RunParams>,
} as const;

export type ParamsOf<R> = R extends ApiRoute<infer P> ? P : never;
export type AnswerOf<R> = R extends ApiRoute<unknown, infer S> ? z.infer<S> : never;

/** The URL of a route's answer: its path, its fixed query, then the caller's. */
export function apiUrl<P>(route: ApiRoute<P>, params: P, query?: Query): string {
  return withQuery(route.path(params), { ...route.fixed }, query);
}

/** A path with a query appended, absent values left out. */
export function withQuery(path: string, first: Query, then?: Query): string {
  const q = new URLSearchParams();
  for (const part of [first, then]) {
    if (!part) continue;
    const entries = part instanceof URLSearchParams ? [...part] : Object.entries(part);
    // A later part replaces an earlier one's key; one part may repeat a key (`id=a&id=b`).
    for (const k of new Set(entries.map(([k]) => k))) q.delete(k);
    for (const [k, v] of entries)
      if (v !== undefined && v !== null && v !== "") q.append(k, String(v));
  }
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}
