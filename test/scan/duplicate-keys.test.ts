import { describe, expect, it } from 'vitest';
import { countKeyTokens, hasDuplicateKey } from '../../server/scan/duplicate-keys';

const dup = (text: string) => hasDuplicateKey(text, JSON.parse(text));

describe('duplicate key detection', () => {
  it.each([
    ['{"a":1,"b":2}', false],
    ['{"a":1,"a":2}', true],
    ['{"a":{"x":1,"y":{"z":[{"k":1},{"k":2}]}}}', false],
    ['{"a":[{"k":1,"k":1}]}', true],
    ['{"a" : 1 , "b":{"c" :2, "c" : 3}}', true],
    ['{"text":"a \\"quoted\\": value, \\"a\\":1"}', false],
    ['{"text":"ends with backslash \\\\","text2":"x"}', false],
    ['{"text":"ends with backslash \\\\","text":"x"}', true],
    ['{"k":"colon: inside", "v": ":"}', false],
    ['{"__proto__":1,"__proto__":2}', true],
    ['{"__proto__":{"a":1}}', false],
    ['["a","b",{"c":"d"}]', false],
    ['"just a string"', false],
    ['{"emoji \ud83d\ude80":1,"emoji \ud83d\ude80":2}', true],
  ])('%s → %s', (text, expected) => {
    expect(dup(text)).toBe(expected);
  });

  it('counts keys, not values that look like keys', () => {
    expect(countKeyTokens('{"a":"b","c":["d","e:"],"f":{"g":"h"}}')).toBe(4);
  });
});
