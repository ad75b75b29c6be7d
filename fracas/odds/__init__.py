"""The odds: an action's exact odds (enumeration merged by state and step, folds of a
node's paths) and the odds of every choice.
"""
