/** Core's note-type CSS sanitiser, in a chunk of its own: its CSS parser loads with the first card that has CSS. */
export { sanitizeCardCss } from "@engram/core";
