"""A learner's own inputs: read without running anything (``parsing``), then answered by their
code and by the reference in the sandbox (``trying``)."""
