"""The command line as a process: what it imports to start (issue 34, startup)."""
