import { describe, expect, test } from "vitest";
import { EngramError, fromPostgrestError } from "./errors.js";

const body = (code: string, message: string, details: string | null = null) => ({ code, message, details, hint: null });

describe("fromPostgrestError", () => {
  test("a stale review becomes a conflict carrying the current schedule", () => {
    const error = fromPostgrestError(body("PT409", "this card was answered on another device", '{"version":3}'));
    expect(error).toBeInstanceOf(EngramError);
    expect(error.code).toBe("conflict");
    expect(error.detail).toEqual({ version: 3 });
  });

  test("a stale note edit becomes a note conflict carrying the current version", () => {
    const error = fromPostgrestError(body("PT412", "this note was changed since it was loaded", '{"version":4}'));
    expect(error).toMatchObject({ code: "note/conflict", detail: { version: 4 } });
  });

  test("a broken check constraint becomes a validation error naming the rule", () => {
    const error = fromPostgrestError(
      body("23514", 'new row for relation "notes" violates check constraint "notes_front_required"'),
    );
    expect(error.code).toBe("validation");
    expect(error.rule).toBe("notes_front_required");
  });

  test("an invalid argument becomes a validation error naming the field", () => {
    const error = fromPostgrestError(body("22023", "rating must be 1, 2, 3 or 4", "rating"));
    expect(error).toMatchObject({ code: "validation", field: "rating" });
  });

  test("insufficient privilege becomes permission-denied and keeps the cause", () => {
    const cause = body("42501", "only the owner of a deck can invite");
    const error = fromPostgrestError(cause);
    expect(error.code).toBe("permission-denied");
    expect(error.cause).toBe(cause);
  });

  test("quota and not-found codes map to their catalogue entries", () => {
    expect(fromPostgrestError(body("PT413", "too many invites", "invites")).code).toBe("quota-exceeded");
    expect(fromPostgrestError(body("PT404", "deck not found", "deck_id")).code).toBe("not-found");
    expect(fromPostgrestError(body("PT410", "this invite has expired", "expired"))).toMatchObject({
      code: "not-found",
      rule: "expired",
    });
  });

  test("anything unknown becomes internal", () => {
    expect(fromPostgrestError(body("XX000", "boom")).code).toBe("internal");
  });
});
