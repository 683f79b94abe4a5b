"""Mutants of a reference solution: the operators that derive them, their runs, the score."""
