// Maps lib's errors to HTTP statuses, checks a request's host and token, and parses route params.
export { errorResponse, isNotFound, orNotFound, pageAnswer } from "./errors";
export { json, profileParam } from "./params";
export { answer, type Ask } from "./answer";
