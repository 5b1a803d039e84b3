import { describe } from 'vitest';
import { detectorFixtureTests } from '../support/detector-fixtures';

describe('tool_use_stop_without_block fixtures (stream captures)', () => detectorFixtureTests('tool_use_stop_without_block'));
