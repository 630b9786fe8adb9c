"""Commands that live beside the core ones in cli.py: each module imports its heavy parts only
when its command runs."""
