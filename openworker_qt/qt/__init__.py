"""Qt adapters over the core (no widgets here).

Importing this package applies binding work-arounds first (see ``compat``).
"""

from openworker_qt.qt import compat as _compat  # noqa: F401
