import { describe, expect, it } from 'vitest';
import { ANONYMOUS, personalText, scrubPersonal } from './personal-text';

const jane = personalText(['jane.doe@x.com', 'jane', 'doe', 'jane doe']);

describe('personalText', () => {
  it('replaces the email inside a longer text, in any case', () => {
    expect(jane.scrub('requested by jane.doe@x.com')).toBe(`requested by ${ANONYMOUS}`);
    expect(jane.scrub('Requested by JANE.DOE@X.COM, twice')).toBe(`Requested by ${ANONYMOUS}, twice`);
    expect(jane.scrub('<jane.doe@x.com>: please erase (jane.doe@x.com).')).toBe(`<${ANONYMOUS}>: please erase (${ANONYMOUS}).`);
    expect(jane.scrub('mailto:jane.doe@x.com')).toBe(`mailto:${ANONYMOUS}`);
  });

  it('leaves another address that merely contains the email alone', () => {
    expect(jane.scrub('mary.jane.doe@x.com asked')).toBe('mary.jane.doe@x.com asked');
    expect(jane.scrub('jane.doe@x.com.evil.example asked')).toBe('jane.doe@x.com.evil.example asked');
  });

  it('replaces the full name and each name as whole words, in any case', () => {
    expect(jane.scrub('Jane Doe asked')).toBe(`${ANONYMOUS} asked`);
    expect(jane.scrub('asked by JANE  DOE on the phone')).toBe(`asked by ${ANONYMOUS} on the phone`);
    expect(jane.scrub("Jane's request, Doe agreed")).toBe(`${ANONYMOUS}'s request, ${ANONYMOUS} agreed`);
  });

  it('never replaces a name inside another word', () => {
    expect(jane.scrub('Janet Doering janeway undone')).toBe('Janet Doering janeway undone');
    expect(jane.scrub('Mary-Jane, @jane and jane.smith@x.com')).toBe('Mary-Jane, @jane and jane.smith@x.com');
    expect(jane.scrub('Thanks, Jane.')).toBe(`Thanks, ${ANONYMOUS}.`);
    const ann = personalText(['ann@x.com', 'ann', 'lee', 'ann lee']);
    expect(ann.scrub('Annual review; Ann and Leeds')).toBe(`Annual review; ${ANONYMOUS} and Leeds`);
  });

  it('finds names with accents and marks as whole words', () => {
    const zoe = personalText(['zoë@x.com', 'zoë', 'ángel', 'zoë ángel']);
    expect(zoe.scrub('Zoë Ángel asked; ZOË too; Zoëlle not')).toBe(`${ANONYMOUS} asked; ${ANONYMOUS} too; Zoëlle not`);
  });

  it('replaces a one-character name only as the whole value or within the full name', () => {
    const x = personalText(['x@y.com', 'a', 'smith', 'a smith']);
    expect(x.scrub('a')).toBe(ANONYMOUS);
    expect(x.scrub('A Smith asked for a copy')).toBe(`${ANONYMOUS} asked for a copy`);
    expect(x.scrub('a copy')).toBe('a copy');
  });

  it('treats names with regular-expression characters as text', () => {
    const odd = personalText(['o+d@x.com', 'o.', '(x)', 'o. (x)']);
    expect(odd.scrub('by O. (X) and o+d@x.com')).toBe(`by ${ANONYMOUS} and ${ANONYMOUS}`);
    expect(odd.scrub('box')).toBe('box');
  });

  it('tells a whole value that is the person', () => {
    expect(jane.is('  Jane.Doe@X.com ')).toBe(true);
    expect(jane.is('Jane Doe')).toBe(true);
    expect(jane.is('jane doe asked')).toBe(false);
  });
});

describe('scrubPersonal', () => {
  it('scrubs the free text of audit values at any depth, and the personal fields whole', () => {
    const values = {
      reason: 'requested by jane.doe@x.com',
      notes: ['Jane Doe asked', { by: 'support, for Jane' }],
      email: 'someone@else.example',
      count: 3,
      flag: true,
      nothing: null,
    };
    expect(scrubPersonal(values, jane)).toEqual({
      reason: `requested by ${ANONYMOUS}`,
      notes: [`${ANONYMOUS} asked`, { by: `support, for ${ANONYMOUS}` }],
      email: ANONYMOUS,
      count: 3,
      flag: true,
      nothing: null,
    });
  });

  it('is idempotent: a scrubbed value scrubs to itself', () => {
    const once = scrubPersonal({ reason: 'Jane Doe (jane.doe@x.com) asked' }, jane);
    expect(scrubPersonal(once, jane)).toEqual(once);
  });
});
