// Runs in the browser before any of the app's modules (Next's client instrumentation hook). zod 4,
// as it builds an object schema, probes whether it may compile fast parsers with `new Function("")`;
// the pages' CSP allows no eval, so the probe throws (caught) and Chromium reports a CSP violation on
// every page that parses a response. `jitless` skips the probe: without eval the compiled parsers
// never ran in the browser anyway. The server, which has no CSP, keeps them.
import { config } from "zod";

config({ jitless: true });
