-- Per folder: read the complete rows of damaged files instead of failing them (README, "Salvage").
-- Off by default: a damaged file fails closed and counts nowhere unless the owner asks for salvage.
ALTER TABLE roots ADD COLUMN salvage INTEGER NOT NULL DEFAULT 0 CHECK (salvage IN (0, 1));
