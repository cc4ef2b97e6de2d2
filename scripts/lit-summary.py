#!/usr/bin/env python3
"""Prints "N skipped" and, last, "N passed, N failed" from xunit reports
(lit's, and the Python package's tests').

usage: lit-summary.py RESULTS.xml EXIT_STATUS [RESULTS.xml EXIT_STATUS ...]
Exits non-zero if anything failed, if a run failed without reporting a
test, or if no test passed.
"""
import sys
import xml.etree.ElementTree as ET

passed = failed = skipped = 0
arguments = sys.argv[1:]
for path, status in zip(arguments[::2], arguments[1::2]):
    run_failed = 0
    try:
        for case in ET.parse(path).getroot().iter("testcase"):
            if case.find("failure") is not None or case.find("error") is not None:
                run_failed += 1
            elif case.find("skipped") is not None:
                skipped += 1
            else:
                passed += 1
    except (OSError, ET.ParseError):
        run_failed += 1
    if int(status) != 0 and run_failed == 0:
        run_failed = 1  # the run failed without reporting a test: count it.
    failed += run_failed
print(f"{skipped} skipped (unsupported here or skipped by the test itself)")
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed or not passed else 0)
