import { describe } from 'vitest';
import { detectorFixtureTests } from '../support/detector-fixtures';

describe('truncated_tool_use fixtures', () => detectorFixtureTests('truncated_tool_use'));
