"""An example memlint plugin (see docs/plugins.md)."""
