"use client";
// Record-field columns of the rollouts table: the scalar fields the run's rollout records carry
// (/api/runs/{run}/record-fields), a picker whose choice lives in the URL (`fields=a,b`), and the
// values of the rows in view, fetched for just those rollouts and kept while the choice stands.
import { useEffect, useState } from "react";
import { type UrlPatch } from "@/components/shared/url-state";
import { useUrlFlag } from "@/components/shared/use-url-flag";
import { type FieldValue, type RecordField, API } from "@/lib/schema";
import { getApi } from "@/components/shared/api";

/** The page URL's key for the chosen record fields. */
export const FIELDS_KEY = "fields";
const MAX_IDS = 500;

/** The record fields chosen in the page URL, in the order chosen. */
export function pickedFields(params: URLSearchParams): string[] {
  return [...new Set((params.get(FIELDS_KEY) ?? "").split(",").filter(Boolean))];
}

/** The run's record fields (null while loading; [] for a run without records). */
export function useRecordFields(runId: string): RecordField[] | null {
  const [fields, setFields] = useState<{ runId: string; list: RecordField[] } | null>(null);
  useEffect(() => {
    const ctl = new AbortController();
    getApi(API.recordFields, { run: runId }, undefined, ctl.signal).then(
      (body) => setFields({ runId, list: body.fields }),
      () => !ctl.signal.aborted && setFields({ runId, list: [] }),
    );
    return () => ctl.abort();
  }, [runId]);
  return fields?.runId === runId ? fields.list : null;
}

type Values = ReadonlyMap<string, Readonly<Record<string, FieldValue>>>;
interface Cache {
  key: string;
  values: Map<string, Record<string, FieldValue>>;
  asked: Set<string>;
}
const EMPTY: Values = new Map();

/**
 * Values of `columns` for the rollouts `ids` (the rows in view), fetched for the ids not yet asked;
 * an id is absent until answered.
 */
export function useRecordValues(runId: string, columns: string[], ids: string[]): Values {
  const key = columns.length ? `${runId}\n${columns.join(",")}` : "";
  const [cache, setCache] = useState<Cache | null>(null);
  const current = cache?.key === key ? cache : null;
  const missing = key ? ids.filter((id) => !current?.asked.has(id)).slice(0, MAX_IDS) : [];
  const missingKey = missing.join("\n");
  useEffect(() => {
    if (!missingKey) return;
    const want = missingKey.split("\n");
    const q = new URLSearchParams({ columns: key.slice(key.indexOf("\n") + 1) });
    for (const id of want) q.append("id", id);
    const ctl = new AbortController();
    getApi(API.recordFields, { run: runId }, q, ctl.signal).then(
      (body) =>
        setCache((prev) => {
          const from: Cache =
            prev?.key === key ? prev : { key, values: new Map(), asked: new Set<string>() };
          const next: Cache = { key, values: new Map(from.values), asked: new Set(from.asked) };
          for (const id of want) {
            next.asked.add(id);
            // An id without a record maps to {}: asked and answered, so its cells say "—", not "…".
            next.values.set(id, body.values[id] ?? {});
          }
          return next;
        }),
      () => undefined,
    );
    return () => ctl.abort();
  }, [runId, key, missingKey]);
  return current?.values ?? EMPTY;
}

/** A record field's value as a cell shows it; "—" where the record has none. */
export function fieldText(v: FieldValue | undefined): string {
  if (v === null || v === undefined) return "—";
  if (typeof v === "number" && !Number.isInteger(v)) return v.toFixed(3);
  return String(v);
}

/** The picker: one checkbox per record field, the choice kept in the URL. */
export function ColumnPicker({
  fields,
  params,
  set,
}: {
  fields: RecordField[];
  params: URLSearchParams;
  set: (p: UrlPatch) => void;
}) {
  const picked = pickedFields(params);
  const chosen = new Set(picked);
  if (fields.length === 0) return null;
  const toggle = (path: string, on: boolean) => {
    // From the live URL: a second click before the first one's URL rendered keeps the first.
    const now = pickedFields(new URLSearchParams(window.location.search));
    const next = on ? [...now.filter((p) => p !== path), path] : now.filter((p) => p !== path);
    set({ [FIELDS_KEY]: next.join(",") || null });
  };
  return (
    <details className="columns" data-testid="record-field-picker">
      <summary>record fields{picked.length > 0 ? ` (${picked.length})` : ""}</summary>
      {fields.map((f) => (
        <FieldChoice key={f.path} field={f} on={chosen.has(f.path)} toggle={toggle} />
      ))}
    </details>
  );
}

/** One field's checkbox: shows the click at once, then follows the URL (useUrlFlag). */
function FieldChoice(props: {
  field: RecordField;
  on: boolean;
  toggle: (path: string, on: boolean) => void;
}) {
  const f = props.field;
  const [on, setOn] = useUrlFlag(props.on);
  return (
    <label className="col-choice" title={`${f.types.join(", ")} · ${f.records} records`}>
      <input
        type="checkbox"
        checked={on}
        onChange={(e) => {
          setOn(e.target.checked);
          props.toggle(f.path, e.target.checked);
        }}
        data-testid="record-field-choice"
        data-path={f.path}
      />{" "}
      <span className="mono">{f.path}</span>
    </label>
  );
}

/** Fields in the URL that this run's records do not carry: what they are, the allowed, a way out. */
export function BadFields(props: {
  bad: string[];
  allowed: string[];
  picked: string[];
  keep: (fields: string[]) => void;
}) {
  return (
    <div className="error-box" role="alert" data-testid="bad-record-fields">
      <strong>
        {FIELDS_KEY}: {props.bad.map((b) => JSON.stringify(b)).join(", ")}{" "}
        {props.bad.length === 1 ? "is not a scalar field" : "are not scalar fields"} of this
        run&apos;s rollout records
      </strong>
      <p className="small">
        {props.allowed.length ? `allowed: ${props.allowed.join(", ")}` : "this run has no records"}
      </p>
      <button className="linkish" onClick={() => props.keep(props.picked)}>
        Drop {props.bad.length === 1 ? "it" : "them"}
      </button>
    </div>
  );
}
