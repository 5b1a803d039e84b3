import { describe } from 'vitest';
import { detectorFixtureTests } from '../support/detector-fixtures';

describe('orphan_tool_use fixtures', () => detectorFixtureTests('orphan_tool_use'));
