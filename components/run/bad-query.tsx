// A query the rollouts route refuses (a 400), shown above the rollouts table in place of rows:
// each bad parameter, what it takes, and a way out (drop them).
import { Fragment } from "react";
import { plural } from "@/lib/text";
import type { BadQueryParam } from "./use-row-pages";

/** A query the rollouts route refuses (a 400): each bad parameter, what it takes, and a way out. */
export function BadQuery({ bad, drop }: { bad: BadQueryParam[]; drop: () => void }) {
  return (
    <div className="error-box" role="alert" data-testid="rollouts-bad-query">
      <strong>400 · the table cannot take {plural(bad.length, "parameter")} of this address</strong>
      <ul>
        {bad.map((b) => (
          <li key={b.key} data-testid="bad-query-param" data-key={b.key}>
            <span className="mono">
              {b.key}={JSON.stringify(b.given)}
            </span>
            :{" "}
            {b.allowed ? (
              <>
                {b.key} takes one of{" "}
                {b.allowed.map((v, i) => (
                  <Fragment key={v}>
                    {i > 0 && ", "}
                    <code>{v}</code>
                  </Fragment>
                ))}
              </>
            ) : (
              b.rule
            )}
          </li>
        ))}
      </ul>
      <button className="linkish" onClick={drop} data-testid="bad-query-drop">
        Drop {bad.length === 1 ? "it" : "them"} and show the rollouts
      </button>
    </div>
  );
}
