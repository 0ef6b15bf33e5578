// Words shared by every layer (plural forms).
export { counted, plural } from "./plural";
