/**
 * The sample deck a new user can add in one click (docs/product.md §2, "The first minute"): a few
 * notes of every built-in kind about how memory and spaced repetition work,
 * with a little formatting and one formula, so the first session shows what
 * the app does. Plain data; the SDK adds it as one import.
 */
import type { BasicFields, ClozeFields } from "./notes";

export type SampleNote =
  | { kind: "basic" | "basic_reversed" | "type_in"; fields: BasicFields; tags: string[] }
  | { kind: "cloze"; fields: ClozeFields; tags: string[] };

export { sampleDeckKey, sampleDeckName } from "./sample-deck-name";

const basic = (front: string, back: string, tags = ["effects"]): SampleNote => ({
  kind: "basic",
  fields: { front, back },
  tags: ["sample", ...tags],
});
const reversed = (front: string, back: string): SampleNote => ({
  kind: "basic_reversed",
  fields: { front, back },
  tags: ["sample", "terms"],
});
const cloze = (text: string, extra = ""): SampleNote => ({
  kind: "cloze",
  fields: { text, extra },
  tags: ["sample", "facts"],
});
const typeIn = (front: string, back: string): SampleNote => ({
  kind: "type_in",
  fields: { front, back },
  tags: ["sample", "type-the-answer"],
});

export const sampleDeckNotes: readonly SampleNote[] = [
  basic(
    "What is the <i>testing effect</i>?",
    "Recalling something from memory strengthens it more than reading it again does.",
  ),
  basic(
    "What is the <i>spacing effect</i>?",
    "Study spread out over days is remembered far longer than the same amount of study crammed into one sitting.",
  ),
  basic(
    "How did Hermann Ebbinghaus measure forgetting?",
    "He learned lists of nonsense syllables himself and timed how much faster he could relearn them after hours or days.",
    ["history"],
  ),
  basic(
    "What should you press when you could not recall the answer?",
    "<b>Again</b>. The card comes back soon, and its intervals grow again from there. Pressing <b>Good</b> anyway only hides what you forgot.",
    ["studying"],
  ),
  basic(
    "Why keep each card to one small fact?",
    "<ul><li>It is answered in seconds.</li><li>It fails for one reason only, so its schedule fits what you actually forget.</li></ul>",
    ["studying"],
  ),
  basic(
    "What does <i>desired retention</i> set?",
    "The chance of remembering a card on the day it comes due. Higher means shorter intervals and more reviews; 90% is a common choice.",
    ["studying"],
  ),
  basic(
    "Does sleep matter for memory?",
    "Yes. Sleep after learning helps consolidate new memories, so a night's sleep between study sessions is time well spent.",
  ),
  reversed("Encoding", "Turning what you perceive into a memory trace."),
  reversed("Retrieval", "Bringing a stored memory back to mind."),
  reversed("Consolidation", "The process that stabilises a new memory after learning, partly during sleep."),
  reversed("Interleaving", "Mixing different kinds of problems or topics within one study session."),
  reversed("Mnemonic", "A memory aid, such as a rhyme, an acronym or a vivid image, linking new facts to easy ones."),
  cloze(
    "Ebbinghaus published his experiments on memory in {{c1::1885}}, in a book called <i>{{c2::Über das Gedächtnis}}</i>.",
    "In English: <i>Memory: A Contribution to Experimental Psychology</i>.",
  ),
  cloze(
    "In 1956 George Miller put the span of short-term memory at about {{c1::seven}} items, plus or minus two.",
    "Later estimates are lower, around four meaningful chunks.",
  ),
  cloze("Without review, we forget {{c1::fastest}} just after learning, and {{c2::more slowly}} as time goes on."),
  cloze(
    "In FSRS, a card's {{c1::stability}} is the time it takes for its chance of recall to fall from 100% to {{c2::90%}}.",
  ),
  cloze("In FSRS, a card's {{c1::difficulty}} says how hard it is to make its memory more stable."),
  cloze(
    "FSRS-4.5 models the chance of recall after \\(t\\) days as \\[R(t) = \\left(1 + \\frac{19}{81} \\cdot \\frac{t}{S}\\right)^{-0.5}\\] so when \\(t = S\\), \\(R = \\) {{c1::90%}}.",
    "Because \\(1 + \\frac{19}{81} = \\frac{100}{81}\\), and \\(\\left(\\frac{100}{81}\\right)^{-0.5} = \\frac{9}{10}\\).",
  ),
  cloze("A {{c1::cloze}} card hides part of a sentence and asks you to fill it in, like this one."),
  typeIn("Who drew the first forgetting curve? (surname)", "Ebbinghaus"),
  typeIn("Answering questions from memory, instead of rereading, is called ___ practice.", "retrieval"),
  typeIn("Which seahorse-shaped part of the brain is needed to form new memories of facts and events?", "hippocampus"),
];
