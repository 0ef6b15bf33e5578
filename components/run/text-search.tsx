"use client";
// The run page's search of the rollouts' text (`text=` in the URL, lib/index/search's syntax):
// the box, why it is off (a run without a tokenizer), how much text is indexed while the index
// still runs, and each row's best hit under the row. Not the `q` filter of ids and error messages
// (./table-filters), which matches the summary, not the text the model read and wrote.
import Link from "next/link";
import type { TextHit, TextSearch } from "@/lib/schema";
import { short } from "@/components/rollout/labels";
import type { UrlPatch } from "@/components/shared/url-state";
import { useUrlText } from "@/components/shared/use-url-text";
import { TEXT_KIND_WORDS, textIndexedWords } from "@/lib/view";
import { parseTextQuery } from "@/lib/index/pure";

/** What the syntax is, in a line under the box's label. */
const SYNTAX = 'words all match · "a phrase" as written · kind:generated, input or error';

/**
 * Whether typing pauses send the query: not while every word is under three characters (no trigram
 * narrows it, so every rollout's text is read: seconds on a large run); Enter sends it anyway. A
 * word in another script (`操作`) is a whole word in two characters, and is sent.
 */
function searchesAtOnce(value: string): boolean {
  const q = parseTextQuery(value);
  return q === null || q.fts !== null || q.needles.length === 0 || /[^\u0000-\u007f]/.test(value);
}

export function TextSearchBox({
  params,
  set,
  search,
  indexTotal,
}: {
  params: URLSearchParams;
  set: (patch: UrlPatch) => void;
  /** The run's search availability from the table's newest page (null before the first). */
  search: TextSearch | null;
  /** The rollouts in the run while the index still runs; null once it is complete. */
  indexTotal: number | null;
}) {
  const [value, setValue, { held, commit }] = useUrlText("text", params, set, 300, searchesAtOnce);
  const unavailable = search?.unavailable ?? null;
  const partial = search && !unavailable ? textIndexedWords(search.indexed, indexTotal) : null;
  // A lone quote or blanks hold nothing to look for: the table is not narrowed, and says why.
  const parsed = parseTextQuery(value);
  const nothing = value.trim() !== "" && parsed === null;
  const unknownKinds = parsed?.unknownKinds ?? [];
  return (
    <div className="text-search" data-testid="search">
      <label htmlFor="search-text">Search text</label>
      <input
        id="search-text"
        className="search text-search-input"
        type="search"
        placeholder='rm -rf   "Traceback"   kind:error'
        title={`The rollouts' decoded text: ${SYNTAX}`}
        value={value}
        disabled={unavailable !== null}
        aria-describedby="search-text-note"
        onChange={(e) => setValue(e.target.value)}
        onKeyDown={(e) => e.key === "Enter" && commit()}
        data-testid="search-text"
      />
      <span id="search-text-note" className="muted small" data-testid="search-note">
        {unavailable ? (
          <span className="warn-text" data-testid="search-unavailable">
            {unavailable}
          </span>
        ) : held ? (
          <span data-testid="search-held">
            Short words match almost every rollout and read all their text: press Enter to search
          </span>
        ) : nothing ? (
          <span className="warn-text" data-testid="search-nothing">
            Nothing to look for yet
          </span>
        ) : unknownKinds.length > 0 ? (
          <span className="warn-text" data-testid="search-unknown-kind">
            {unknownKinds.join(", ")}: not a kind (generated, input or error), looked for as text
          </span>
        ) : partial ? (
          <span data-testid="search-progress" data-indexed={search?.indexed}>
            {partial}
          </span>
        ) : (
          SYNTAX
        )}
      </span>
    </div>
  );
}

/**
 * A row's best hit, on a line of its own under the row: where the text is from, and the text
 * around the match with the match marked, linking to the inspector at it (`href`; null for a
 * rollout with nothing left to inspect). The text is the model's and its tools': React escapes it.
 * The row's last cell (ARIA) while searching.
 */
export function TextHitLine({ hit, href }: { hit: TextHit | null; href: string | null }) {
  if (!hit)
    return (
      <div className="vhit muted" data-testid="search-hit" role="cell">
        …
      </div>
    );
  const text = (
    <>
      {hit.before}
      <mark>{hit.match}</mark>
      {hit.after}
    </>
  );
  return (
    <div
      className="vhit"
      role="cell"
      data-testid="search-hit"
      data-kind={hit.kind}
      data-call={hit.call}
      data-pos={hit.pos ?? undefined}
    >
      <span className={`hit-kind ${hit.kind}`} data-testid="search-hit-kind">
        {TEXT_KIND_WORDS[hit.kind]}
      </span>
      <span className="muted mono small hit-call" title={hit.call}>
        {short(hit.call)}
      </span>
      {href ? (
        <Link
          href={href}
          className="hit-text"
          title={hit.pos === null ? "open the call's detail" : "open the tokens at this match"}
          data-testid="search-hit-link"
        >
          {text}
        </Link>
      ) : (
        <span className="hit-text">{text}</span>
      )}
    </div>
  );
}
