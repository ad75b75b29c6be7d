"""Live play at the table: the prompt (``fracas play``), its command language, manual
dice, and the session that keeps an engine in step with the encounter store."""
