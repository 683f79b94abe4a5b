"""Mutants of a reference solution: the operators that derive them and their runs (the score
they give an exercise's cases is graders/authoring/mutation_score.py)."""
