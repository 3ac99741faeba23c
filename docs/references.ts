/**
 * References from code and docs to the documents in docs/: `docs/product.md §6`,
 * or a list, `docs/product.md §4, §9`. A `§n` belongs to the last `docs/<file>.md`
 * before it on its line or earlier in the comment or paragraph it continues;
 * inside docs/, a `§n` with none before it names a section of its own file.
 */

/** The section numbers (`## n. Title`) of each document, by repository path. */
export type Sections = ReadonlyMap<string, ReadonlySet<number>>;

export interface Problem {
  file: string;
  line: number;
  message: string;
}

/** Names of documents that were never part of the repository. */
const outsideDocument = /\bPRODUCT\b|\bSTYLE(?:\.md\b|\s+\d+)|\bARCHITECTURE\b/;
const documentOrSection = /(?<![\w./-])(docs\/[\w-]+\.md)|§\s*(\d*)/g;
const commentStart = /^(?:\/\/|\/\*|\*|--|#|\{\/\*)/;

/** The numbers of a document's `## n. Title` headings. */
export function sectionNumbers(markdown: string): Set<number> {
  const numbers = new Set<number>();
  for (const match of markdown.matchAll(/^## (\d+)\. /gm)) numbers.add(Number(match[1]));
  return numbers;
}

/** Every broken or outdated reference in one file's text. */
export function checkReferences(file: string, text: string, sections: Sections): Problem[] {
  const problems: Problem[] = [];
  const markdown = file.endsWith(".md");
  const ownDocument = /^docs\/[\w-]+\.md$/.test(file) ? file : undefined;
  // The document a `§n` on a continuing comment or paragraph line belongs to.
  let carried: string | undefined;

  text.split("\n").forEach((content, index) => {
    const line = index + 1;
    const report = (message: string) => problems.push({ file, line, message });
    const trimmed = content.trim();
    const continues = markdown ? trimmed !== "" && !trimmed.startsWith("#") : commentStart.test(trimmed);
    if (!continues) carried = undefined;

    const outside = outsideDocument.exec(content);
    if (outside) report(`"${outside[0]}" names a document outside the repository: cite docs/<file>.md §n instead`);

    let current = carried;
    for (const match of content.matchAll(documentOrSection)) {
      const [, document, number] = match;
      if (document) {
        current = document;
        if (!sections.has(document)) report(`${document} does not exist`);
        continue;
      }
      const target = current ?? ownDocument;
      if (!number) report("§ without a section number");
      else if (!target) report(`§${number} names no document: write docs/<file>.md §${number}`);
      else if (sections.get(target)?.has(Number(number)) === false) {
        report(`${target} has no section ${number} (no "## ${number}. " heading)`);
      }
    }
    carried = continues ? current : undefined;
  });
  return problems;
}
