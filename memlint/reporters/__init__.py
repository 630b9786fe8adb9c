"""Output formats: `context` views and `check` reports."""
