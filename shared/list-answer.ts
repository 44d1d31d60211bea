/**
 * List tasks ("List at least five achievements …", docs/product.md#108-progress): the answer is one
 * item per line, and the task counts as done only once it holds its minimum. The web counts the
 * same way while the learner types (a hint; saving is never blocked), so both sides agree.
 */

const NUMBER_WORDS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10 };

/** "List at least five achievements" → 5; null when the label asks for no list. */
export function listMinimum(label: string): number | null {
  if (!/^\s*(list|write|rewrite)\b/i.test(label)) return null;
  const match = /\bat least (\d+|one|two|three|four|five|six|seven|eight|nine|ten)\b/i.exec(label);
  if (!match) return null;
  const value = match[1].toLowerCase();
  return NUMBER_WORDS[value] ?? Number(value);
}

/** Items of a written list: one per non-empty line, bullets and numbering ignored. */
export function countListItems(answer: string): number {
  return answer
    .split(/\r?\n/)
    .map((line) => line.replace(/^\s*(?:[-*•]|\d+[.)])\s*/, '').trim())
    .filter(Boolean).length;
}

/** A text answer is done when it is not empty and, for a list task, holds at least `minItems` items. */
export function textAnswerDone(answer: string, minItems: number | undefined): boolean {
  if (answer === '') return false;
  return minItems === undefined || countListItems(answer) >= minItems;
}
