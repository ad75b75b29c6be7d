"""``python -m fracas``: every command."""

from fracas.main import main

main()
