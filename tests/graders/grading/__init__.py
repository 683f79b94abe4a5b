"""Tests of graders/grading: a submission graded step by step."""
