import { describe } from 'vitest';
import { detectorFixtureTests } from '../support/detector-fixtures';

describe('tool_result_internal_error fixtures', () => detectorFixtureTests('tool_result_internal_error'));
