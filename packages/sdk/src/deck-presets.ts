/**
 * Deck presets (Anki's deck option groups): a user's named study options —
 * daily limits, leeches, burying — that several of their decks share. A deck
 * using a preset has the preset's options; changing the preset changes every
 * deck using it. Decks choose one with `decks.setPreset`.
 */
import { deckInputSchema } from "@engram/core";
import { z } from "zod/mini";
import type { Tables } from "./database.types.js";
import { EngramError } from "./errors.js";
import { run, validate } from "./request.js";
import { currentUserId } from "./session.js";
import type { EngramClient } from "./supabase-client.js";

/** A preset, with how many of the user's decks use it. */
export type DeckPreset = Tables<"deck_presets"> & { deck_count: number };
/** A preset's study options, as a deck's (null daily limits: each member's own). */
export type PresetOptions = Pick<
  z.input<typeof deckInputSchema>,
  | "new_per_day"
  | "reviews_per_day"
  | "leech_threshold"
  | "leech_action"
  | "bury_new"
  | "bury_reviews"
  | "bury_interday_learning"
>;
export type PresetInput = PresetOptions & { name: string };
export type PresetPatch = Partial<PresetInput>;

const presetNameSchema = z
  .string({ error: "The preset name must be text." })
  .check(z.trim(), z.minLength(1, "Give the preset a name."), z.maxLength(120, "Use at most 120 characters."));
const presetInputSchema = z.extend(
  z.pick(deckInputSchema, {
    new_per_day: true,
    reviews_per_day: true,
    leech_threshold: true,
    leech_action: true,
    bury_new: true,
    bury_reviews: true,
    bury_interday_learning: true,
  }),
  { name: presetNameSchema },
);
const presetPatchSchema = z.partial(presetInputSchema);
const presetIdSchema = z.guid("Unknown preset.");

/** Every column, and the number of decks (all the user's own) using the preset. */
const presetColumns = "*, decks(count)";
type PresetRow = Tables<"deck_presets"> & { decks: { count: number }[] };

const withCount = ({ decks, ...preset }: PresetRow): DeckPreset => ({ ...preset, deck_count: decks[0]?.count ?? 0 });

/** A name the user already gave another preset is the name field's fault. */
function nameTaken(error: unknown): never {
  if (error instanceof EngramError && error.code === "conflict") {
    const message = "You already have a preset with this name.";
    throw new EngramError("validation", message, {
      field: "name",
      detail: [{ field: "name", message }],
      cause: error.cause,
    });
  }
  throw error;
}

const gone = () => new EngramError("not-found", "This preset no longer exists.");

export function createDeckPresets(supabase: EngramClient) {
  return {
    /** The user's presets, by name. */
    async list(): Promise<DeckPreset[]> {
      const userId = await currentUserId(supabase);
      const rows = await run<PresetRow[]>(
        supabase.from("deck_presets").select(presetColumns).eq("owner_id", userId).order("name").order("id"),
      );
      return rows.map(withCount);
    },

    /** A new preset of the user's; options left out take a new deck's defaults. */
    async create(input: PresetInput): Promise<DeckPreset> {
      const preset = validate(presetInputSchema, input);
      const ownerId = await currentUserId(supabase);
      const created = await run<PresetRow>(
        supabase
          .from("deck_presets")
          .insert({ ...preset, owner_id: ownerId })
          .select(presetColumns)
          .single(),
      ).catch(nameTaken);
      return withCount(created);
    },

    /** Renames a preset or changes its options, and so those of every deck using it. */
    async update(presetId: string, patch: PresetPatch): Promise<DeckPreset> {
      const id = validate(presetIdSchema, presetId);
      const checked = validate(presetPatchSchema, patch);
      await currentUserId(supabase);
      const [updated] = await run<PresetRow[]>(
        supabase.from("deck_presets").update(checked).eq("id", id).select(presetColumns),
      ).catch(nameTaken);
      if (!updated) throw gone();
      return withCount(updated);
    },

    /** Deletes a preset; the decks using it keep the options they have, as their own. */
    async remove(presetId: string): Promise<void> {
      const id = validate(presetIdSchema, presetId);
      await currentUserId(supabase);
      const deleted = await run(supabase.from("deck_presets").delete().eq("id", id).select("id"));
      if (deleted.length === 0) throw gone();
    },
  };
}
