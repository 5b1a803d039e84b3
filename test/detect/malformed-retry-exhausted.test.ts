import { describe } from 'vitest';
import { detectorFixtureTests } from '../support/detector-fixtures';

describe('malformed_retry_exhausted fixtures', () => detectorFixtureTests('malformed_retry_exhausted'));
