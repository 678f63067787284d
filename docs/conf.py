"""Sphinx configuration of gamecore's API reference (``sphinx-build -W docs docs/_build``)."""

import importlib.util
import os
import sys

# The package from the source tree when it is not installed (the pure backend needs no build).
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "python"))

import gamecore  # noqa: E402

project = "gamecore"
version = release = gamecore.__version__
extensions = ["sphinx.ext.autodoc", "sphinx.ext.viewcode", "sphinx.ext.napoleon"]
# The entry points' docstrings read well in help() too: Google-style "Args:"/"Raises:" sections
# (napoleon) and `single backticks` for code, which Sphinx shows as code (#33).
default_role = "literal"
napoleon_numpy_docstring = False
autodoc_member_order = "bysource"
# The optional extras' frameworks (`web`, `rl`): their pages build without them.
autodoc_mock_imports = ["starlette", "uvicorn", "pettingzoo", "gymnasium", "pyspiel", "open_spiel"]
# numpy (the rl and train extras' array library) is mocked only where it is missing: the
# reference builds in a venv of .[test,lint,docs] alone, and from the real one elsewhere.
if importlib.util.find_spec("numpy") is None:
    autodoc_mock_imports.append("numpy")
autodoc_default_options = {"members": True, "show-inheritance": True}
autodoc_typehints = "description"
exclude_patterns = ["_build"]
html_theme = "alabaster"


def _skip_game_colour_attribute(app, what, name, obj, skip, options):  # noqa: ANN001, ANN202
    # A game class's Color attribute (each game's colours) has the name of the base class
    # gamecore.games.base.Color: documented once, as that class, so "Color" finds one target.
    return True if what == "class" and name == "Color" else None


def setup(app):  # noqa: ANN001, ANN201
    app.connect("autodoc-skip-member", _skip_game_colour_attribute)
