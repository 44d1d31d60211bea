import { describe, expect, it } from 'vitest';
import { csvField, csvRow } from './csv';

describe('csvField', () => {
  it('writes plain text, numbers, booleans and empty values as they are', () => {
    expect(csvField('Ada')).toBe('Ada');
    expect(csvField(42.5)).toBe('42.5');
    expect(csvField(-3)).toBe('-3');
    expect(csvField(true)).toBe('true');
    expect(csvField(null)).toBe('');
    expect(csvField(undefined)).toBe('');
    expect(csvField('')).toBe('');
  });

  it('quotes fields with a comma, a quote, CR or LF and doubles the quotes (RFC 4180)', () => {
    expect(csvField('Smith, Jane')).toBe('"Smith, Jane"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('line1\nline2')).toBe('"line1\nline2"');
    expect(csvField('a\r\nb')).toBe('"a\r\nb"');
  });

  it.each(['=HYPERLINK("http://evil")', '+1+1', '-2+3', '@SUM(A1)', '\t=1', '\r=1'])(
    'neutralises a cell starting with a formula character: %j',
    (value) => {
      const field = csvField(value);
      const unquoted = field.startsWith('"') ? field.slice(1, -1).replace(/""/g, '"') : field;
      expect(unquoted).toBe(`'${value}`);
    },
  );

  it('leaves formula characters inside a cell alone', () => {
    expect(csvField('a=b')).toBe('a=b');
    expect(csvField('user@example.com')).toBe('user@example.com');
  });
});

describe('csvRow', () => {
  it('joins the fields with commas and ends with CRLF', () => {
    expect(csvRow(['a', 'b,c', 1, null, '=cmd'])).toBe('a,"b,c",1,,\'=cmd\r\n');
  });
});
