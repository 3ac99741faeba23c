/** The Anki fixtures' histories as the review_logs rows an import writes, read back for training. */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { readAnkiPackage } from "../import/anki/read-package";
import { scheduleFromAnki } from "../import/anki/schedule";
import type { AnkiPackage, AnkiReview } from "../import/anki/types";
import type { TrainingLog } from "./items";

export const ankiFixtures = fileURLToPath(new URL("../../../../../shared/fixtures/anki/", import.meta.url));

export const ankiFixtureFiles = [
  "simple-spanish-w-audio.colpkg.apkg",
  "bg-hashtable.colpkg",
  "BarRonPcAp.colpkg",
  "spoken-languages__english__Vocab__2023.apkg",
  "collection.apkg",
  "spoken-languages-pc-2-dec-21.apkg",
] as const;

export function importedLogs(pkg: AnkiPackage): TrainingLog[] {
  const byCard = new Map<number, AnkiReview[]>();
  for (const r of pkg.reviews) byCard.set(r.ankiCardId, [...(byCard.get(r.ankiCardId) ?? []), r]);
  return pkg.notes
    .flatMap((n) => n.cards)
    .flatMap((card) =>
      scheduleFromAnki(card, byCard.get(card.ankiCardId) ?? [], pkg.collection).reviews.map((r) => ({
        cardId: String(card.ankiCardId),
        rating: r.rating,
        reviewedAt: r.reviewed_at,
        state: r.state,
      })),
    );
}

export async function fixtureLogs(file: string): Promise<TrainingLog[]> {
  return importedLogs(await readAnkiPackage(new Uint8Array(readFileSync(`${ankiFixtures}${file}`))));
}
