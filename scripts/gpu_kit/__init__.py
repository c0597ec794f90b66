"""The GPU kit: prepare here, stage and run on a lent GPU machine (docs/gpu_kit.md)."""
