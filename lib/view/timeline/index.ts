// The call timeline: its rows, moving through them by key, their words, and call numbers for sentences.
export { moveInTimeline, timelineCursor, visibleRows } from "./keys";
export { timelinePositions } from "./positions";
export { buildTimeline, type DanglingIntent, isCall, type TimelineRow } from "./rows";
export { compact, modelText, seconds } from "./words";
