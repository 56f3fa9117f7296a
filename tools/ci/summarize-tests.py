#!/usr/bin/env python3
"""Prints one closing line for a meson test run: 'tests: N passed, N failed, N skipped'.

Counts the individual GoogleTest cases meson recorded in its JUnit log (tests declared with
protocol 'gtest'), and whole test programs for any other protocol. Exits non-zero when anything
failed or nothing ran, so a hollow run cannot look green."""
import sys
import xml.etree.ElementTree as ET

root = ET.parse(sys.argv[1]).getroot()
passed = failed = skipped = 0
for case in root.iter('testcase'):
    if case.find('failure') is not None or case.find('error') is not None:
        failed += 1
    elif case.find('skipped') is not None or case.get('status') == 'notrun' or case.get('result') == 'skipped':
        skipped += 1
    else:
        passed += 1
# Suites meson could not parse (a crashed gtest binary) are recorded with failures/errors counts only.
for suite in root.iter('testsuite'):
    if not suite.findall('testcase'):
        failed += int(suite.get('failures', 0)) + int(suite.get('errors', 0))
print(f"tests: {passed} passed, {failed} failed, {skipped} skipped")
sys.exit(1 if failed or passed == 0 else 0)
