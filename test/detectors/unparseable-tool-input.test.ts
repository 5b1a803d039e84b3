import { describe } from 'vitest';
import { detectorFixtureTests } from '../support/detector-fixtures';

describe('unparseable_tool_input fixtures (stream captures)', () => detectorFixtureTests('unparseable_tool_input'));
