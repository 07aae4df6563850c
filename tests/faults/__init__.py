"""`make faults`: the fault campaign against the real `rulescorpus` commands.

Three parts, each run as the real command line in its own process:

- cases (`fault_cases`): a fault server on 127.0.0.1 and damaged mirrors, corpora and
  disks, each with the exit code the contract promises, a byte-identical corpus after a
  failure, no traceback, and a message that names what failed;
- the crash campaign (`crash_campaign`): `update` and `import` killed at every rename and
  fsync they make and at random instants; after each kill `verify` must pass, the next
  run must succeed and end in the corpus an uninterrupted run makes, with no temporary
  or unreferenced file left;
- concurrent runs (`concurrency`): four at once, exactly one proceeds.

`python -m tests.faults [--quick]` prints one table and exits non-zero on any corrupt
state, leftover file, crash or hang. Its modules import each other relatively; the tests
import it as `tests.faults`.
"""
