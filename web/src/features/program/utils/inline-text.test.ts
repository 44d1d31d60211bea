import { describe, expect, it } from 'vitest';
import { parseInlineText } from './inline-text';

describe('parseInlineText', () => {
  it('keeps plain text as one run', () => {
    expect(parseInlineText('Recruiters skim.')).toEqual([{ kind: 'text', text: 'Recruiters skim.' }]);
  });
  it('turns [label](https://…) and mailto links into links, text around them kept', () => {
    expect(parseInlineText('Read [the guide](https://example.com/cv?x=1) or [write](mailto:help@example.com).')).toEqual([
      { kind: 'text', text: 'Read ' },
      { kind: 'link', text: 'the guide', href: 'https://example.com/cv?x=1' },
      { kind: 'text', text: ' or ' },
      { kind: 'link', text: 'write', href: 'mailto:help@example.com' },
      { kind: 'text', text: '.' },
    ]);
  });
  it('links a bare address without its trailing punctuation', () => {
    expect(parseInlineText('See https://example.com/jobs.')).toEqual([
      { kind: 'text', text: 'See ' },
      { kind: 'link', text: 'https://example.com/jobs', href: 'https://example.com/jobs' },
      { kind: 'text', text: '.' },
    ]);
  });
  it('leaves any other scheme as the text written', () => {
    const text = 'Do not [click](javascript:alert(1)) or [this](ftp://x) or [rel](/admin).';
    expect(parseInlineText(text).every((part) => part.kind === 'text')).toBe(true);
    expect(
      parseInlineText(text)
        .map((part) => part.text)
        .join(''),
    ).toBe(text);
  });
});
