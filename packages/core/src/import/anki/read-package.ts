/** Reads an Anki .apkg/.colpkg from its bytes into Engram's shapes; no I/O beyond the bytes given. */
import { limits } from "../../limits";
import { ByteBudget, zstdDecompress } from "./budget";
import { readCollection } from "./collection";
import { AnkiImportError, asCorrupt } from "./errors";
import { mapNotes } from "./mapping";
import { missingMediaNames, readMedia, readMediaMap } from "./media";
import { noteTypeSummary } from "./note-types";
import { readReviews } from "./reviews";
import { openDatabase } from "./sqlite";
import type { AnkiFormat, AnkiNoteTypeSummary, AnkiPackage, AnkiReadOptions } from "./types";
import { ZipArchive } from "./zip";

export const defaultMaxUncompressedBytes = 1024 * 1024 * 1024;

/** The members Anki itself prefers, newest first: newer packages carry a dummy anki2 too. */
const collections: [string, AnkiFormat][] = [
  ["collection.anki21b", "anki21b"],
  ["collection.anki21", "anki21"],
  ["collection.anki2", "anki2"],
];

export async function readAnkiPackage(bytes: Uint8Array, options: AnkiReadOptions = {}): Promise<AnkiPackage> {
  if (bytes.length > limits.importBytes) {
    throw new AnkiImportError("too-large", `Imports are limited to ${limits.importBytes} bytes.`);
  }
  const budget = new ByteBudget(options.maxUncompressedBytes ?? defaultMaxUncompressedBytes);
  const zip = new ZipArchive(bytes, budget);
  const found = collections.find(([member]) => zip.has(member));
  if (!found) throw new AnkiImportError("unsupported-format", "The zip holds no Anki collection.");
  const [member, format] = found;
  const zstd = format === "anki21b";
  const stored = zip.read(member) ?? new Uint8Array(0);
  const dbBytes = zstd ? zstdDecompress(stored, budget, "The collection") : stored;

  const db = await openDatabase(dbBytes, options);
  try {
    const collection = asCorrupt("The collection cannot be read", () => readCollection(db));
    const skippedCounts = new Map<string, number>();
    const skip = (reason: string, count = 1) => skippedCounts.set(reason, (skippedCounts.get(reason) ?? 0) + count);

    const notes = mapNotes(collection, skip);
    const reviews = readReviews(
      collection.revlog,
      new Set(collection.cards.map((c) => c.id)),
      collection.schedulerVersion,
      skip,
    );
    const { media, missing } = readMedia(zip, readMediaMap(zip, zstd, budget), zstd, budget);
    if (missing > 0) skip("missing-media", missing);

    const noteCounts = new Map<number, number>();
    for (const note of collection.notes) noteCounts.set(note.mid, (noteCounts.get(note.mid) ?? 0) + 1);
    const noteTypes: AnkiNoteTypeSummary[] = [...collection.noteTypes.values()].map((type) =>
      noteTypeSummary(type, noteCounts.get(type.id) ?? 0),
    );
    const held = new Set(media.map((file) => file.name));
    const missingMedia = missingMediaNames(
      notes.flatMap((note) => Object.values(note.rawFields)),
      held,
    );

    return {
      format,
      collection: {
        createdAt: new Date(collection.createdAtSeconds * 1000),
        schedulerVersion: collection.schedulerVersion,
      },
      decks: [...collection.decks].map(([ankiDeckId, name]) => ({
        ankiDeckId,
        name,
        configId: collection.deckConfigIds.get(ankiDeckId) ?? null,
      })),
      deckConfigs: collection.deckConfigs,
      noteTypes,
      notes,
      media,
      missingMedia,
      reviews,
      skipped: [...skippedCounts].map(([reason, count]) => ({ reason, count })),
    };
  } finally {
    db.close();
  }
}
