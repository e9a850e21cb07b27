"""OpenWorker Qt: a native desktop AI coworker.

The package is split in two halves. Everything below ``core``, ``providers``,
``tools``, ``storage`` and the other domain packages is plain asyncio Python and
never imports Qt (an import-linter contract checks it). ``qt`` adapts that core
to Qt signals and ``ui`` holds the widgets.
"""

__version__ = "0.1.0"
