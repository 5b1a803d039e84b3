import { describe } from 'vitest';
import { detectorFixtureTests } from '../support/detector-fixtures';

describe('zero_delta_tool_use fixtures (stream captures)', () => detectorFixtureTests('zero_delta_tool_use'));
