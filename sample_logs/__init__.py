"""Bundled example logs, installed with rankboard as ``rankboard_sample_logs``."""
