/**
 * The study options a deck shares with its preset, read from the settings
 * form as typed: the SDK checks them and names the field at fault.
 */
import type { PresetOptions } from "@engram/sdk";
import { textOf } from "../../forms/form-errors.js";
import { buryPatch } from "./bury-fields.js";
import { leechPatch } from "./leech-fields.js";

/** An empty box means "no limit of the deck's own": each member's profile limit. */
function limitOf(form: FormData, name: string): number | null {
  const value = textOf(form, name).trim();
  return value === "" ? null : Number(value);
}

export function presetOptionsOf(form: FormData): PresetOptions {
  return {
    new_per_day: limitOf(form, "new_per_day"),
    reviews_per_day: limitOf(form, "reviews_per_day"),
    ...leechPatch(form),
    ...buryPatch(form),
  };
}
