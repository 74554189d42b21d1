import { describe, expect, it } from 'vitest';
import { csvCell, csvRow } from './csv.ts';

describe('CSV', () => {
  it('leaves plain text as it is', () => {
    expect(csvCell('Ada Lovelace')).toBe('Ada Lovelace');
    expect(csvCell('')).toBe('');
  });

  it('quotes cells with commas, quotes or line breaks and doubles the quotes', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('cr\r')).toBe('"cr\r"');
  });

  it('turns cells a spreadsheet would run as formulas into text', () => {
    expect(csvCell('=HYPERLINK("http://evil.example")')).toBe('"\'=HYPERLINK(""http://evil.example"")"');
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-2+3')).toBe("'-2+3");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\t=1')).toBe("'\t=1");
    expect(csvCell('a=b')).toBe('a=b');
  });

  it('ends each row with CRLF', () => {
    expect(csvRow(['date', 'a,b', '=1'])).toBe('date,"a,b",\'=1\r\n');
  });
});
