/**
 * Renders Anki card templates (qfmt/afmt) over a note's fields: `{{Field}}`,
 * `{{#Field}}…{{/Field}}`, `{{^Field}}…{{/Field}}`, `{{FrontSide}}`, the special
 * fields (Tags, Deck, Subdeck, Card, Type) and the filters text, type, hint and cloze.
 */

export type TemplateContext = {
  fields: Record<string, string>;
  /** Anki's card ordinal (0-based): the cloze filter hides deletion ord+1 on the front. */
  ord: number;
  side: "front" | "back";
  /** What `{{FrontSide}}` stands for. */
  frontSide?: string;
  special?: { Tags?: string; Deck?: string; Subdeck?: string; Card?: string; Type?: string };
};

type Node =
  | { text: string }
  | { field: string; filters: string[] }
  | { section: string; inverted: boolean; body: Node[] };

function parse(template: string): Node[] {
  const root: Node[] = [];
  const stack: { name: string; body: Node[] }[] = [{ name: "", body: root }];
  const tag = /\{\{([\s\S]*?)\}\}/g;
  let last = 0;
  const top = () => stack[stack.length - 1] as { name: string; body: Node[] };
  for (let match = tag.exec(template); match; match = tag.exec(template)) {
    if (match.index > last) top().body.push({ text: template.slice(last, match.index) });
    last = match.index + match[0].length;
    const inner = (match[1] ?? "").trim();
    const sigil = inner[0];
    if (sigil === "#" || sigil === "^") {
      const body: Node[] = [];
      top().body.push({ section: inner.slice(1).trim(), inverted: sigil === "^", body });
      stack.push({ name: inner.slice(1).trim(), body });
    } else if (sigil === "/") {
      // A stray closing tag is ignored, as an unmatched one would otherwise end the template.
      if (stack.length > 1 && top().name === inner.slice(1).trim()) stack.pop();
    } else if (sigil !== "!") {
      const parts = inner.split(":");
      top().body.push({ field: (parts.pop() ?? "").trim(), filters: parts.map((p) => p.trim()) });
    }
  }
  if (last < template.length) top().body.push({ text: template.slice(last) });
  return root;
}

/** Anki counts a field holding only whitespace, <br> or empty <div>s as empty. */
export function isFieldEmpty(value: string): boolean {
  return /^(?:\s|&nbsp;|<\/?(?:br|div)\s*\/?>)*$/i.test(value);
}

export function stripHtml(html: string): string {
  return html.replace(/<[^>]*>/g, "");
}

const clozePattern = /\{\{c(\d+)::([\s\S]*?)(?:::([\s\S]*?))?\}\}/g;

function renderClozeFilter(text: string, ctx: TemplateContext): string {
  const current = ctx.ord + 1;
  return text.replace(clozePattern, (_, n: string, answer: string, hint?: string) => {
    if (Number(n) !== current) return answer;
    return ctx.side === "front"
      ? `<span class="cloze">[${hint ?? "..."}]</span>`
      : `<span class="cloze">${answer}</span>`;
  });
}

function applyFilter(filter: string, value: string, name: string, ctx: TemplateContext): string {
  switch (filter) {
    case "text":
      return stripHtml(value);
    case "type":
      return "";
    case "hint":
      return isFieldEmpty(value) ? "" : `<details><summary>${name}</summary>${value}</details>`;
    case "cloze":
      return renderClozeFilter(value, ctx);
    default:
      // Filters Engram has no equivalent for (tts, furigana, kana, kanji…) leave the text as it is.
      return value;
  }
}

function lookup(name: string, ctx: TemplateContext): string {
  if (name === "FrontSide") return ctx.frontSide ?? "";
  if (Object.hasOwn(ctx.fields, name)) return ctx.fields[name] ?? "";
  const special = ctx.special?.[name as keyof NonNullable<TemplateContext["special"]>];
  return special ?? "";
}

function renderNodes(nodes: Node[], ctx: TemplateContext): string {
  let out = "";
  for (const node of nodes) {
    if ("text" in node) out += node.text;
    else if ("section" in node) {
      const empty = isFieldEmpty(lookup(node.section, ctx));
      if (empty === node.inverted) out += renderNodes(node.body, ctx);
    } else if (node.filters.includes("type")) {
      // Typing the answer has no place in Engram's study screen: the whole tag is dropped.
    } else {
      // Filters apply right to left: the one next to the field name runs first.
      out += node.filters.reduceRight(
        (value, filter) => applyFilter(filter, value, node.field, ctx),
        lookup(node.field, ctx),
      );
    }
  }
  return out;
}

export function renderTemplate(template: string, ctx: TemplateContext): string {
  return renderNodes(parse(template), ctx);
}
