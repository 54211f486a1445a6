"""Flash and RAM use of a linked firmware against its board and budgets."""
