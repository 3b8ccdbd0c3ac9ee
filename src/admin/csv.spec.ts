import { csvField, toCsv } from './csv';

describe('CSV encoding (RFC 4180)', () => {
  it('leaves plain fields alone and writes null/undefined as empty', () => {
    expect(csvField('wx2.7-r2v')).toBe('wx2.7-r2v');
    expect(csvField(5200)).toBe('5200');
    expect(csvField(null)).toBe('');
    expect(csvField(undefined)).toBe('');
  });

  it('quotes commas, quotes, line breaks and edge spaces, doubling inner quotes', () => {
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('cr\rhere')).toBe('"cr\rhere"');
    expect(csvField(' padded')).toBe('" padded"');
  });

  it('writes a text a spreadsheet would run as a formula after a quote mark; numbers stay numbers', () => {
    expect(csvField('=HYPERLINK("http://evil","x")')).toBe('"\'=HYPERLINK(""http://evil"",""x"")"');
    expect(csvField('+1+2')).toBe("'+1+2");
    expect(csvField('-2+3')).toBe("'-2+3");
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvField('\tcmd')).toBe("'\tcmd");
    expect(csvField(-500)).toBe('-500');
    expect(csvField('-500')).toBe('-500');
    expect(csvField('+1.5')).toBe('+1.5');
    expect(csvField('a=b')).toBe('a=b');
  });

  it('writes objects as quoted JSON', () => {
    expect(csvField({ kind: 'ax-r2v', seconds: 5 })).toBe('"{""kind"":""ax-r2v"",""seconds"":5}"');
  });

  it('joins a header and rows with CRLF, ending with one', () => {
    expect(
      toCsv(
        ['a', 'b'],
        [
          [1, 'x,y'],
          [null, 2],
        ],
      ),
    ).toBe('a,b\r\n1,"x,y"\r\n,2\r\n');
    expect(toCsv(['a'], [])).toBe('a\r\n');
  });
});
