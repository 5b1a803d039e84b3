import { describe } from 'vitest';
import { detectorFixtureTests } from '../support/detector-fixtures';

describe('api_tool_pairing_error fixtures', () => detectorFixtureTests('api_tool_pairing_error'));
