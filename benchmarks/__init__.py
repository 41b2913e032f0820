"""Benchmarks: `make bench` runs `python -m benchmarks`."""
