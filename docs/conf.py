"""Sphinx configuration of gamecore's API reference (``sphinx-build -W docs docs/_build``)."""

import os
import sys

# The package from the source tree when it is not installed (the pure backend needs no build).
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "python"))

import gamecore  # noqa: E402

project = "gamecore"
version = release = gamecore.__version__
extensions = ["sphinx.ext.autodoc", "sphinx.ext.viewcode"]
autodoc_member_order = "bysource"
# The web board's framework (the optional extra `web`): its pages build without it.
autodoc_mock_imports = ["starlette", "uvicorn"]
autodoc_default_options = {"members": True, "show-inheritance": True}
autodoc_typehints = "description"
exclude_patterns = ["_build"]
html_theme = "alabaster"
# "Color" in an annotation is both the base class and each game's Color attribute: not an error.
suppress_warnings = ["ref.python"]
