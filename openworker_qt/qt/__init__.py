"""Qt adapters over the core (no widgets here)."""
