#!/usr/bin/env python3
"""Runs the package's unittest suite and writes a JUnit XML report (the
format of lit's, so that scripts/lit-summary.py counts each test case).

usage: run.py [--xml REPORT.xml] [unittest name patterns...]
Exits non-zero if a test failed or none ran.
"""
import argparse
import os
import sys
import time
import unittest
import xml.etree.ElementTree as ET


class _Result(unittest.TextTestResult):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.cases = []  # (name, seconds, outcome, text)
        self._start = 0.0

    def startTest(self, test):
        self._start = time.monotonic()
        super().startTest(test)

    def _record(self, test, outcome, text=""):
        self.cases.append((test.id(), time.monotonic() - self._start, outcome, text))

    def addSuccess(self, test):
        super().addSuccess(test)
        self._record(test, "pass")

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self._record(test, "failure", self._exc_info_to_string(err, test))

    def addError(self, test, err):
        super().addError(test, err)
        self._record(test, "error", self._exc_info_to_string(err, test))

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self._record(test, "skipped", reason)

    def addExpectedFailure(self, test, err):
        super().addExpectedFailure(test, err)
        self._record(test, "pass")

    def addUnexpectedSuccess(self, test):
        super().addUnexpectedSuccess(test)
        self._record(test, "failure", "unexpected success")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--xml")
    parser.add_argument("patterns", nargs="*")
    args = parser.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    loader = unittest.TestLoader()
    if args.patterns:
        sys.path.insert(0, here)
        suite = loader.loadTestsFromNames(args.patterns)
    else:
        suite = loader.discover(here, pattern="test_*.py", top_level_dir=here)
    runner = unittest.TextTestRunner(resultclass=_Result, verbosity=2, stream=sys.stdout)
    result = runner.run(suite)
    if args.xml:
        root = ET.Element("testsuites")
        suite_element = ET.SubElement(root, "testsuite", name="sdfgstream-python",
                                      tests=str(len(result.cases)))
        for name, seconds, outcome, text in result.cases:
            module, _, case = name.rpartition(".")
            element = ET.SubElement(suite_element, "testcase",
                                    classname="sdfgstream-python." + module,
                                    name=case, time="%.3f" % seconds)
            if outcome in ("failure", "error"):
                ET.SubElement(element, outcome, message=text.splitlines()[-1] if text else "").text = text
            elif outcome == "skipped":
                ET.SubElement(element, "skipped", message=text)
        ET.ElementTree(root).write(args.xml, encoding="utf-8", xml_declaration=True)
    ran = len(result.cases) - len(result.skipped)
    return 0 if result.wasSuccessful() and ran > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
