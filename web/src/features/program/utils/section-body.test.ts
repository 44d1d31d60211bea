import { describe, expect, it } from 'vitest';
import { parseSectionBody } from './section-body';

describe('parseSectionBody', () => {
  it('splits paragraphs on blank lines and joins soft-wrapped lines', () => {
    expect(parseSectionBody('First line\ncontinues.\n\n  \nSecond.')).toEqual([
      { kind: 'paragraph', text: 'First line continues.' },
      { kind: 'paragraph', text: 'Second.' },
    ]);
  });
  it("turns '- ' lines into a list, keeping order with prose", () => {
    expect(parseSectionBody('Try these:\n- one\n- two\nThen rest.\r\n\r\n- solo')).toEqual([
      { kind: 'paragraph', text: 'Try these:' },
      { kind: 'list', items: ['one', 'two'] },
      { kind: 'paragraph', text: 'Then rest.' },
      { kind: 'list', items: ['solo'] },
    ]);
  });
  it('gives nothing for an empty body', () => {
    expect(parseSectionBody('')).toEqual([]);
  });
});
