import { describe } from 'vitest';
import { detectorFixtureTests } from '../support/detector-fixtures';

describe('text_leaked_tool_call fixtures', () => detectorFixtureTests('text_leaked_tool_call'));
