import { charCount, charCountForMessage, withinChars } from './text-rules';

describe('text rules', () => {
  it('withinChars counts code points: an emoji is one character', () => {
    expect(withinChars('🎬'.repeat(10), 10)).toBe(true);
    expect(withinChars('🎬'.repeat(11), 10)).toBe(false);
    expect(withinChars('x'.repeat(11), 10)).toBe(false);
    expect(withinChars('x'.repeat(21), 10)).toBe(false);
  });

  it('withinChars answers a text over twice the limit in code units from its length alone', () => {
    // Answered without iterating the text (a body may hold 64 MiB of it).
    const long = 'x'.repeat(21);
    const iterate = jest.spyOn(String.prototype, Symbol.iterator as never);
    try {
      expect(withinChars(long, 10)).toBe(false);
      expect(iterate).not.toHaveBeenCalled();
    } finally {
      iterate.mockRestore();
    }
  });

  it('charCountForMessage counts exactly up to 100,000 characters, then says "more than"', () => {
    expect(charCountForMessage('🎬'.repeat(3))).toBe('3');
    expect(charCountForMessage('x'.repeat(100_000))).toBe('100000');
    expect(charCountForMessage('x'.repeat(100_001))).toBe('more than 100000');
    expect(charCount('🎬x')).toBe(2);
  });
});
