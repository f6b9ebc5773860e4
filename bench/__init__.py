"""The benchmarks, run as modules from the repository root: `python -m bench.<script>`.

Each line of inquiry is recorded in its own folder under bench/experiments/ (a dated page and the
results files beside it); bench/experiments/README.md lists them and the commands.
"""
