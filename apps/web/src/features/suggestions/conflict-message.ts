import { EngramError } from "@engram/sdk";
import { errorMessage } from "../../lib/error-messages.js";

/** Why a review was refused, in words: edits clashing with later changes, or suggestions reviewed meanwhile. */
export function reviewErrorMessage(error: unknown): string {
  if (error instanceof EngramError && error.code === "conflict" && typeof error.detail === "object" && error.detail) {
    const detail = error.detail as { conflicts?: { id: string; fields: string[] }[]; suggestions?: unknown[] };
    if (detail.conflicts) {
      const fields = [...new Set(detail.conflicts.flatMap((conflict) => conflict.fields))];
      return `The note changed since in ${fields.length > 0 ? fields.join(", ") : "the same place"}: use “Edit, then accept” to settle it. Nothing was accepted.`;
    }
    if (detail.suggestions) return "Some of these were reviewed or withdrawn meanwhile. The list is up to date now.";
  }
  return errorMessage(error);
}
