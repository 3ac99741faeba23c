/**
 * The one place SDK errors become words. Screens show these, never a server's
 * own message or a stack trace; validation errors from the SDK carry the
 * field-level messages of @engram/core's rules, which are written for people.
 */
import { EngramError, type EngramErrorCode } from "@engram/sdk";

const messages: Record<EngramErrorCode, string> = {
  "auth/invalid-credentials": "That email and password don't match. Check them and try again.",
  "auth/email-not-confirmed": "Confirm your email first: open the link we sent you.",
  "auth/user-exists": "An account with this email already exists. Sign in instead.",
  "auth/weak-password": "Choose a different password of at least 8 characters.",
  "auth/rate-limited": "Too many attempts. Wait a minute and try again.",
  "auth/session-expired": "Your session ended. Sign in again to continue.",
  "auth/link-expired": "This link has expired or was already used. Ask for a new one.",
  "permission-denied": "You don't have permission to do that.",
  "not-found": "This no longer exists, or it isn't shared with you.",
  validation: "Some details need fixing. Check the highlighted fields.",
  conflict: "Someone else changed this at the same time. Reload and try again.",
  "note/conflict":
    "Someone else changed this note while you were editing. Your changes are still here — reload the note to see theirs.",
  "note-history/type-changed":
    "This version used the note type's fields as they were before it changed, so it can't be brought back.",
  "note-type/in-use":
    "Notes use this note type: it can't be removed, and a change can't drop their cards or filled fields.",
  "note-type/conflict":
    "Someone else changed this note type while you were editing. Your changes are still here — reload it to see theirs.",
  "search/syntax": "This search can't run: check its syntax (see “Search syntax” beside the search box).",
  "quota-exceeded": "That is over the limit. Try something smaller.",
  "import/unsupported-format": "This file type can't be imported. Use .apkg, .csv or .tsv.",
  "import/corrupt-file": "This file is damaged or not a deck Engram can read.",
  network: "Engram can't reach the server. Check your connection and try again.",
  internal: "Something went wrong on our side. Try again in a moment.",
};

export const sessionEndedMessage = messages["auth/session-expired"];

export function errorCode(error: unknown): EngramErrorCode {
  return error instanceof EngramError ? error.code : "internal";
}

/** A sentence for any error thrown by an SDK call. */
export function errorMessage(error: unknown): string {
  const stale = staleNotes(error);
  if (stale !== null) return staleNotesMessage(stale);
  return messages[errorCode(error)];
}

/** How many notes a bulk action found changed since they were loaded (`detail.notes`), or null for any other error. */
function staleNotes(error: unknown): number | null {
  if (!(error instanceof EngramError) || error.code !== "note/conflict") return null;
  const notes = (error.detail as { notes?: unknown } | undefined)?.notes;
  return Array.isArray(notes) ? notes.length : null;
}

function staleNotesMessage(count: number): string {
  const which = count === 1 ? "1 of the selected notes was" : `${count} of the selected notes were`;
  return `${which} changed by someone else since you loaded them, so nothing was changed. The list now shows their changes; try again.`;
}

/**
 * Messages per form field: a validation error's `detail` (`{ field, message }[]`),
 * or the code's own message for any other error that names its field.
 */
export function fieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof EngramError)) return {};
  if (error.code !== "validation") return error.field ? { [error.field]: messages[error.code] } : {};
  const errors: Record<string, string> = {};
  const issues = Array.isArray(error.detail) ? (error.detail as unknown[]) : [];
  for (const issue of issues) {
    if (!isIssue(issue)) continue;
    const field = issue.field || error.field || "";
    errors[field] ??= issue.message;
  }
  if (issues.length === 0 && error.field) errors[error.field] = messages.validation;
  return errors;
}

function isIssue(value: unknown): value is { field: string; message: string } {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { field?: unknown }).field === "string" &&
    typeof (value as { message?: unknown }).message === "string"
  );
}

/** Why an image or sound could not be added to a card (docs/product.md §5 media limits). */
export function mediaUploadMessage(error: unknown): string {
  const code = errorCode(error);
  if (code === "quota-exceeded") return "This file is over 10 MB. Choose a smaller one.";
  if (code === "validation") {
    return error instanceof EngramError && error.rule === "svg"
      ? "This SVG couldn't be drawn as a picture. Save it as PNG and try again."
      : "This file type can't be used. Use an image (PNG, JPEG, GIF, WebP, SVG) or a sound (MP3, OGG, M4A, WAV).";
  }
  return messages[code];
}

/** Why a profile picture could not be saved (docs/product.md §5: avatars up to 2 MB). */
export function avatarUploadMessage(error: unknown): string {
  const code = errorCode(error);
  if (code === "quota-exceeded") return "This picture is over 2 MB. Choose a smaller one.";
  if (code === "validation") return "This file can't be a picture. Use a PNG, JPEG, GIF or WebP image.";
  return messages[code];
}

/** Why an authenticator code was not accepted: mistyped, or the app's code had already changed. */
export function totpCodeMessage(error: unknown): string {
  // A code is accepted once; the server then ends every session of the account, as a replay may be an attacker's.
  if (error instanceof EngramError && error.rule === "code_reused") {
    return "That code was just used, so you were signed out everywhere to be safe. Wait for your app's next code and sign in again.";
  }
  if (errorCode(error) !== "validation") return messages[errorCode(error)];
  return error instanceof EngramError && error.rule === "format"
    ? "Enter the 6-digit code from your authenticator app."
    : "That code didn't work. Enter the code your authenticator app shows now.";
}

/** Why an import could not start or finish (docs/product.md §5: files up to 200 MB). */
export function importErrorMessage(error: unknown): string {
  const code = errorCode(error);
  if (code === "quota-exceeded")
    return "This file is over 200 MB, the most Engram imports at once. Split the deck in Anki and import the parts.";
  if (code === "permission-denied")
    return "You can't add notes to that deck. Choose a deck you own or edit, or a new deck.";
  return messages[code];
}

/** Why the optimiser did not run: too few reviews says how many there are, in the SDK's own words. */
export function optimiseErrorMessage(error: unknown): string {
  if (error instanceof EngramError && error.code === "validation") {
    return error.rule === "not-enough-reviews"
      ? error.message
      : "Training on your reviews gave no usable settings, so your scheduler stays as it was.";
  }
  return messages[errorCode(error)];
}

/** Why deleted notes could not be restored (docs/product.md §3, "Recently deleted"). */
export function restoreErrorMessage(error: unknown): string {
  if (error instanceof EngramError && error.code === "not-found") {
    return error.field === "note_type_id"
      ? "A chosen note's note type was deleted since, so it can't be restored. Nothing was restored."
      : "A chosen note is no longer in Recently deleted (its 30 days are over). Nothing was restored; the list now shows what is left.";
  }
  if (errorCode(error) === "validation") {
    return "A chosen note no longer fits its note type, which changed since it was deleted. Nothing was restored.";
  }
  return messages[errorCode(error)];
}
