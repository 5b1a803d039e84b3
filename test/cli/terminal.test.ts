import { describe, expect, it } from 'vitest';
import { fitTable, terminalOf, unpainted, wrapText } from '../../server/cli/terminal';

describe('terminal text', () => {
  const columns = [
    { header: 'file', cells: ['a/very/long/project/folder/name/0123456789abcdef/session-fedcba9876543210.jsonl', 'short.jsonl'], min: [24, 24, 16, 10] },
    { header: 'lines', cells: ['12345-12350', '2'], right: true },
    { header: 'code', cells: ['empty_tool_input_with_error_result', 'missing_tool_use_block'], min: [Infinity, Infinity, 16, 8], style: 'yellow' as const },
    { header: 'model', cells: ['claude-haiku-4-5-20251001', '-'], short: ['haiku-4-5', '-'], min: [Infinity, Infinity, 8, 6] },
  ];

  it.each([20, 40, 60, 80, 120, 200])('fitTable keeps every line within %i columns, coloured or not, and cuts the file in the middle', (width) => {
    for (const colour of [false, true]) {
      const lines = fitTable(columns, { width, colour });
      for (const line of lines) expect([...unpainted(line)].length).toBeLessThanOrEqual(width);
      expect(lines).toHaveLength(4);
      if (width >= 60 && width < 200) expect(lines[2]).toMatch(/^a\/very\S*…\S*43210\.jsonl /);
      if (width >= 200) expect(lines[2]!.startsWith(`${columns[0]!.cells[0]} `)).toBe(true);
      if (width >= 200) expect(lines[2]).toContain(' claude-haiku-4-5-20251001');
    }
  });

  it('wrapText keeps an indent and never exceeds the width', () => {
    const text = '  missing_tool_use_block  per 1,000 messages with a recorded stop reason and some more words here';
    for (const width of [10, 30, 80]) for (const line of wrapText(text, width, '    ')) expect(line.length).toBeLessThanOrEqual(width);
    expect(wrapText(text, 200)).toEqual([text]);
    expect(wrapText(text, 40)[0]!.startsWith('  missing')).toBe(true);
  });

  it('terminalOf: COLUMNS, else the terminal, else 80; colour only on a terminal, NO_COLOR wins, FORCE_COLOR forces', () => {
    expect(terminalOf({}, {})).toEqual({ width: 80, colour: false });
    expect(terminalOf({ isTTY: true, columns: 132 }, {})).toEqual({ width: 132, colour: true });
    expect(terminalOf({ isTTY: true, columns: 132 }, { COLUMNS: '100', NO_COLOR: '1' })).toEqual({ width: 100, colour: false });
    expect(terminalOf({}, { COLUMNS: 'wide', FORCE_COLOR: '1' })).toEqual({ width: 80, colour: true });
    expect(terminalOf({}, { FORCE_COLOR: '0' }).colour).toBe(false);
    expect(terminalOf({ isTTY: true }, { NO_COLOR: '' }).colour).toBe(true);
  });
});
