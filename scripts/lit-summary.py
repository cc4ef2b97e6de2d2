#!/usr/bin/env python3
"""Prints "N skipped" and, last, "N passed, N failed" from a lit xunit report.

usage: lit-summary.py RESULTS.xml LIT_EXIT_STATUS
Exits non-zero if anything failed, if lit failed without reporting a test,
or if no test passed.
"""
import sys
import xml.etree.ElementTree as ET

path, status = sys.argv[1], int(sys.argv[2])
passed = failed = skipped = 0
try:
    for case in ET.parse(path).getroot().iter("testcase"):
        if case.find("failure") is not None or case.find("error") is not None:
            failed += 1
        elif case.find("skipped") is not None:
            skipped += 1
        else:
            passed += 1
except (OSError, ET.ParseError):
    failed += 1
if status != 0 and failed == 0:
    failed = 1  # lit failed without reporting a test: count it.
print(f"{skipped} skipped (unsupported here or skipped by the test itself)")
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed or not passed else 0)
