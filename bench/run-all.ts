// `npm run bench`: every benchmark; each prints its figure on its last line.
import { benchBuilder } from "./builder.bench";

await benchBuilder();
