"""The engine: the catalogue of core actions, checking an action once, playing it (the
event log, undo), the game master's table actions, what the actor may do now.
"""
