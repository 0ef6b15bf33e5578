// `npm run bench`: every benchmark; each prints its figure on its last line. Large stores are
// generated once under bench/out/large (`npm run fixtures -- --large` writes the same files).
import { benchBuilder } from "./builder.bench";
import { benchInspector } from "./inspector.bench";
import { benchTokenView } from "./token-view.bench";
import { benchIndex } from "./index.bench";
import { benchLoad } from "./load.bench";

await benchBuilder();
await benchInspector();
await benchTokenView();
await benchIndex();
await benchLoad();
