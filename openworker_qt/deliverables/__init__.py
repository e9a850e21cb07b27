"""Finished documents for the deliverables tool and its panel: rendering, charts, formulas. No Qt here."""
