"""The balance lab: tactics, exact win odds by an absorbing Markov chain, Monte Carlo
of whole fights, and comparisons of rule variants (docs/lab.md). No face library here:
``fracas lab`` (cli/cmd_lab.py) calls it and prints."""
