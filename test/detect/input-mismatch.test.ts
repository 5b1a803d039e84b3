import { describe } from 'vitest';
import { detectorFixtureTests } from '../support/detector-fixtures';

describe('input_mismatch fixtures (stream captures)', () => detectorFixtureTests('input_mismatch'));
