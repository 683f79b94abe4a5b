"""Tests of graders/authoring: the author's tools."""
