"""``python -m fracas``: the command line."""

from fracas.cli import main

main()
