"""The language server (`memlint lsp`): diagnostics, code actions, hovers and include links for
memory files open in an editor, from the same whole-tree model and rules as `memlint check`.

Imported only when `memlint lsp` runs (pygls and lsprotocol are not loaded by other commands)."""
