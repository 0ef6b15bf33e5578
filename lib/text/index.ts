// Words shared by every layer (plural forms, what a feature without a tokenizer says).
export { counted, plural } from "./plural";
export { tokenizerNeeded } from "./tokenizer-needed";
