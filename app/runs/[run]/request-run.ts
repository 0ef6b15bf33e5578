// The run a request names, read once however many of its layouts and pages ask (React's
// per-request cache): the run page's layout and page, the inspector's layout, load and cache check.
import "server-only";
import { cache } from "react";
import { getRun } from "@/lib/runs";

export const requestRun = cache((id: string) => getRun(id));
