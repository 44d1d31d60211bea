/** A run of a paragraph or list item: plain text, or a link an author wrote. */
export type InlinePart = { kind: 'text'; text: string } | { kind: 'link'; text: string; href: string };

// `[label](target)` or a bare http(s) address; mailto only in the bracket form.
const LINK = /\[([^\]\n]+)\]\(\s*<?([^()\s<>]+)>?\s*\)|\bhttps?:\/\/[^\s<>()]+[^\s<>().,;:!?'"]/gi;
const SAFE_HREF = /^(https?:\/\/|mailto:)/i;

/**
 * Splits section text into text and links, the part of Markdown module content uses
 * (docs/product.md#program-authoring). Only http(s) and mailto targets become links — the same
 * rule the authoring API enforces on save — so anything else stays visible as the text written;
 * nothing is ever rendered as HTML.
 */
export function parseInlineText(text: string): InlinePart[] {
  const parts: InlinePart[] = [];
  let last = 0;
  const pushText = (value: string) => {
    if (value) parts.push({ kind: 'text', text: value });
  };
  for (const match of text.matchAll(LINK)) {
    const [whole, label, target] = match;
    const href = target ?? whole;
    if (!SAFE_HREF.test(href)) continue;
    pushText(text.slice(last, match.index));
    parts.push({ kind: 'link', text: label ?? whole, href });
    last = match.index + whole.length;
  }
  pushText(text.slice(last));
  return parts;
}
