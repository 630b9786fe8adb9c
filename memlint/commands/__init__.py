"""The commands beside `check`, `fix`, `clean` and `lsp` (cli.py), and what the commands share.

`common` (exit codes, the HOME option, colour), `run` (one check or fix run: call the API, write
fixes, format), `context`, `pages` (`rules`, `explain`), `hook` and `reading` (`context --reading`).
Each module imports its heavy parts only when its command runs."""
