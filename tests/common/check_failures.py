"""The failure list the Python checks in tests/ share: every check reports with fail(), which prints the
problem and goes on; finish() ends the run, exit status 1 with the number of failures when there were any,
else the line saying what passed."""
import sys

failures = []


def fail(msg):
    failures.append(msg)
    print('FAIL: ' + msg)


def finish(passed_line):
    if failures:
        print(f'{len(failures)} failure(s)')
        sys.exit(1)
    print(passed_line)
