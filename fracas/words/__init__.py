"""The faces' words: events and odds as sentences, the rules' listing and rule texts, the
terminal's safe console.
"""
