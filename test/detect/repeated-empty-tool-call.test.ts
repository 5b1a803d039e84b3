import { describe } from 'vitest';
import { detectorFixtureTests } from '../support/detector-fixtures';

describe('repeated_empty_tool_call fixtures', () => detectorFixtureTests('repeated_empty_tool_call'));
