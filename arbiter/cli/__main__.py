"""``python -m arbiter.cli``: the same as the ``arbiter`` command."""

from . import main

main()
