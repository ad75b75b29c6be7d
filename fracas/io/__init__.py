"""In and out: encounter files (read, validated, exported) and the stores of encounters."""
