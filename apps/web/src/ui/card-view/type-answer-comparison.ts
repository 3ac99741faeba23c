/** Core's typed-answer comparison, in a chunk of its own: type-answer.tsx loads it with the first type-in card. */
export { compareTypedAnswer } from "@engram/core";
