"""Terminal games: the text loops behind ``gamecore play`` and ``gamecore tetralath``."""
