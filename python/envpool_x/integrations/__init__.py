"""Adapters for RL libraries (imported lazily: each needs its library)."""
