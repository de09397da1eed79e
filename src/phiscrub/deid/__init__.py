"""``phiscrub deid``: de-identify a corpus end to end (see docs/deid.md).

- ``phiscrub.deid.batch``: notes through worker processes, in order, fail-closed
  (``parallel_results`` serves ``Deidentifier.pipe(jobs=N)``).
- ``phiscrub.deid.engine``: a run: read, chunks, output, error report, summary.
- ``phiscrub.deid.work``: the work directory that makes a run resumable.
- ``phiscrub.deid.cli``: the command.
"""
