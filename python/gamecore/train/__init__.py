"""Training gamecore's learned evaluations (``gamecore train othello --size 8 --out DIR``).

See :mod:`gamecore.train.othello`.
"""
