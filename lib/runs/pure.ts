// lib/runs for browser components: what touches no file, database or Node API.
export { loggedDiffers } from "./logged-advantages";
