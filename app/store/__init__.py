"""Database queries, and nothing else: every function takes keyword-only arguments."""
