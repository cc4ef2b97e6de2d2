"""Measures the DaCe importer on a list of public DaCe files
(scripts/dace-public-corpus.py is the command; docs/dace-import.md, section
"Public corpus", holds what it measured)."""
