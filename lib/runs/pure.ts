// lib/runs for browser components: what touches no file, database or Node API.
export { ADVANTAGE_RULES, loggedDiffers } from "./logged-advantages";
