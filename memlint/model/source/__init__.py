"""The repository's files as memlint may read them: safely, once, within bounds.

Owns: reading one file (`files`: only a regular file, up to a size, without following a FIFO or a
device), which file texts a run keeps in memory (`residency`), memlint's own bounds on the work a
repository can cause (`limits`), `.gitignore`/`.ignore` files read the way git reads them (`ignorefiles`),
the git root and project root above a start folder (`gitroot`), and path sorting (`pathorder`).

May import: `memlint.model.release` and `memlint.model.cli_js`. Imported by `text` and everything above.
"""
