/** Which cards a note type's templates make for a note (Anki's rslib/src/notetype/cardgen.rs). */
import { clozeOrdinals } from "../cloze";
import { nonEmptyNames } from "./fields";
import { parseTemplate, type TemplateNode } from "./parse";

/**
 * Anki's `renders_with_fields`: the template reaches a replacement of a
 * non-empty name, through `{{#F}}` only when F is non-empty and through
 * `{{^F}}` only when F is empty. Text alone does not count.
 */
export function rendersWithFields(nodes: readonly TemplateNode[], nonEmpty: ReadonlySet<string>): boolean {
  return nodes.some((node) => {
    switch (node.type) {
      case "replacement":
        return nonEmpty.has(node.key);
      case "section":
        return nonEmpty.has(node.key) !== node.negated && rendersWithFields(node.children, nonEmpty);
      default:
        return false;
    }
  });
}

/** Field names a template shows with the `cloze` filter anywhere in its filter chain. */
export function clozeFieldNames(nodes: readonly TemplateNode[], into = new Set<string>()): Set<string> {
  for (const node of nodes) {
    if (node.type === "replacement" && node.filters.includes("cloze")) into.add(node.key);
    if (node.type === "section") clozeFieldNames(node.children, into);
  }
  return into;
}

/** Field names a template uses: replacements and, when asked, section keys other than Anki's `c1`-style cloze ones. */
export function referencedFieldNames(
  nodes: readonly TemplateNode[],
  withSections: boolean,
  into = new Set<string>(),
): Set<string> {
  for (const node of nodes) {
    if (node.type === "replacement") into.add(node.key);
    if (node.type === "section") {
      if (withSections && !/^c\d+$/.test(node.key)) into.add(node.key);
      referencedFieldNames(node.children, withSections, into);
    }
  }
  return into;
}

type CardSource = {
  kind: "standard" | "cloze";
  fields: readonly string[];
  templates: readonly { front: string }[];
};

/**
 * The 1-based ordinals of a note's cards. Standard: each template whose front
 * renders with the note's fields (a template that does not parse makes no card).
 * Cloze: the cloze numbers in the fields the first front shows with `cloze:`.
 * Either way a note that would have none gets card 1, as Anki gives it.
 */
export function templateOrdinals(
  type: CardSource,
  values: Readonly<Record<string, string>>,
  tags: readonly string[] = [],
): number[] {
  let ordinals: number[];
  if (type.kind === "cloze") {
    const front = parseTemplate(type.templates[0]?.front ?? "");
    const names = front.error ? new Set<string>() : clozeFieldNames(front.nodes);
    const numbers = new Set<number>();
    for (const name of names) {
      if (!type.fields.includes(name)) continue;
      for (const n of clozeOrdinals(values[name] ?? "")) numbers.add(n);
    }
    ordinals = [...numbers].sort((a, b) => a - b);
  } else {
    const nonEmpty = nonEmptyNames(type.fields, values, tags);
    ordinals = [];
    type.templates.forEach((template, index) => {
      const front = parseTemplate(template.front);
      if (!front.error && rendersWithFields(front.nodes, nonEmpty)) ordinals.push(index + 1);
    });
  }
  return ordinals.length > 0 ? ordinals : [1];
}
