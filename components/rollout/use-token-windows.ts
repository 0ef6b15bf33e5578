"use client";
// A sequence's token windows, loaded as rows scroll into view (the first brings the segments and
// total), and the token at a position.
import { useCallback } from "react";
import { tokenWindowSchema } from "@/lib/schema/api";
import { usePages } from "@/components/shared/use-pages";

export const WINDOW = 2000;

export interface TokenAt {
  pos: number;
  id: number;
  text: string | null;
  piece: string | null;
  mask: number;
  logProb: number | null;
  call: string;
}

const asWindow = (v: unknown) => tokenWindowSchema.parse(v);

export function useTokenWindows(url: string) {
  const { first, error, ensure, pageOf } = usePages(url, WINDOW, asWindow);
  const tokenAt = useCallback(
    (pos: number): TokenAt | null => {
      const w = pageOf(pos);
      if (!w) return null;
      const k = pos - w.offset;
      const id = w.tokens.id[k];
      if (id === undefined) return null;
      return {
        pos,
        id,
        text: w.tokens.text?.[k] ?? null,
        piece: w.tokens.piece?.[k] ?? null,
        mask: w.tokens.mask[k] as number,
        logProb: w.tokens.log_prob[k] ?? null,
        call: w.call_ids[w.tokens.call[k] as number] as string,
      };
    },
    [pageOf],
  );
  return { first, error, ensure, tokenAt };
}
